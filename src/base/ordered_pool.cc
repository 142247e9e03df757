#include "pstate/base/ordered_pool.h"

#include <algorithm>
#include <string>
#include <system_error>

namespace pstate {

OrderedPool::OrderedPool(int jobs, std::size_t max_in_flight) {
  jobs = std::max(jobs, 1);
  max_in_flight_ = max_in_flight == 0 ? 4 * static_cast<std::size_t>(jobs)
                                      : max_in_flight;
  workers_.reserve(static_cast<std::size_t>(jobs));
  for (int i = 0; i < jobs; ++i) {
    try {
      workers_.emplace_back([this] { WorkerLoop(); });
    } catch (const std::system_error& e) {
      // Out of threads (ulimit -u, a container's pids limit): an error for
      // the caller to report, not std::terminate. Work still runs, on the
      // threads that did start or on the caller's.
      status_ = Status(Errc::kIo, "cannot start " + std::to_string(jobs) +
                                      " hashing threads (started " +
                                      std::to_string(i) + "): " + e.what());
      break;
    }
  }
}

OrderedPool::~OrderedPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();  // undelivered work is abandoned (Finish was not called)
  }
  work_ready_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void OrderedPool::WorkerLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    work_ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping
    std::shared_ptr<Task> task = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    try {
      task->work();
    } catch (...) {
      task->error = std::current_exception();
    }
    task->work = nullptr;  // release what the work captured
    lock.lock();
    task->done = true;
    task_done_.notify_all();
  }
}

void OrderedPool::Deliver(std::unique_lock<std::mutex>& lock,
                          std::size_t wait_for) {
  while (!order_.empty()) {
    if (!order_.front()->done) {
      if (order_.size() < wait_for) return;
      task_done_.wait(lock, [this] { return order_.front()->done; });
    }
    std::shared_ptr<Task> task = std::move(order_.front());
    order_.pop_front();
    lock.unlock();
    if (task->error) {
      lock.lock();
      std::rethrow_exception(task->error);
    }
    task->deliver();
    lock.lock();
  }
}

void OrderedPool::Submit(std::function<void()> work,
                         std::function<void()> deliver) {
  if (workers_.empty()) {
    // No thread could be started: run in place, keeping the order.
    Finish();
    work();
    deliver();
    return;
  }
  auto task = std::make_shared<Task>();
  task->work = std::move(work);
  task->deliver = std::move(deliver);
  std::unique_lock<std::mutex> lock(mutex_);
  // Make room first, so that at most max_in_flight_ tasks are pending.
  Deliver(lock, max_in_flight_);
  order_.push_back(task);
  queue_.push_back(std::move(task));
  work_ready_.notify_one();
  // Hand over what is already finished without waiting.
  Deliver(lock, static_cast<std::size_t>(-1));
}

void OrderedPool::Finish() {
  std::unique_lock<std::mutex> lock(mutex_);
  Deliver(lock, 0);
}

int DefaultJobs() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(std::min(n, 1024u));
}

}  // namespace pstate
