// ThreadPool: delivery order, the in-flight bound, exceptions.
#include "base/thread_pool.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

namespace pstate {
namespace {

TEST(ThreadPool, DeliversInSubmissionOrderWithRandomDelays) {
  for (int jobs : {1, 2, 8}) {
    ThreadPool pool(jobs);
    std::vector<int> delivered;
    std::mt19937 rng(42);
    for (int i = 0; i < 300; ++i) {
      int delay_us = static_cast<int>(rng() % 300);
      auto value = std::make_shared<int>(-1);
      pool.Submit(
          [value, i, delay_us] {
            std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
            *value = i;
          },
          [value, &delivered] { delivered.push_back(*value); });
    }
    pool.Finish();
    ASSERT_EQ(delivered.size(), 300u) << jobs;
    for (int i = 0; i < 300; ++i)
      ASSERT_EQ(delivered[static_cast<std::size_t>(i)], i);
  }
}

TEST(ThreadPool, BoundsWorkInFlight) {
  ThreadPool pool(4, 6);
  EXPECT_EQ(pool.max_in_flight(), 6u);
  std::atomic<int> started{0};
  int delivered = 0;
  int max_pending = 0;
  for (int i = 0; i < 200; ++i) {
    pool.Submit(
        [&started, i] {
          ++started;
          // The first task is slow: nothing after it may be delivered, so
          // Submit must block instead of queueing more.
          if (i == 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        },
        [&delivered] { ++delivered; });
    max_pending = std::max(max_pending, i + 1 - delivered);
    EXPECT_LE(started.load(), delivered + 6);
  }
  pool.Finish();
  EXPECT_EQ(delivered, 200);
  EXPECT_LE(max_pending, 6);
}

TEST(ThreadPool, DefaultBoundIsFourTimesJobs) {
  ThreadPool pool(3);
  EXPECT_EQ(pool.jobs(), 3);
  EXPECT_EQ(pool.max_in_flight(), 12u);
  ThreadPool clamped(0);
  EXPECT_EQ(clamped.jobs(), 1);
  EXPECT_GE(DefaultJobs(), 1);
}

TEST(ThreadPool, WorkExceptionIsRethrownInOrder) {
  ThreadPool pool(2);
  std::vector<int> delivered;
  pool.Submit([] {}, [&] { delivered.push_back(0); });
  pool.Submit([] { throw std::runtime_error("boom"); },
              [&] { delivered.push_back(1); });
  EXPECT_THROW(pool.Finish(), std::runtime_error);
  EXPECT_EQ(delivered, std::vector<int>{0});
}

TEST(ThreadPool, DestroyWithoutFinishDoesNotHang) {
  auto pool = std::make_unique<ThreadPool>(2);
  for (int i = 0; i < 5; ++i) pool->Submit([] {}, [] {});
  pool.reset();
  SUCCEED();
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PSTATE_NO_ADDRESS_LIMIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PSTATE_NO_ADDRESS_LIMIT 1
#endif
#endif

// `--jobs 1024` where threads cannot be had (here: no address space for
// their stacks) is an error status, not std::terminate, and the work is
// still done in order on the threads that exist.
TEST(ThreadPool, ThreadsThatCannotStartAreAStatusNotAnAbort) {
#ifdef PSTATE_NO_ADDRESS_LIMIT
  GTEST_SKIP() << "sanitizers reserve more address space than the limit";
#else
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::ifstream statm("/proc/self/statm");
    unsigned long pages = 0;
    statm >> pages;
    rlim_t now = static_cast<rlim_t>(pages) *
                 static_cast<rlim_t>(::sysconf(_SC_PAGESIZE));
    struct rlimit limit {
      now + (48u << 20), now + (48u << 20)
    };
    if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(10);
    int code = 0;
    {
      ThreadPool pool(1024);
      if (pool.status().ok()) code = 11;
      if (pool.jobs() >= 1024) code = 12;
      std::vector<int> delivered;
      for (int i = 0; i < 50; ++i) {
        auto value = std::make_shared<int>(-1);
        pool.Submit([value, i] { *value = i; },
                    [value, &delivered] { delivered.push_back(*value); });
      }
      pool.Finish();
      for (int i = 0; i < 50; ++i) {
        if (delivered.size() != 50 ||
            delivered[static_cast<std::size_t>(i)] != i) {
          code = 13;
        }
      }
    }
    ::_exit(code);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
#endif
}

}  // namespace
}  // namespace pstate

namespace pstate {
namespace {

TEST(ThreadPoolParallelFor, CallsEveryIndexOnce) {
  for (int jobs : {1, 2, 4, 9}) {
    ThreadPool pool(jobs);
    for (std::size_t n :
         {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
      std::vector<std::atomic<int>> hits(n);
      pool.ParallelFor(n, [&](std::size_t i) { hits[i].fetch_add(1); });
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(hits[i].load(), 1) << "jobs " << jobs << " n " << n;
      }
    }
  }
}

TEST(ThreadPoolParallelFor, AtMostJobsThreadsComputeAtOnce) {
  ThreadPool pool(3);
  std::atomic<int> running{0}, peak{0};
  pool.ParallelFor(200, [&](std::size_t) {
    int now = running.fetch_add(1) + 1;
    int seen = peak.load();
    while (now > seen && !peak.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    running.fetch_sub(1);
  });
  EXPECT_LE(peak.load(), 3);
  EXPECT_GE(peak.load(), 1);
}

TEST(ThreadPoolParallelFor, AnExceptionReachesTheCallerNotAWorker) {
  ThreadPool pool(4);
  std::atomic<int> calls{0};
  // Every call throws, so a thread that ran one index has failed: once any
  // call threw, no thread may be handed another index. At most one index
  // per computing thread runs, whatever the scheduling (no timing here).
  EXPECT_THROW(pool.ParallelFor(10000,
                                [&](std::size_t) {
                                  calls.fetch_add(1);
                                  throw std::runtime_error("x");
                                }),
               std::runtime_error);
  EXPECT_GE(calls.load(), 1);
  EXPECT_LE(calls.load(), 5);  // 4 workers, and the caller if it helps
  // The pool is still usable, for both kinds of work.
  std::atomic<int> after{0};
  pool.ParallelFor(100, [&](std::size_t) { after.fetch_add(1); });
  EXPECT_EQ(after.load(), 100);
  std::vector<int> order;
  for (int i = 0; i < 20; ++i) {
    pool.Submit([] {}, [&order, i] { order.push_back(i); });
  }
  pool.Finish();
  EXPECT_EQ(order.size(), 20u);
}

TEST(ThreadPoolParallelFor, OrderedWorkAndLoopsShareTheWorkers) {
  ThreadPool pool(2);
  std::vector<int> delivered;
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 10; ++i) {
      auto v = std::make_shared<int>(0);
      pool.Submit([v, i] { *v = i; },
                  [v, &delivered] { delivered.push_back(*v); });
    }
    pool.Finish();
    std::atomic<std::size_t> sum{0};
    pool.ParallelFor(50, [&](std::size_t i) { sum.fetch_add(i); });
    EXPECT_EQ(sum.load(), 49u * 50u / 2u);
  }
  ASSERT_EQ(delivered.size(), 50u);
  for (std::size_t k = 0; k < delivered.size(); ++k) {
    EXPECT_EQ(delivered[k], static_cast<int>(k % 10));
  }
}

}  // namespace
}  // namespace pstate
