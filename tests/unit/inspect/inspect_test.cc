#include "inspect/inspect.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "diff/differ.h"
#include "report/inspect.h"
#include "unit/testing/state_samples.h"

namespace pstate::inspect {
namespace {

std::string Fixture(const std::string& name) {
  return std::string(PSTATE_FIXTURES_DIR) + "/inspect/" + name;
}

std::vector<std::string> Urns(const ListConfig& config) {
  std::vector<std::string> urns;
  Status s = List(
      config,
      [&](const ResourceRow& row) {
        urns.push_back(row.urn);
        return true;
      },
      [](const PendingRow&) { return true; });
  EXPECT_TRUE(s.ok()) << s.message();
  return urns;
}

TEST(InspectTest, FlagsRoundTrip) {
  for (Flag f : kAllFlags) EXPECT_EQ(ParseFlag(FlagName(f)), f);
  EXPECT_FALSE(ParseFlag("sticky"));
}

TEST(InspectTest, ListFiltersCombine) {
  ListConfig config;
  config.path = Fixture("base.json");
  EXPECT_EQ(Urns(config).size(), 6u);
  config.type = "aws:s3/bucket:*";
  EXPECT_EQ(Urns(config).size(), 2u);
  config.flags = {Flag::kDelete};
  ASSERT_EQ(Urns(config).size(), 1u);
  config.flags = {Flag::kDelete, Flag::kProtect};
  EXPECT_TRUE(Urns(config).empty());
}

TEST(InspectTest, ShowFindsDependentsBeforeAndAfter) {
  ShowConfig config;
  config.path = Fixture("base.json");
  config.urn = "urn:pulumi:dev::proj::pulumi:providers:aws::default";
  auto r = Show(config);
  ASSERT_TRUE(r.ok()) << r.status().message();
  // The bucket (both copies share a URN: listed once) and the object name
  // it as provider; the object also lists it in its dependencies.
  EXPECT_EQ(r->dependents.size(), 3u);
  config.urn = "urn:nope";
  EXPECT_EQ(Show(config).status().code(), Errc::kNotFound);
}

TEST(InspectTest, TreeHangsOrphansAtTheTop) {
  auto tree = Tree(Fixture("base.json"));
  ASSERT_TRUE(tree.ok());
  ASSERT_EQ(tree->roots().size(), 2u);  // the stack and the provider
  EXPECT_EQ(tree->node(tree->roots()[0]).type, "pulumi:pulumi:Stack");
  EXPECT_EQ(tree->node(tree->roots()[0]).urn(),
            "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev");
  EXPECT_TRUE(tree->node(tree->roots()[1]).provider);
  // The component, under the stack, holds both copies of the bucket.
  auto under_stack = tree->children(tree->roots()[0]);
  ASSERT_EQ(under_stack.size(), 2u);
  EXPECT_EQ(tree->node(under_stack[0]).name, "comp");
  EXPECT_EQ(tree->children(under_stack[0]).size(), 2u);
}

TEST(InspectTest, ShowByIndexFindsDependentsBeforeIt) {
  ShowConfig config;
  config.path = Fixture("base.json.gz");  // two passes over a spool file
  config.index = 3;                       // the live bucket
  auto r = Show(config);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->row.urn,
            "urn:pulumi:dev::proj::pulumi:pulumi:Stack$my:mod:Comp$aws:s3/"
            "bucket:Bucket::logs");
  EXPECT_EQ(r->copies, 2u);
  // The object names it in dependencies and propertyDependencies.
  EXPECT_EQ(r->dependents.size(), 2u);
  config.index = 99;
  EXPECT_EQ(Show(config).status().code(), Errc::kNotFound);
}

TEST(InspectTest, TreeOfADeepChainNeedsNoDeepStack) {
  // 50,000 resources, each the parent of the next: printing walks them
  // with an explicit stack, not by recursion.
  const int n = 50000;
  std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("pstate-inspect-chain-" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream out(path);
    out << R"({"version":3,"deployment":{"resources":[)";
    for (int i = 0; i < n; ++i) {
      if (i > 0) out << ',';
      out << R"({"urn":"urn:pulumi:s::p::t:m:R::r)" << i
          << R"(","type":"t:m:R","custom":false)";
      if (i > 0) {
        out << R"(,"parent":"urn:pulumi:s::p::t:m:R::r)" << i - 1 << '"';
      }
      out << '}';
    }
    out << "]}}";
  }
  auto tree = Tree(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(tree.ok()) << tree.status().message();
  ASSERT_EQ(tree->roots().size(), 1u);
  std::string json = report::TreeJson(*tree);
  EXPECT_NE(json.substr(0, 80).find(R"("name":"r0")"), std::string::npos);
  EXPECT_NE(json.find(R"("name":"r49999","children":[]})"), std::string::npos);
  // The text indents 64 levels; deeper lines say their depth instead, so
  // the output is linear in the number of resources (a line's guide would
  // otherwise be 3 bytes per level: 3.75 GB for this chain).
  std::string text = report::TreeText(*tree);
  std::string guides;
  for (int i = 1; i < 64; ++i) guides += "   ";
  EXPECT_NE(text.find("\n" + guides +
                      "└─ t:m:R r64\n[depth 65] └─ t:m:R "
                      "r65\n[depth 66] └─ t:m:R r66\n"),
            std::string::npos);
  EXPECT_NE(text.find("\n[depth 49999] └─ t:m:R r49999\n"), std::string::npos);
  EXPECT_LT(text.size(), std::size_t{n} * 40);
}

