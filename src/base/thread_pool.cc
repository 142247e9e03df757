#include "base/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <system_error>

namespace pstate {

ThreadPool::ThreadPool(int jobs, std::size_t max_in_flight) {
  jobs = std::clamp(jobs, 1, kMaxJobs);
  requested_ = jobs;
  max_in_flight_ =
      max_in_flight == 0 ? 4 * static_cast<std::size_t>(jobs) : max_in_flight;
  workers_.reserve(static_cast<std::size_t>(jobs));
  for (int i = 0; i < jobs; ++i) {
    try {
      workers_.emplace_back([this] { WorkerLoop(); });
    } catch (const std::system_error& e) {
      // Out of threads (ulimit -u, a container's pids limit): an error for
      // the caller to report, not std::terminate. Work still runs, on the
      // threads that did start or on the caller's.
      status_ = Status(Errc::kIo, "cannot start " + std::to_string(jobs) +
                                      " worker threads (started " +
                                      std::to_string(i) + "): " + e.what());
      break;
    }
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();  // undelivered work is abandoned (Finish was not called)
  }
  work_ready_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::WorkerLoop() {
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
      // Never past this frame: the caller's thread rethrows it.
      task->error = std::current_exception();
    }
    task->work = nullptr;  // release what the work captured
    lock.lock();
    task->done = true;
    if (task->ordered) task_done_.notify_all();
  }
}

void ThreadPool::Deliver(std::unique_lock<std::mutex>& lock,
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

void ThreadPool::Submit(std::function<void()> work,
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

void ThreadPool::Finish() {
  std::unique_lock<std::mutex> lock(mutex_);
  Deliver(lock, 0);
}

void ThreadPool::ParallelFor(std::size_t n,
                             const std::function<void(std::size_t)>& fn) {
  if (n == 0) return;
  std::size_t helpers = std::min(
      {workers_.size(), static_cast<std::size_t>(requested_ - 1), n - 1});
  if (helpers == 0) {
    for (std::size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  // Shared with helper tasks that may start after this call returned: those
  // see `closed` and leave without touching `fn`.
  struct Loop {
    std::atomic<std::size_t> next{0};
    std::size_t n = 0;
    const std::function<void(std::size_t)>* fn = nullptr;
    std::mutex mutex;
    std::condition_variable idle;
    std::size_t active = 0;
    bool closed = false;
    std::exception_ptr error;

    void Run() {
      for (;;) {
        std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
        if (i >= n) return;
        try {
          (*fn)(i);
        } catch (...) {
          std::lock_guard<std::mutex> lock(mutex);
          if (!error) error = std::current_exception();
          next.store(n, std::memory_order_relaxed);
          return;
        }
      }
    }
  };
  auto loop = std::make_shared<Loop>();
  loop->n = n;
  loop->fn = &fn;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t h = 0; h < helpers; ++h) {
      auto task = std::make_shared<Task>();
      task->ordered = false;
      task->work = [loop] {
        {
          std::lock_guard<std::mutex> l(loop->mutex);
          if (loop->closed) return;
          ++loop->active;
        }
        loop->Run();
        std::lock_guard<std::mutex> l(loop->mutex);
        if (--loop->active == 0) loop->idle.notify_all();
      };
      queue_.push_back(std::move(task));
    }
  }
  work_ready_.notify_all();
  loop->Run();
  std::unique_lock<std::mutex> lock(loop->mutex);
  loop->closed = true;
  loop->idle.wait(lock, [&] { return loop->active == 0; });
  if (loop->error) std::rethrow_exception(loop->error);
}

int DefaultJobs() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0
             ? 1
             : static_cast<int>(std::min(n, static_cast<unsigned>(kMaxJobs)));
}

}  // namespace pstate
