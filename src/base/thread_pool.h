// The one thread pool of pstate: a fixed set of workers for both kinds of
// parallel work the commands do, sized by the one `--jobs N` convention.
//
//  - Ordered work (assets hashing): Submit(work, deliver) runs `work` on a
//    worker and `deliver` on the submitting thread, strictly in submission
//    order, with a bound on how much is in flight.
//  - Data-parallel loops (decrypting one resource's secrets):
//    ParallelFor(n, fn) calls fn(i) for every i, on the workers and the
//    calling thread.
// Either way at most `jobs` threads compute at once. No exception escapes a
// worker thread: what `work` or `fn` throws is caught there and rethrown on
// the caller's thread (from the Submit or Finish that would have delivered
// it, or from ParallelFor).
#ifndef PSTATE_BASE_THREAD_POOL_H_
#define PSTATE_BASE_THREAD_POOL_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "base/result.h"

namespace pstate {

/// The largest --jobs any command accepts.
inline constexpr int kMaxJobs = 1024;

/// The number of processors (1 to kMaxJobs): the default for --jobs.
int DefaultJobs();

class ThreadPool {
 public:
  /// `jobs` threads compute (< 1 counts as 1): `jobs` workers run ordered
  /// work while the caller delivers; ParallelFor uses jobs - 1 workers and
  /// the caller. `max_in_flight` 0 means 4 × jobs. A thread that cannot be
  /// started makes status() an error; the pool still works, on fewer
  /// threads, or on the caller's thread when none started.
  explicit ThreadPool(int jobs, std::size_t max_in_flight = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Ordered work. Contract:
  ///  - at most `max_in_flight` tasks are submitted but not yet delivered;
  ///    Submit blocks (delivering what is ready) until there is room, so the
  ///    memory held by pending tasks is bounded whatever the input size;
  ///  - deliver functions run only inside Submit and Finish, on the caller's
  ///    thread, never concurrently, in submission order;
  ///  - an exception thrown by `work` is rethrown from the Submit or Finish
  ///    that would have delivered it (the task's deliver is skipped).
  /// One thread submits; the pool is not for use from several.
  void Submit(std::function<void()> work, std::function<void()> deliver);
  /// Waits for every submitted task and delivers the rest, in order.
  void Finish();

  /// Calls fn(i) for every i in [0, n), spread over the pool and the
  /// calling thread, and returns when every call returned. The first
  /// exception `fn` throws stops handing out indices and is rethrown here.
  /// Not reentrant; not while ordered work is pending.
  void ParallelFor(std::size_t n, const std::function<void(std::size_t)>& fn);

  /// Worker threads that started.
  int jobs() const { return static_cast<int>(workers_.size()); }
  /// Ok, or why not every requested thread could be started.
  const Status& status() const { return status_; }
  std::size_t max_in_flight() const { return max_in_flight_; }

 private:
  struct Task {
    std::function<void()> work;
    std::function<void()> deliver;
    bool ordered = true;  ///< false: a ParallelFor helper, never delivered
    bool done = false;
    std::exception_ptr error;
  };

  void WorkerLoop();
  /// Delivers finished tasks at the head of the order; with `wait_for`,
  /// first waits until fewer than that many tasks are pending.
  void Deliver(std::unique_lock<std::mutex>& lock, std::size_t wait_for);

  int requested_;
  std::size_t max_in_flight_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable task_done_;
  std::deque<std::shared_ptr<Task>> order_;  ///< submitted, not delivered
  std::deque<std::shared_ptr<Task>> queue_;  ///< submitted, not started
  bool stopping_ = false;
  std::vector<std::thread> workers_;
  Status status_;
};

}  // namespace pstate

#endif  // PSTATE_BASE_THREAD_POOL_H_