TEST(InspectTest, TreeRootsAParentCycleOnce) {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / "pstate-inspect-cycle.json";
  {
    std::ofstream out(path);
    out << R"({"version":3,"deployment":{"resources":[)"
        << R"({"urn":"urn:pulumi:s::p::t:m:R::a","type":"t:m:R",)"
        << R"("parent":"urn:pulumi:s::p::t:m:R::b"},)"
        << R"({"urn":"urn:pulumi:s::p::t:m:R::b","type":"t:m:R",)"
        << R"("parent":"urn:pulumi:s::p::t:m:R::a"}]}})";
  }
  auto tree = Tree(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(tree.ok()) << tree.status().message();
  EXPECT_EQ(report::TreeText(*tree), "t:m:R a\n└─ t:m:R b\n");
}

// --limit N: the first N resources in the same order, then how many more;
// JSON stays one valid object, every open node closed.
TEST(InspectTest, TreeLimit) {
  auto tree = Tree(Fixture("base.json"));
  ASSERT_TRUE(tree.ok()) << tree.status().message();
  const std::size_t n = tree->size();
  auto text = [&](std::size_t limit) {
    std::ostringstream out;
    report::WriteTreeText(*tree, out, limit);
    return out.str();
  };
  auto json = [&](std::size_t limit) {
    std::ostringstream out;
    report::WriteTreeJson(*tree, out, limit);
    return out.str();
  };
  EXPECT_EQ(text(n), report::TreeText(*tree));
  EXPECT_EQ(json(n), report::TreeJson(*tree));
  EXPECT_EQ(text(0), report::TreeText(*tree));
  std::string full = report::TreeText(*tree);
  std::string first_line = full.substr(0, full.find('\n') + 1);
  EXPECT_EQ(text(1), first_line + "... " + std::to_string(n - 1) +
                         " more resources not shown (--limit 1)\n");
  for (std::size_t limit = 1; limit < n; ++limit) {
    std::string j = json(limit);
    EXPECT_NE(j.find(",\"truncated\":true,\"omitted\":" +
                     std::to_string(n - limit) + "}\n"),
              std::string::npos)
        << j;
    EXPECT_EQ(std::count(j.begin(), j.end(), '{'),
              std::count(j.begin(), j.end(), '}'));
    EXPECT_EQ(std::count(j.begin(), j.end(), '['),
              std::count(j.begin(), j.end(), ']'));
    EXPECT_EQ(static_cast<std::size_t>(std::count(j.begin(), j.end(), '{') - 1),
              limit);
  }
}

Result<StatsResult> StatsOf(const std::string& path, std::size_t top,
                            SizeStats* sizes = nullptr,
                            std::size_t top_properties = kTopProperties,
                            Progress on_progress = {}, int jobs = 1) {
  StatsConfig config;
  config.path = path;
  config.top = top;
  config.top_properties = top_properties;
  config.on_progress = std::move(on_progress);
  config.jobs = jobs;
  return Stats(config, sizes);
}

// ls and stats are engine passes: on several threads, with ranges of any
// size, the same rows in the same order and the same counts and sizes.
TEST(InspectTest, ListAndStatsAreTheSameOnSeveralThreads) {
  for (const char* name :
       {"base.json", "b64-secrets.json", "flags.json", "changed.json"}) {
    SCOPED_TRACE(name);
    std::string path = std::string(PSTATE_FIXTURES_DIR) + "/inspect/" + name;
    auto rows = [&](int jobs, std::uint64_t limit) {
      ListConfig config;
      config.path = path;
      config.jobs = jobs;
      std::vector<std::string> out;
      EXPECT_TRUE(List(
                      config,
                      [&](const ResourceRow& row) {
                        out.push_back(row.urn + " " +
                                      std::to_string(row.bytes));
                        return limit == 0 || out.size() < limit;
                      },
                      [](const PendingRow&) { return true; })
                      .ok());
      return out;
    };
    EXPECT_EQ(rows(3, 0), rows(1, 0));
    EXPECT_EQ(rows(3, 2), rows(1, 2));
    SizeStats one_sizes, many_sizes;
    auto one = StatsOf(path, 3, &one_sizes, 2);
    auto many = StatsOf(path, 3, &many_sizes, 2, {}, 3);
    ASSERT_TRUE(one.ok() && many.ok());
    EXPECT_EQ(one->resources.bytes, many->resources.bytes);
    EXPECT_EQ(one->by_type.size(), many->by_type.size());
    EXPECT_EQ(one->largest, many->largest);
    EXPECT_EQ(one->flags, many->flags);
    EXPECT_EQ(one->secrets, many->secrets);
    EXPECT_EQ(one->stacks, many->stacks);
    EXPECT_EQ(one_sizes.sections.total(), many_sizes.sections.total());
    EXPECT_EQ(one_sizes.secret_bytes, many_sizes.secret_bytes);
    EXPECT_EQ(one_sizes.top_properties, many_sizes.top_properties);
  }
}

TEST(InspectTest, StatsCountAndSize) {
  auto stats = StatsOf(Fixture("base.json"), 2);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->resources.count, 6u);
  EXPECT_EQ(stats->by_type["aws:s3/bucket:Bucket"].count, 2u);
  EXPECT_EQ(stats->largest.size(), 2u);
  EXPECT_GE(stats->largest[0].first, stats->largest[1].first);
  EXPECT_EQ(stats->assets, 2u);
  EXPECT_EQ(stats->pending["creating"], 1u);
}

}  // namespace
}  // namespace pstate::inspect

