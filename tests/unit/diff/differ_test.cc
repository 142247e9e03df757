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

Result<DiffResult> DiffTexts(const std::string& a, const std::string& b,
                             int jobs = 1) {
  static TempDir dir;
  static int n = 0;
  DiffConfig config;
  config.before = dir.Write("a" + std::to_string(n) + ".json", a);
  config.after = dir.Write("b" + std::to_string(n) + ".json", b);
  config.jobs = jobs;
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
  ASSERT_EQ(result->resources[0].properties.size(), 1u);
  EXPECT_EQ(result->resources[0].properties[0].path, "s");
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
    ASSERT_EQ(e.properties.size(), 1u) << e.urn;
    EXPECT_EQ(e.properties[0].path, "v");
    EXPECT_EQ(e.properties[0].after->Str(), "new");
  }
}

// The two states' resources indexed on several threads (the engine's
// parallel executor, ranges of about 1 MiB: these states hold three) give
// the diff of the sequential read: changes, additions, removals, a moved
// resource, an order break and the stack found in the root stack.
TEST(DifferTest, IndexedOnSeveralThreadsAsOnOne) {
  std::vector<std::string> a, b;
  const std::string padding(900, 'p');
  auto resource = [&](int i, const std::string& value,
                      const std::string& extra) {
    std::string urn = "urn:pulumi:dev::p::t::r" + std::to_string(i);
    return R"({"urn":")" + urn + R"(","type":"t","id":")" + std::to_string(i) +
           R"(","inputs":{"pad":")" + padding + R"(","v":")" + value + R"("})" +
           extra + "}";
  };
  const std::string root =
      R"({"urn":"urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev",)"
      R"("type":"pulumi:pulumi:Stack","custom":false})";
  a.push_back(root);
  b.push_back(root);
  for (int i = 0; i < 3000; ++i) {
    a.push_back(resource(i, "old", ""));
    if (i % 501 == 7) continue;  // removed
    std::string extra;
    // r1500 depends on r2999, which comes after it: an order break.
    if (i == 1500) extra = R"(,"dependencies":["urn:pulumi:dev::p::t::r2999"])";
    b.push_back(resource(i, i % 97 == 5 ? "new" : "old", extra));
  }
  b.push_back(resource(5000, "added", ""));
  std::swap(b[10], b[2000]);  // moved
  // The first element starts a line, as in every state Pulumi writes: the
  // parallel executor cuts the array at line starts.
  a[0] = "\n" + a[0];
  b[0] = "\n" + b[0];
  std::string sa = State(a), sb = State(b);
  auto one = DiffTexts(sa, sb, 1);
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_EQ(one->read_in_parallel, 0);
  EXPECT_GT(one->summary.changed, 0u);
  EXPECT_GT(one->summary.added, 0u);
  EXPECT_GT(one->summary.removed, 0u);
  for (int jobs : {2, 3}) {
    auto many = DiffTexts(sa, sb, jobs);
    ASSERT_TRUE(many.ok()) << many.status().message();
    // Both sides read by the workers, none read again after giving up.
    EXPECT_EQ(many->read_in_parallel, 2) << jobs;
    EXPECT_EQ(report::RenderDiffJson(*many), report::RenderDiffJson(*one))
        << jobs;
    EXPECT_EQ(report::RenderDiffText(*many, false),
              report::RenderDiffText(*one, false))
        << jobs;
  }
}

// A syntax error in a state read on several threads fails as it does read
// sequentially: the same located message.
TEST(DifferTest, BrokenStateOnSeveralThreadsFailsAsOnOne) {
  std::vector<std::string> a;
  const std::string padding(900, 'p');
  for (int i = 0; i < 2000; ++i) {
    a.push_back(R"({"urn":"urn:pulumi:dev::p::t::r)" + std::to_string(i) +
                R"(","type":"t","inputs":{"pad":")" + padding + R"("}})");
  }
  a[0] = "\n" + a[0];
  std::string good = State(a);
  a[1500] = R"({"urn":"urn:pulumi:dev::p::t::x","type":"t",})";
  std::string bad = State(a);
  auto one = DiffTexts(good, bad, 1);
  auto many = DiffTexts(good, bad, 3);
  ASSERT_FALSE(one.ok());
  ASSERT_FALSE(many.ok());
  // The two files have different names (a counter): compare past them.
  auto place = [](const std::string& m) { return m.substr(m.find(':')); };
  EXPECT_EQ(place(many.status().message()), place(one.status().message()));
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
