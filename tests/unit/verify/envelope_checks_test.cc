// verify's envelope rules: unknown, duplicate and odd-case members,
// misshapen containers and "features" (the reader has no policy; these
// checks live in the Verifier). Locations must not depend on how the bytes
// arrive, so several tests replay through windows of many sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "unit/testing/recording_handler.h"
#include "unit/testing/state_samples.h"
#include "verify/verifier.h"

namespace pstate::verify {
namespace {

using pstate::testing::At;
using pstate::testing::kBigState;
using pstate::testing::LineCol;
using pstate::testing::ReadText;
using state::EnvelopeKind;
using Lines = std::vector<std::string>;

/// The envelope findings only (the other checks have tests of their own).
Lines FindingLines(diag::Report& report) {
  static const std::set<diag::Code> kEnvelope = {
      diag::Code::kFieldUnknown,        diag::Code::kFieldCase,
      diag::Code::kFieldType,           diag::Code::kJsonDuplicateKey,
      diag::Code::kFeaturesUnsupported, diag::Code::kFeaturesIgnored,
      diag::Code::kFeaturesUnsorted};
  report.SortByLocation();
  Lines lines;
  for (const diag::Finding& f : report.findings()) {
    if (!kEnvelope.count(f.code)) continue;
    lines.push_back(std::string(f.code_name()) + " " + f.pointer + " " +
                    std::to_string(f.line) + ":" + std::to_string(f.column));
  }
  return lines;
}

struct ReadResult {
  Status status;
  pstate::testing::RecordingHandler handler;
  Verifier verifier;
  diag::Report report{"test.json"};
};

void ReadInto(const std::string& text, ReadResult* r,
              std::size_t window = 4u << 20) {
  state::Tee both(r->handler, r->verifier);
  r->status = ReadText(text, both, r->report, window);
}

TEST(EnvelopeChecks, LegacyTargetIsNoted) {
  const std::string text = R"({"target":"dev","latest":null})";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FindingLines(r.report), (Lines{"field-unknown /target 1:2"}));
  EXPECT_EQ(r.handler.envelope.kind, EnvelopeKind::kLegacyCheckpoint);
  EXPECT_FALSE(r.handler.envelope.has_deployment);
}

TEST(EnvelopeChecks, MisshapenContainers) {
  const std::string text =
      R"({"version":3,"deployment":{"resources":5,"pending_operations":null,"extensions":[]}})";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(
      FindingLines(r.report),
      (Lines{"field-type /deployment/resources " + LineCol(text, "5"),
             "field-type /deployment/extensions " + LineCol(text, "[]")}));
  EXPECT_EQ(r.handler.envelope.resources, 0u);
}

TEST(EnvelopeChecks, UnknownMembersAreNoted) {
  const std::string text =
      "{\n  \"version\": 3,\n  \"extra\": [1],\n  \"deployment\": {\n"
      "    \"zzz\": {\"a\": 1},\n    \"resources\": []\n  }\n}\n";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(
      FindingLines(r.report),
      (Lines{"field-unknown /extra 3:3", "field-unknown /deployment/zzz 5:5"}));
  EXPECT_EQ(r.report.findings()[0].severity, diag::Severity::kNote);
  // Unknown members are still handed over, as leaves.
  EXPECT_NE(std::find(r.handler.events.begin(), r.handler.events.end(),
                      "leaf unknown /deployment/zzz key=zzz " +
                          At(text, "{\"a\"") + " {\"a\":1}"),
            r.handler.events.end());
}

TEST(EnvelopeChecks, FeaturesRules) {
  struct Case {
    std::string version;
    std::string features;
    Lines findings;
  };
  for (const Case& c : std::vector<Case>{
           {"4", R"(["byteString","taint"])", {}},
           {"4", R"([])", {}},
           {"4", R"(null)", {}},
           {"4", R"(["zzz-new"])", {"features-unsupported /features 1:26"}},
           {"4",
            R"(["taint","byteString"])",
            {"features-unsorted /features 1:26"}},
           {"4", R"(["taint","taint"])", {"features-unsorted /features 1:26"}},
           {"3", R"(["taint"])", {"features-ignored /features 1:26"}},
           {"4",
            R"(["zz","taint"])",
            {"features-unsupported /features 1:26",
             "features-unsorted /features 1:26"}},
           {"4", R"("taint")", {"field-type /features 1:26"}},
           {"4", R"(["taint",1])", {"field-type /features 1:35"}},
       }) {
    const std::string text = "{\"version\":" + c.version +
                             ",\"features\": " + c.features +
                             ",\"deployment\":{}}";
    ReadResult r;
    ReadInto(text, &r);
    EXPECT_TRUE(r.status.ok()) << text << ": " << r.status.message();
    EXPECT_EQ(FindingLines(r.report), c.findings) << text;
  }
  EXPECT_EQ(diag::Info(diag::Code::kFeaturesUnsupported).severity,
            diag::Severity::kError);
}

TEST(EnvelopeChecks, DuplicateKeys) {
  const std::string text =
      "{\"version\":3,\"deployment\":{\"resources\":[{\"urn\":\"a\",\"urn\":"
      "\"b\"}]},"
      "\"version\":3}";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FindingLines(r.report),
            (Lines{"json-duplicate-key /deployment/resources/0 " +
                       LineCol(text, "\"urn\":\"b\""),
                   "json-duplicate-key  " + LineCol(text, "\"version\"", 5)}));
}