namespace pstate::inspect {
namespace {

// Every resource's sections add up to its bytes, whatever the layout
// (indented export, compact checkpoint, a reformatted copy), and the
// byte shares inside inputs and outputs fit in them.
TEST(InspectSizesTest, SectionsAddUpToTheResources) {
  for (const char* name :
       {"base.json", "base-checkpoint.json", "base-reformatted.json",
        "b64-secrets.json", "flags.json", "changed.json"}) {
    SCOPED_TRACE(name);
    SizeStats sizes;
    auto stats = StatsOf(std::string(PSTATE_FIXTURES_DIR) + "/inspect/" + name,
                         0, &sizes, 2);
    ASSERT_TRUE(stats.ok()) << stats.status().message();
    EXPECT_EQ(sizes.sections.total(), stats->resources.bytes);
    std::uint64_t by_type = 0;
    for (const auto& [type, sec] : sizes.by_type) {
      by_type += sec.total();
      EXPECT_EQ(sec.total(), stats->by_type.at(type).bytes) << type;
      EXPECT_LE(sizes.top_properties[type].size(), 2u);
    }
    EXPECT_EQ(by_type, stats->resources.bytes);
    EXPECT_LE(sizes.secret_bytes + sizes.asset_bytes,
              sizes.sections.inputs + sizes.sections.outputs);
  }
}

// A secret's bytes are its exact span in the file: the same whatever the
// indentation, once the secret objects are laid out alike.
TEST(InspectSizesTest, SecretBytesAreExactSpans) {
  SizeStats sizes;
  auto stats = StatsOf(
      std::string(PSTATE_FIXTURES_DIR) + "/inspect/" + "b64-secrets.json", 0,
      &sizes);
  ASSERT_TRUE(stats.ok());
  EXPECT_GT(stats->secrets, 0u);
  EXPECT_GT(sizes.secret_bytes, 0u);
}

/// Records (bytes read, total) as ls, tree, stats and diff report them.
struct ProgressLog {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
  Progress Callback() {
    return [this](std::uint64_t done, std::uint64_t total) {
      calls.emplace_back(done, total);
    };
  }
};

// ls, tree, stats and diff hand the reader's progress to the caller (the
// CLI draws it on a terminal); the total is the file's size.
TEST(InspectTest, ReadsReportProgress) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("pstate-progress-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path, std::ios::binary) << testing::BigState();
  const std::uint64_t size = std::filesystem::file_size(path);
  ProgressLog ls, tree, stats, diff;
  ListConfig config;
  config.path = path.string();
  config.on_progress = ls.Callback();
  ASSERT_TRUE(List(
                  config, [](const ResourceRow&) { return true; },
                  [](const PendingRow&) { return true; })
                  .ok());
  ASSERT_TRUE(Tree(path.string(), tree.Callback()).ok());
  ASSERT_TRUE(
      StatsOf(path.string(), 10, nullptr, kTopProperties, stats.Callback())
          .ok());
  diff::DiffConfig d;
  d.before = path.string();
  d.after = path.string();
  d.on_progress = diff.Callback();
  ASSERT_TRUE(diff::Run(d).ok());
  std::filesystem::remove(path);
  for (const ProgressLog* log : {&ls, &tree, &stats, &diff}) {
    ASSERT_FALSE(log->calls.empty());
    EXPECT_EQ(log->calls.back().second, size);
  }
}

}  // namespace
}  // namespace pstate::inspect
