#include "pstate/inspect/inspect.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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
  ASSERT_EQ(tree->roots.size(), 2u);  // the stack and the provider
  EXPECT_EQ(tree->nodes[tree->roots[0]].type, "pulumi:pulumi:Stack");
  EXPECT_TRUE(tree->nodes[tree->roots[1]].provider);
}

TEST(InspectTest, StatsCountAndSize) {
  auto stats = Stats(Fixture("base.json"), 2);
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
