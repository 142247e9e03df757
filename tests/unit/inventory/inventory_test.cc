#include "inventory/inventory.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "unit/testing/temp_dir.h"

namespace pstate::inventory {
namespace {

namespace fs = std::filesystem;
using pstate::testing::TempDir;

const std::string kFixtures = PSTATE_FIXTURES_DIR;

TEST(IsBackendDirTest, TheRootOrDotPulumiButNotADirectoryInside) {
  const std::string root = kFixtures + "/backends/project";
  EXPECT_TRUE(IsBackendDir(root));
  EXPECT_TRUE(IsBackendDir(root + "/"));
  EXPECT_TRUE(IsBackendDir(root + "/.pulumi"));
  EXPECT_TRUE(IsBackendDir(root + "/.pulumi/"));
  EXPECT_FALSE(IsBackendDir(root + "/.pulumi/stacks/web"));
  EXPECT_FALSE(IsBackendDir(root + "/.pulumi/stacks/web/dev.json"));
  EXPECT_FALSE(IsBackendDir(kFixtures + "/states"));
  EXPECT_FALSE(IsBackendDir(root + "/no-such-dir"));
}

TEST(StacksTest, EveryStackWithItsLabelInStackOrder) {
  auto stacks = Stacks(kFixtures + "/backends/project/.pulumi");
  ASSERT_TRUE(stacks.ok()) << stacks.status().message();
  std::vector<std::string> labels;
  for (const backend::Stack& s : *stacks) labels.push_back(StackLabel(s));
  EXPECT_EQ(labels,
            (std::vector<std::string>{"web/dev", "web/locked", "web/prod"}));
  auto legacy = Stacks(kFixtures + "/backends/legacy");
  ASSERT_TRUE(legacy.ok()) << legacy.status().message();
  ASSERT_FALSE(legacy->empty());
  EXPECT_EQ(StackLabel(legacy->front()), "app");
}

TEST(StacksTest, ABackendWithoutStacksIsNotFoundNamingIt) {
  TempDir dir;
  fs::create_directories(dir.path() / ".pulumi" / "stacks");
  auto stacks = Stacks(dir.path().string());
  ASSERT_FALSE(stacks.ok());
  EXPECT_EQ(stacks.status().code(), Errc::kNotFound);
  EXPECT_NE(stacks.status().message().find(dir.path().string()),
            std::string::npos);
}

TEST(ForEachOrderedTest, DeliversInIndexOrderForAnyNumberOfThreads) {
  for (int jobs : {1, 2, 3, 8}) {
    std::vector<std::size_t> delivered;
    ForEachOrdered<std::size_t>(
        50, jobs, [](std::size_t i) { return i * i; },
        [&](std::size_t i, std::size_t&& square) {
          EXPECT_EQ(square, i * i);
          delivered.push_back(i);
          return true;
        });
    ASSERT_EQ(delivered.size(), 50u) << jobs;
    for (std::size_t i = 0; i < delivered.size(); ++i) {
      EXPECT_EQ(delivered[i], i) << jobs;
    }
  }
}

TEST(ForEachOrderedTest, StopsWhenDeliverSaysSo) {
  for (int jobs : {1, 4}) {
    std::vector<std::size_t> delivered;
    std::atomic<std::size_t> worked{0};
    ForEachOrdered<int>(
        1000, jobs,
        [&](std::size_t) {
          ++worked;
          return 0;
        },
        [&](std::size_t i, int&&) {
          delivered.push_back(i);
          return i < 2;
        });
    EXPECT_EQ(delivered, (std::vector<std::size_t>{0, 1, 2})) << jobs;
    // Only the work already in flight (ThreadPool's bound) runs after it.
    EXPECT_LT(worked.load(), 100u) << jobs;
  }
}

TEST(ForEachOrderedTest, WhatWorkThrowsIsRethrown) {
  EXPECT_THROW(ForEachOrdered<int>(
                   10, 3,
                   [](std::size_t i) -> int {
                     if (i == 4) throw std::runtime_error("boom");
                     return 0;
                   },
                   [](std::size_t, int&&) { return true; }),
               std::runtime_error);
}

TEST(StatsOfStackTest, FiguresAddUpOverTheBackend) {
  auto stacks = Stacks(kFixtures + "/backends/project");
  ASSERT_TRUE(stacks.ok());
  BackendStats all;
  std::uint64_t resources = 0;
  for (const backend::Stack& s : *stacks) {
    StackStats one = StatsOfStack(s);
    ASSERT_TRUE(one.status.ok()) << one.status.message();
    EXPECT_EQ(one.figures.checkpoint_bytes, backend::FileBytes(s.checkpoint));
    resources += one.figures.resources;
    Add(all, std::move(one));
  }
  EXPECT_EQ(all.stacks.size(), stacks->size());
  EXPECT_EQ(all.total.resources, resources);
  std::uint64_t by_type = 0;
  for (const auto& [type, t] : all.by_type) by_type += t.count;
  EXPECT_EQ(by_type, resources);
  EXPECT_EQ(all.total.types, all.by_type.size());
}

TEST(ListStackTest, RowsOfTheCheckpointUpToTheLimit) {
  auto stacks = Stacks(kFixtures + "/backends/project");
  ASSERT_TRUE(stacks.ok());
  inspect::ListConfig config;
  StackRows all = ListStack(stacks->front(), config, 0);
  ASSERT_TRUE(all.status.ok()) << all.status.message();
  ASSERT_GT(all.rows.size(), 2u);
  StackRows two = ListStack(stacks->front(), config, 2);
  EXPECT_EQ(two.rows.size(), 2u);
  EXPECT_EQ(two.rows[1].urn, all.rows[1].urn);
}

}  // namespace
}  // namespace pstate::inventory
