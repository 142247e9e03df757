#include "diff/differ.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/diff.h"
#include "unit/testing/temp_dir.h"

namespace pstate::diff {
namespace {

using pstate::testing::TempDir;

std::string State(const std::vector<std::string>& resources) {
  std::string out =
      R"({"version":3,"deployment":{"manifest":{"time":"2024-01-01T00:00:00Z",)"
      R"("magic":"m","version":"v"},"resources":[)";
  for (std::size_t i = 0; i < resources.size(); ++i) {
    if (i > 0) out += ",\n";
    out += resources[i];
  }
  return out + "]}}";
}

Result<DiffResult> DiffTexts(const std::string& a, const std::string& b) {
  static TempDir dir;
  static int n = 0;
  DiffConfig config;
  config.before = dir.Write("a" + std::to_string(n) + ".json", a);
  config.after = dir.Write("b" + std::to_string(n) + ".json", b);
  ++n;
  return Run(config);
}

// The index compares resources by their bytes; a pair whose bytes differ is
// compared by meaning, so a resource written another way is unchanged.
TEST(DifferTest, BytesDifferMeaningSameIsUnchanged) {
  std::string same = R"({"urn":"u2","type":"t","id":"2","inputs":{"a":"b"}})";
  auto result = DiffTexts(
      State({R"({"urn":"u1","type":"t","id":"1","inputs":{"n":1.0,"s":"x"},)"
             R"("protect":false})",
             same}),
      State({R"({"type":"t", "urn":"u1","id":"1","inputs":{"s":"\u0078",)"
             R"("n":1}})",
             same}));
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_TRUE(result->same());
  EXPECT_EQ(result->summary.unchanged, 2u);
}

// Bytes of the same length that differ are always found.
TEST(DifferTest, SameLengthChangeIsFound) {
  auto result = DiffTexts(
      State({R"({"urn":"u1","type":"t","id":"1","inputs":{"s":"x"}})"}),
      State({R"({"urn":"u1","type":"t","id":"1","inputs":{"s":"y"}})"}));
  ASSERT_TRUE(result.ok()) << result.status().message();
  ASSERT_EQ(result->resources.size(), 1u);
  EXPECT_EQ(result->resources[0].kind, ResourceChangeKind::kChanged);
  ASSERT_EQ(result->resources[0].changes.properties.size(), 1u);
  EXPECT_EQ(result->resources[0].changes.properties[0].path, "s");
}

// States above 1 MiB are read by range from a mapping whose pages the
// re-reads give back in batches: every change is still found.
TEST(DifferTest, ScatteredChangesInAMappedState) {
  std::vector<std::string> a, b;
  const std::string padding(900, 'p');
  for (int i = 0; i < 3000; ++i) {
    std::string urn = "urn:pulumi:s::p::t::r" + std::to_string(i);
    std::string r = R"({"urn":")" + urn + R"(","type":"t","id":")" +
                    std::to_string(i) + R"(","inputs":{"pad":")" + padding +
                    R"(","v":")";
    a.push_back(r + "old\"}}");
    b.push_back(r + (i % 97 == 5 ? "new" : "old") + "\"}}");
  }
  auto result = DiffTexts(State(a), State(b));
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->summary.changed, 31u);
  EXPECT_EQ(result->summary.unchanged, 3000u - 31u);
  for (const ResourceEntry& e : result->resources) {
    ASSERT_EQ(e.changes.properties.size(), 1u) << e.urn;
    EXPECT_EQ(e.changes.properties[0].path, "v");
    EXPECT_EQ(e.changes.properties[0].after, "\"new\"");
  }
}

TEST(DifferTest, LimitCutsTheEntriesNotTheSummary) {
  DiffResult result;
  for (const char* urn : {"u1", "u2", "u3"}) {
    ResourceEntry e;
    e.kind = ResourceChangeKind::kAdded;
    e.urn = urn;
    e.type = "t";
    result.resources.push_back(e);
  }
  result.summary.added = 3;
  std::string text = report::RenderDiffText(result, false, 2);
  EXPECT_NE(text.find("+ u2 (added)"), std::string::npos);
  EXPECT_EQ(text.find("+ u3"), std::string::npos);
  EXPECT_NE(text.find("... 1 more resource not shown (--limit 2)\n"),
            std::string::npos);
  EXPECT_NE(text.find("3 added"), std::string::npos);
  EXPECT_EQ(report::RenderDiffText(result, false, 3),
            report::RenderDiffText(result, false));
  EXPECT_EQ(report::RenderDiffText(result, true, 1),
            report::RenderDiffText(result, true));

  std::string json = report::RenderDiffJson(result, 1);
  EXPECT_NE(json.find(R"("urn":"u1")"), std::string::npos);
  EXPECT_EQ(json.find(R"("urn":"u2")"), std::string::npos);
  EXPECT_NE(json.find(R"(],"truncated":true,"omitted":2,"envelope":[)"),
            std::string::npos);
  EXPECT_NE(json.find(R"("added":3)"), std::string::npos);
  EXPECT_EQ(report::RenderDiffJson(result, 3), report::RenderDiffJson(result));
  EXPECT_EQ(report::RenderDiffJson(result).find("truncated"),
            std::string::npos);
}

}  // namespace
}  // namespace pstate::diff