TEST(EnvelopeChecks, FindingsAtKeysSurviveWindowMoves) {
  // Whatever the window size and wherever a key ends relative to the
  // window's end, findings located at a key (unknown fields, "target",
  // duplicates) and key events come out the same.
  for (std::size_t pad = 0; pad < 24; ++pad) {
    const std::string text =
        "{" + std::string(pad, ' ') +
        "\"version\":3,\"unknownKeyAtRoot\" :1,\"deployment\":{\"zz\"  :  2,"
        "\"resources\":[]},\"version\":3}";
    ReadResult big;
    ReadInto(text, &big);
    ASSERT_TRUE(big.status.ok());
    ASSERT_EQ(FindingLines(big.report),
              (Lines{"field-unknown /unknownKeyAtRoot " +
                         LineCol(text, "\"unknownKeyAtRoot\""),
                     "field-unknown /deployment/zz " + LineCol(text, "\"zz\""),
                     "json-duplicate-key  " +
                         LineCol(text, "\"version\"", pad + 3)}));
    for (std::size_t window = 1; window <= 24; ++window) {
      ReadResult tiny;
      ReadInto(text, &tiny, window);
      ASSERT_TRUE(tiny.status.ok());
      EXPECT_EQ(FindingLines(tiny.report), FindingLines(big.report))
          << "pad " << pad << " window " << window;
      EXPECT_EQ(tiny.handler.events, big.handler.events)
          << "pad " << pad << " window " << window;
    }
  }
}

TEST(EnvelopeChecks, TinyWindowGivesIdenticalEventsAndLocations) {
  ReadResult big;
  ReadInto(kBigState, &big);
  ASSERT_TRUE(big.status.ok()) << big.status.message();
  Lines findings = FindingLines(big.report);
  EXPECT_EQ(
      findings,
      (Lines{
          "json-duplicate-key /deployment/resources/1 " +
              LineCol(kBigState, "\"urn\": \"dup\""),
          "field-unknown /deployment/unknownInDeployment " +
              LineCol(kBigState, "\"unknownInDeployment\""),
          "field-type /deployment/extensions/e2 " + LineCol(kBigState, "null}"),
          "field-unknown /anotherUnknownAtTheRoot " +
              LineCol(kBigState, "\"anotherUnknownAtTheRoot\""),
          "features-unsupported /features " + LineCol(kBigState, "[\"taint\""),
          "features-unsorted /features " + LineCol(kBigState, "[\"taint\"")}));
  for (std::size_t window :
       {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7},
        std::size_t{16}, std::size_t{64}}) {
    ReadResult tiny;
    ReadInto(kBigState, &tiny, window);
    ASSERT_TRUE(tiny.status.ok()) << window << ": " << tiny.status.message();
    EXPECT_EQ(tiny.handler.events, big.handler.events) << "window " << window;
    EXPECT_EQ(FindingLines(tiny.report), findings) << "window " << window;
  }
}

TEST(EnvelopeChecks, OddCaseFieldsAreNoted) {
  const std::string text = R"({"Version":3,"deployment":{"Resources":[]}})";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(
      FindingLines(r.report),
      (Lines{"field-case /Version 1:2", "field-case /deployment/Resources " +
                                            LineCol(text, "\"Resources\"")}));
}

TEST(EnvelopeChecks, DuplicateInsideAPropertyMapNamesTheObjectAndUrn) {
  const std::string text =
      R"({"version":3,"deployment":{"resources":[{"urn":"urn:pulumi:s::p::t:m:R::n",)"
      R"("type":"t:m:R","inputs":{"tags":{"k":1,"k":2}}}]}})";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FindingLines(r.report),
            (Lines{"json-duplicate-key /deployment/resources/0/inputs/tags " +
                   LineCol(text, "\"k\":2")}));
  for (const diag::Finding& f : r.report.findings()) {
    if (f.code == diag::Code::kJsonDuplicateKey) {
      EXPECT_EQ(f.urn, "urn:pulumi:s::p::t:m:R::n");
    }
  }
}

}  // namespace
}  // namespace pstate::verify

namespace pstate::verify {
namespace {

/// "code pointer line:column" of every finding, in file order.
std::vector<std::string> AllFindings(const std::string& text,
                                     std::size_t window) {
  Verifier verifier;
  diag::Report report("fixture");
  Status status = ReadText(text, verifier, report, window);
  (void)status;  // unreadable inputs are compared by their fatal finding
  report.SortByLocation();
  std::vector<std::string> lines;
  for (const diag::Finding& f : report.findings()) {
    lines.push_back(std::string(f.code_name()) + " " + f.pointer + " " +
                    std::to_string(f.line) + ":" + std::to_string(f.column));
  }
  return lines;
}

// Locations must not depend on how the bytes arrive (issue: envelope
// findings moved when the input came through a small window): every invalid
// fixture gives the same findings, places included, mapped in one piece or
// read through windows of a few bytes.
TEST(EnvelopeChecks, EveryInvalidFixtureLocatesTheSameThroughAnyWindow) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(PSTATE_FIXTURES_DIR) / "states" / "invalid";
  int checked = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    std::vector<std::string> whole = AllFindings(text, 4u << 20);
    for (std::size_t window :
         {std::size_t{3}, std::size_t{17}, std::size_t{256}}) {
      EXPECT_EQ(AllFindings(text, window), whole)
          << e.path().filename() << " window " << window;
    }
    ++checked;
  }
  EXPECT_GT(checked, 50);
}

}  // namespace
}  // namespace pstate::verify
