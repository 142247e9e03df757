// The API's calls over several inputs: backend directories (IsBackendDirectory,
// BackendStacks, InventoryList, InventoryStats, InventoryFiguresOf) and
// VerifyMany.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "pstate/pstate.h"
#include "unit/testing/temp_dir.h"

namespace pstate {
namespace {

namespace fs = std::filesystem;
using pstate::testing::TempDir;

const std::string kFixtures = PSTATE_FIXTURES_DIR;
const std::string kBackend = kFixtures + "/backends/project";

std::string StatePath(const std::string& name) {
  return kFixtures + "/states/" + name;
}

void Write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

/// A legacy backend with a readable stack "good" and an unreadable "bad".
void MakeBackend(const fs::path& dir) {
  fs::create_directories(dir / ".pulumi" / "stacks");
  fs::copy_file(StatePath("valid/full-export.json"),
                dir / ".pulumi" / "stacks" / "good.json");
  Write(dir / ".pulumi" / "stacks" / "bad.json", "{\"version\": 3,");
}

std::vector<std::string> Labels(const std::vector<BackendStack>& stacks) {
  std::vector<std::string> out;
  for (const BackendStack& s : stacks) out.push_back(BackendStackLabel(s));
  return out;
}

TEST(BackendApiTest, BackendDirectoriesAndTheirStacks) {
  EXPECT_TRUE(IsBackendDirectory(kBackend));
  EXPECT_TRUE(IsBackendDirectory(kBackend + "/.pulumi"));
  EXPECT_FALSE(IsBackendDirectory(kBackend + "/.pulumi/stacks/web"));
  EXPECT_FALSE(IsBackendDirectory(kFixtures + "/states"));
  Result<std::vector<BackendStack>> stacks = BackendStacks(kBackend);
  ASSERT_TRUE(stacks.ok()) << stacks.status().message();
  EXPECT_EQ(Labels(*stacks),
            (std::vector<std::string>{"web/dev", "web/locked", "web/prod"}));
  for (const BackendStack& s : *stacks) {
    EXPECT_TRUE(fs::is_regular_file(s.checkpoint)) << s.checkpoint;
  }
  TempDir empty;
  fs::create_directories(empty.path() / ".pulumi" / "stacks");
  Result<std::vector<BackendStack>> none = BackendStacks(empty.path().string());
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), Errc::kNotFound);
}

/// Every stack's rows as "label urn".
std::vector<std::string> ListAll(const InventoryListConfig& config,
                                 const std::string& dir = kBackend) {
  std::vector<std::string> out;
  Status s = InventoryList(dir, config, [&](InventoryStackRows&& rows) {
    EXPECT_TRUE(rows.status.ok()) << rows.status.message();
    for (const ResourceRow& r : rows.rows) {
      out.push_back(BackendStackLabel(rows.stack) + " " + r.urn);
    }
    for (const PendingRow& r : rows.pending) {
      out.push_back(BackendStackLabel(rows.stack) + " pending " + r.urn);
    }
    return true;
  });
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

TEST(BackendApiTest, InventoryListIsInStackOrderForAnyJobs) {
  InventoryListConfig config;
  const std::vector<std::string> one = ListAll(config);
  ASSERT_FALSE(one.empty());
  EXPECT_EQ(one.front().rfind("web/dev ", 0), 0u);
  EXPECT_EQ(one.back().rfind("web/prod ", 0), 0u);
  config.jobs = 3;
  EXPECT_EQ(ListAll(config), one);

  // The limit counts rows over all stacks: the stack reaching it is cut.
  for (std::size_t limit : {std::size_t{1}, one.size() - 1, one.size()}) {
    config.limit = limit;
    std::vector<std::string> cut = ListAll(config);
    EXPECT_EQ(cut, std::vector<std::string>(
                       one.begin(), one.begin() + static_cast<long>(limit)))
        << limit;
  }
  config.limit = 0;
  config.type = "pulumi:pulumi:Stack";
  for (const std::string& row : ListAll(config)) {
    EXPECT_NE(row.find("pulumi:pulumi:Stack"), std::string::npos) << row;
  }
}

TEST(BackendApiTest, InventoryListReportsAnUnreadableStackAndGoesOn) {
  TempDir dir;
  MakeBackend(dir.path());
  std::vector<std::string> labels;
  std::vector<bool> ok;
  InventoryListConfig config;
  Status s = InventoryList(
      dir.path().string(), config, [&](InventoryStackRows&& rows) {
        labels.push_back(BackendStackLabel(rows.stack));
        ok.push_back(rows.status.ok());
        if (!rows.status.ok()) {
          EXPECT_NE(rows.status.message().find(rows.stack.checkpoint),
                    std::string::npos);
        }
        return true;
      });
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(labels, (std::vector<std::string>{"bad", "good"}));
  EXPECT_EQ(ok, (std::vector<bool>{false, true}));
  EXPECT_FALSE(InventoryList(kFixtures + "/no-such-dir", config,
                             [](InventoryStackRows&&) { return true; })
                   .ok());
}

TEST(BackendApiTest, InventoryStatsAddsUpTheStacks) {
  InventoryStatsConfig config;
  Result<InventoryStatsResult> all = InventoryStats(kBackend, config);
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_TRUE(all->failed.empty());
  ASSERT_EQ(all->stacks.size(), 3u);
  std::uint64_t resources = 0, bytes = 0;
  for (const InventoryStackStats& s : all->stacks) {
    EXPECT_EQ(s.figures.resources, s.stats.resources.count);
    EXPECT_EQ(s.figures.checkpoint_bytes, fs::file_size(s.stack.checkpoint));
    resources += s.figures.resources;
    bytes += s.figures.checkpoint_bytes;
  }
  EXPECT_EQ(all->total.resources, resources);
  EXPECT_EQ(all->total.checkpoint_bytes, bytes);
  EXPECT_EQ(all->total.types, all->by_type.size());

  config.jobs = 2;
  Result<InventoryStatsResult> two = InventoryStats(kBackend, config);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->total.resources, all->total.resources);
  EXPECT_EQ(two->total.bytes, all->total.bytes);
  config.jobs = 0;
  EXPECT_EQ(InventoryStats(kBackend, config).status().code(),
            Errc::kInvalidArgument);

  TempDir dir;
  MakeBackend(dir.path());
  Result<InventoryStatsResult> some =
      InventoryStats(dir.path().string(), InventoryStatsConfig{});
  ASSERT_TRUE(some.ok()) << some.status().message();
  ASSERT_EQ(some->stacks.size(), 1u);
  EXPECT_EQ(some->stacks[0].stack.name, "good");
  ASSERT_EQ(some->failed.size(), 1u);
  EXPECT_EQ(some->failed[0].stack.name, "bad");
  EXPECT_FALSE(some->failed[0].status.ok());
}

