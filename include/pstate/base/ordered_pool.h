// A fixed pool of worker threads whose results are delivered in the order
// the work was submitted, with a bound on how much is in flight.
#ifndef PSTATE_BASE_ORDERED_POOL_H_
#define PSTATE_BASE_ORDERED_POOL_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "pstate/base/result.h"

namespace pstate {

/// Runs `work` functions on `jobs` worker threads and their `deliver`
/// functions on the submitting thread, strictly in submission order.
///
/// Contract:
///  - at most `max_in_flight` tasks are submitted but not yet delivered;
///    Submit blocks (delivering what is ready) until there is room, so the
///    memory held by pending tasks is bounded whatever the input size;
///  - deliver functions run only inside Submit and Finish, on the caller's
///    thread, never concurrently, in submission order;
///  - an exception thrown by `work` is rethrown from the Submit or Finish
///    that would have delivered it (the task's deliver is skipped).
/// One thread submits; the pool is not for use from several.
class OrderedPool {
 public:
  /// `jobs` < 1 counts as 1; `max_in_flight` 0 means 4 × jobs. A thread
  /// that cannot be started makes status() an error (the pool still works,
  /// on fewer threads, or on the submitting thread when none started).
  explicit OrderedPool(int jobs, std::size_t max_in_flight = 0);
  ~OrderedPool();
  OrderedPool(const OrderedPool&) = delete;
  OrderedPool& operator=(const OrderedPool&) = delete;

  void Submit(std::function<void()> work, std::function<void()> deliver);
  /// Waits for every submitted task and delivers the rest, in order.
  void Finish();

  int jobs() const { return static_cast<int>(workers_.size()); }
  /// Ok, or why not every requested thread could be started.
  const Status& status() const { return status_; }
  std::size_t max_in_flight() const { return max_in_flight_; }

 private:
  struct Task {
    std::function<void()> work;
    std::function<void()> deliver;
    bool done = false;
    std::exception_ptr error;
  };

  void WorkerLoop();
  /// Delivers finished tasks at the head of the order; with `wait_for`,
  /// first waits until fewer than that many tasks are pending.
  void Deliver(std::unique_lock<std::mutex>& lock, std::size_t wait_for);

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

/// The number of processors (at least 1): the default for --jobs.
int DefaultJobs();

}  // namespace pstate

#endif  // PSTATE_BASE_ORDERED_POOL_H_
