// OrderedPool: delivery order, the in-flight bound, exceptions.
#include "pstate/audit/ordered_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

namespace pstate::audit {
namespace {

TEST(OrderedPool, DeliversInSubmissionOrderWithRandomDelays) {
  for (int jobs : {1, 2, 8}) {
    OrderedPool pool(jobs);
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
    for (int i = 0; i < 300; ++i) ASSERT_EQ(delivered[static_cast<std::size_t>(i)], i);
  }
}

TEST(OrderedPool, BoundsWorkInFlight) {
  OrderedPool pool(4, 6);
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
          if (i == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        },
        [&delivered] { ++delivered; });
    max_pending = std::max(max_pending, i + 1 - delivered);
    EXPECT_LE(started.load(), delivered + 6);
  }
  pool.Finish();
  EXPECT_EQ(delivered, 200);
  EXPECT_LE(max_pending, 6);
}

TEST(OrderedPool, DefaultBoundIsFourTimesJobs) {
  OrderedPool pool(3);
  EXPECT_EQ(pool.jobs(), 3);
  EXPECT_EQ(pool.max_in_flight(), 12u);
  OrderedPool clamped(0);
  EXPECT_EQ(clamped.jobs(), 1);
  EXPECT_GE(DefaultJobs(), 1);
}

TEST(OrderedPool, WorkExceptionIsRethrownInOrder) {
  OrderedPool pool(2);
  std::vector<int> delivered;
  pool.Submit([] {}, [&] { delivered.push_back(0); });
  pool.Submit([] { throw std::runtime_error("boom"); }, [&] { delivered.push_back(1); });
  EXPECT_THROW(pool.Finish(), std::runtime_error);
  EXPECT_EQ(delivered, std::vector<int>{0});
}

TEST(OrderedPool, DestroyWithoutFinishDoesNotHang) {
  auto pool = std::make_unique<OrderedPool>(2);
  for (int i = 0; i < 5; ++i) pool->Submit([] {}, [] {});
  pool.reset();
  SUCCEED();
}

}  // namespace
}  // namespace pstate::audit