TEST(BackendApiTest, FiguresAndSizesOfOneState) {
  const std::string path = StatePath("valid/full-export.json");
  Result<pstate::State> state = pstate::State::Open(path);
  ASSERT_TRUE(state.ok());
  StatsConfig config;
  Result<StatsResult> plain = Stats(*state, config);
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->sizes.has_value());
  config.sizes = true;
  Result<StatsResult> stats = Stats(*state, config);
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  ASSERT_TRUE(stats->sizes.has_value());
  EXPECT_EQ(stats->sizes->sections.total(), stats->resources.bytes);
  InventoryFigures f = InventoryFiguresOf(*state, *stats);
  EXPECT_EQ(f.resources, stats->resources.count);
  EXPECT_EQ(f.checkpoint_bytes, fs::file_size(path));

  std::vector<std::string> pending;
  Result<pstate::State> with_pending =
      pstate::State::Open(StatePath("valid/pending-create.json"));
  ASSERT_TRUE(with_pending.ok());
  Status s =
      ListPending(*with_pending, ListConfig{}, [&](const PendingRow& row) {
        pending.push_back(row.operation);
        return true;
      });
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_FALSE(pending.empty());
}

/// Each input's file, unreadable bit and finding codes, in delivery order.
std::vector<std::string> VerifyAll(const std::vector<std::string>& inputs,
                                   const VerifyManyConfig& config) {
  std::vector<std::string> out;
  std::size_t next = 0;
  Status s = VerifyMany(inputs, config, [&](std::size_t i, Findings&& f) {
    EXPECT_EQ(i, next++);
    std::string line = f.file + (f.unreadable ? " unreadable" : "");
    for (const Finding& finding : f.findings) {
      line += " " + std::string(finding.code_name());
    }
    out.push_back(line);
  });
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

TEST(BackendApiTest, VerifyManyDeliversEachInputInOrderForAnyJobs) {
  const std::vector<std::string> inputs = {
      StatePath("valid/minimal.json"),
      StatePath("invalid/036-dependency-missing.json"),
      StatePath("valid/no-such-file.json"),
      StatePath("valid/full-export.json")};
  VerifyManyConfig config;
  const std::vector<std::string> one = VerifyAll(inputs, config);
  ASSERT_EQ(one.size(), inputs.size());
  EXPECT_EQ(one[0], inputs[0]);
  EXPECT_NE(one[1].find(" dependency-missing"), std::string::npos);
  EXPECT_NE(one[2].find("unreadable"), std::string::npos);
  config.jobs = 3;
  EXPECT_EQ(VerifyAll(inputs, config), one);

  // Findings the filter rejects do not count.
  config.filter.skip.insert(FindingCode::kDependencyMissing);
  EXPECT_EQ(VerifyAll({inputs[1]}, config)[0].find(" dependency-missing"),
            std::string::npos);

  config.jobs = 0;
  EXPECT_EQ(
      VerifyMany(inputs, config, [](std::size_t, Findings&&) { ADD_FAILURE(); })
          .code(),
      Errc::kInvalidArgument);
}

TEST(BackendApiTest, VerifyManyAsksForEachInputsProgressInTurn) {
  const std::vector<std::string> inputs = {StatePath("valid/minimal.json"),
                                           StatePath("valid/full-export.json")};
  VerifyManyConfig config;
  std::vector<std::size_t> asked;
  config.progress_of = [&](std::size_t i) {
    asked.push_back(i);
    return Progress();
  };
  VerifyAll(inputs, config);
  EXPECT_EQ(asked, (std::vector<std::size_t>{0, 1}));
}

}  // namespace
}  // namespace pstate
