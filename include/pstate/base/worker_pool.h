// A small fixed pool of threads for data-parallel loops (decrypting and
// encrypting the secrets of one resource on all cores).
#ifndef PSTATE_BASE_WORKER_POOL_H_
#define PSTATE_BASE_WORKER_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pstate {

class WorkerPool {
 public:
  /// `threads` workers in all, the calling thread included; 0 means one per
  /// hardware thread.
  explicit WorkerPool(unsigned threads = 0);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Calls fn(i) for every i in [0, n), spread over the pool, and returns
  /// when all calls returned. `fn` must not throw. Not reentrant.
  void ParallelFor(std::size_t n, const std::function<void(std::size_t)>& fn);

  unsigned size() const { return static_cast<unsigned>(threads_.size()) + 1; }

 private:
  void Work();
  void RunItems();

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
  /// Workers done with the current generation; every worker takes part in
  /// every generation, so none can wake late into the next one.
  std::size_t finished_ = 0;
  const std::function<void(std::size_t)>* fn_ = nullptr;
  std::size_t count_ = 0;
  std::atomic<std::size_t> next_{0};
};

}  // namespace pstate

#endif  // PSTATE_BASE_WORKER_POOL_H_
