#include "pstate/state/reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "unit/testing/recording_handler.h"

namespace pstate::state {
namespace {

using pstate::testing::FindingLines;
using pstate::testing::ReadText;
using pstate::testing::RecordingHandler;
using Lines = std::vector<std::string>;

std::string At(const std::string& text, const std::string& needle,
               std::size_t from = 0) {
  std::size_t pos = text.find(needle, from);
  EXPECT_NE(pos, std::string::npos) << needle;
  return "@" + std::to_string(pos);
}

/// 1-based line:column of the first occurrence of `needle` (after `from`).
std::string LineCol(const std::string& text, const std::string& needle,
                    std::size_t from = 0) {
  std::size_t pos = text.find(needle, from);
  EXPECT_NE(pos, std::string::npos) << needle;
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < pos; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

struct ReadResult {
  Status status;
  RecordingHandler handler;
  diag::Report report{"test.json"};
};

void ReadInto(const std::string& text, ReadResult* r,
         std::size_t window = 4u << 20) {
  r->status = ReadText(text, r->handler, r->report, window);
}

TEST(ReaderTest, ExportEvents) {
  const std::string text =
      R"({"version":3,"deployment":{"manifest":{"time":"t","magic":"","version":""},)"
      R"("secrets_providers":{"type":"b64"},"resources":[{"urn":"u1"},{"urn":"u2"}],)"
      R"("pending_operations":[],"metadata":{}}})";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.handler.events,
            (Lines{
                "{",
                "key version",
                "leaf version /version key=version " + At(text, "3") + " 3",
                "key deployment",
                "{",
                "key manifest",
                "leaf manifest /deployment/manifest key=manifest " +
                    At(text, "{\"time\"") +
                    R"( {"time":"t","magic":"","version":""})",
                "key secrets_providers",
                "leaf secrets_providers /deployment/secrets_providers "
                "key=secrets_providers " +
                    At(text, "{\"type\"") + R"( {"type":"b64"})",
                "key resources",
                "[",
                "leaf resource /deployment/resources/0 index=0 " +
                    At(text, "{\"urn\":\"u1\"") + R"( {"urn":"u1"})",
                "leaf resource /deployment/resources/1 index=1 " +
                    At(text, "{\"urn\":\"u2\"") + R"( {"urn":"u2"})",
                "]",
                "key pending_operations",
                "[",
                "]",
                "key metadata",
                "leaf metadata /deployment/metadata key=metadata " +
                    At(text, "{}") + " {}",
                "}",
                "}",
                "finish export",
            }));
  EXPECT_TRUE(r.report.findings().empty()) << FindingLines(r.report)[0];
  EXPECT_EQ(r.handler.envelope.kind, EnvelopeKind::kExport);
  EXPECT_EQ(r.handler.envelope.version, 3);
  EXPECT_TRUE(r.handler.envelope.has_deployment);
  EXPECT_EQ(r.handler.envelope.resources, 2u);
  EXPECT_EQ(r.handler.envelope.pending_operations, 0u);
  EXPECT_EQ(r.report.summary().resources, 2u);
}

TEST(ReaderTest, CheckpointEvents) {
  const std::string text =
      R"({"version":3,"checkpoint":{"stack":"org/proj/dev","config":{"aws:region":"us-west-2"},)"
      R"("latest":{"manifest":{},"resources":[],"pending_operations":[{"type":"creating"}],)"
      R"("snippets":[{"uuid":"a"}],"extensions":{"x":{"name":"n"}}}}})";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.handler.events,
            (Lines{
                "{",
                "key version",
                "leaf version /version key=version @11 3",
                "key checkpoint",
                "{",
                "key stack",
                "leaf stack /checkpoint/stack key=stack " +
                    At(text, "\"org/") + " \"org/proj/dev\"",
                "key config",
                "leaf config /checkpoint/config key=config " +
                    At(text, "{\"aws:region\"") +
                    R"( {"aws:region":"us-west-2"})",
                "key latest",
                "{",
                "key manifest",
                "leaf manifest /checkpoint/latest/manifest key=manifest " +
                    At(text, "{}") + " {}",
                "key resources",
                "[",
                "]",
                "key pending_operations",
                "[",
                "leaf pending_operation /checkpoint/latest/pending_operations/0 "
                "index=0 " +
                    At(text, "{\"type\"") + R"( {"type":"creating"})",
                "]",
                "key snippets",
                "[",
                "leaf snippet /checkpoint/latest/snippets/0 index=0 " +
                    At(text, "{\"uuid\"") + R"( {"uuid":"a"})",
                "]",
                "key extensions",
                "{",
                "key x",
                "leaf extension /checkpoint/latest/extensions/x key=x " +
                    At(text, "{\"name\"") + R"( {"name":"n"})",
                "}",
                "}",
                "}",
                "}",
                "finish checkpoint",
            }));
  EXPECT_TRUE(r.report.findings().empty());
  EXPECT_EQ(r.handler.envelope.kind, EnvelopeKind::kCheckpoint);
  EXPECT_TRUE(r.handler.envelope.has_deployment);
  EXPECT_EQ(r.handler.envelope.pending_operations, 1u);
}

TEST(ReaderTest, LegacyCheckpoint) {
  const std::string text =
      R"({"stack":"dev","config":{},"latest":{"resources":[{"urn":"u"}]}})";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.handler.events,
            (Lines{
                "{",
                "key stack",
                "leaf stack /stack key=stack @9 \"dev\"",
                "key config",
                "leaf config /config key=config @24 {}",
                "key latest",
                "{",
                "key resources",
                "[",
                "leaf resource /latest/resources/0 index=0 " + At(text, "{\"urn\"") +
                    " {\"urn\":\"u\"}",
                "]",
                "}",
                "}",
                "finish legacy-checkpoint",
            }));
  EXPECT_TRUE(r.report.findings().empty());
  EXPECT_FALSE(r.handler.envelope.version.has_value());
  EXPECT_TRUE(r.handler.envelope.has_deployment);
  EXPECT_EQ(r.handler.envelope.resources, 1u);
}

TEST(ReaderTest, LegacyTargetIsNoted) {
  const std::string text = R"({"target":"dev","latest":null})";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FindingLines(r.report), (Lines{"field-unknown /target 1:2"}));
  EXPECT_EQ(r.handler.envelope.kind, EnvelopeKind::kLegacyCheckpoint);
  EXPECT_FALSE(r.handler.envelope.has_deployment);
}

TEST(ReaderTest, LatestNullIsAnEmptyStack) {
  const std::string text =
      R"({"version":3,"checkpoint":{"stack":"s","latest":null}})";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.handler.events,
            (Lines{"{", "key version", "leaf version /version key=version @11 3",
                   "key checkpoint", "{", "key stack",
                   "leaf stack /checkpoint/stack key=stack @35 \"s\"",
                   "key latest",
                   "leaf misshapen /checkpoint/latest key=latest @48 null", "}",
                   "}", "finish checkpoint"}));
  EXPECT_TRUE(r.report.findings().empty());
  EXPECT_FALSE(r.handler.envelope.has_deployment);
}

TEST(ReaderTest, MisshapenContainers) {
  const std::string text =
      R"({"version":3,"deployment":{"resources":5,"pending_operations":null,"extensions":[]}})";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FindingLines(r.report),
            (Lines{"field-type /deployment/resources " + LineCol(text, "5"),
                   "field-type /deployment/extensions " + LineCol(text, "[]")}));
  EXPECT_EQ(r.handler.envelope.resources, 0u);
}

TEST(ReaderTest, UnknownMembersAreNoted) {
  const std::string text =
      "{\n  \"version\": 3,\n  \"extra\": [1],\n  \"deployment\": {\n"
      "    \"zzz\": {\"a\": 1},\n    \"resources\": []\n  }\n}\n";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FindingLines(r.report),
            (Lines{"field-unknown /extra 3:3", "field-unknown /deployment/zzz 5:5"}));
  EXPECT_EQ(r.report.findings()[0].severity, diag::Severity::kNote);
  // Unknown members are still handed over, as leaves.
  EXPECT_NE(std::find(r.handler.events.begin(), r.handler.events.end(),
                      "leaf unknown /deployment/zzz key=zzz " +
                          At(text, "{\"a\"") + " {\"a\":1}"),
            r.handler.events.end());
}

struct VersionCase {
  std::string version;
  std::string message_part;
};

TEST(ReaderTest, UnsupportedVersionsAreFatal) {
  for (const VersionCase& c :
       std::vector<VersionCase>{{"5", "too new"},
                                {"99999999999999999999", "must be an integer"},
                                {"0", "too old"},
                                {"-1", "too old"},
                                {"\"3\"", "must be an integer, found string"},
                                {"3.0", "must be an integer"},
                                {"3e0", "must be an integer"},
                                {"null", "must be an integer, found null"}}) {
    const std::string text = "{\n\"version\": " + c.version +
                             ",\n\"deployment\": {\"resources\": []}}";
    ReadResult r;
    ReadInto(text, &r);
    ASSERT_FALSE(r.status.ok()) << c.version;
    EXPECT_EQ(r.status.code(), Errc::kFormat) << c.version;
    EXPECT_NE(r.status.message().find("test.json:2:12: "), std::string::npos)
        << r.status.message();
    EXPECT_NE(r.status.message().find(c.message_part), std::string::npos)
        << r.status.message();
    EXPECT_EQ(FindingLines(r.report), (Lines{"version-unsupported /version 2:12"}))
        << c.version;
    EXPECT_TRUE(r.report.fatal());
    // Reading stops at the fatal problem.
    EXPECT_FALSE(r.handler.finished);
    EXPECT_EQ(r.handler.events.back().substr(0, 13), "leaf version ");
  }
}

TEST(ReaderTest, SupportedVersions) {
  for (int v = 1; v <= 4; ++v) {
    ReadResult r;
    ReadInto("{\"version\":" + std::to_string(v) + ",\"deployment\":{}}", &r);
    EXPECT_TRUE(r.status.ok()) << v << ": " << r.status.message();
    EXPECT_EQ(r.handler.envelope.version, v);
  }
}

TEST(ReaderTest, MissingVersionIsFatal) {
  for (std::string text : {std::string(R"({"deployment":{}})"),
                           std::string(R"({"checkpoint":{"stack":"s"}})")}) {
    ReadResult r;
    ReadInto(text, &r);
    ASSERT_FALSE(r.status.ok()) << text;
    EXPECT_EQ(r.status.code(), Errc::kFormat);
    // Located at the root object's closing brace.
    EXPECT_EQ(FindingLines(r.report),
              (Lines{"version-unsupported  1:" + std::to_string(text.size())}));
    EXPECT_FALSE(r.handler.finished);
  }
}

TEST(ReaderTest, FeaturesRules) {
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
           {"4", R"(["taint","byteString"])", {"features-unsorted /features 1:26"}},
           {"4", R"(["taint","taint"])", {"features-unsorted /features 1:26"}},
           {"3", R"(["taint"])", {"features-ignored /features 1:26"}},
           {"4", R"(["zz","taint"])",
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

TEST(ReaderTest, KnownFeatures) {
  EXPECT_TRUE(IsKnownFeature("taint"));
  EXPECT_TRUE(IsKnownFeature("byteString"));
  EXPECT_FALSE(IsKnownFeature("Taint"));
  EXPECT_FALSE(IsKnownFeature(""));
}

TEST(ReaderTest, NonObjectRootIsNotAState) {
  for (std::string text : {"[1]", "\"x\"", "  42", "true", "null", "-1"}) {
    ReadResult r;
    ReadInto(text, &r);
    ASSERT_FALSE(r.status.ok()) << text;
    EXPECT_EQ(r.status.code(), Errc::kFormat) << text;
    std::size_t at = text.find_first_not_of(' ');
    EXPECT_EQ(FindingLines(r.report),
              (Lines{"not-a-state  1:" + std::to_string(at + 1)}))
        << text;
    EXPECT_TRUE(r.handler.events.empty());
  }
}

TEST(ReaderTest, ObjectWithoutEnvelopeIsNotAState) {
  const std::string text = R"({"a":1})";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(FindingLines(r.report),
            (Lines{"field-unknown /a 1:2", "not-a-state  1:7"}));
  EXPECT_FALSE(r.handler.finished);
}

TEST(ReaderTest, NotJsonAtAll) {
  for (std::string text : {"", "   \n ", "@", "<xml/>"}) {
    ReadResult r;
    ReadInto(text, &r);
    ASSERT_FALSE(r.status.ok()) << text;
    EXPECT_EQ(r.status.code(), Errc::kSyntax) << text;
    ASSERT_EQ(r.report.findings().size(), 1u) << text;
    EXPECT_EQ(r.report.findings()[0].code, diag::Code::kJsonSyntax);
  }
}

TEST(ReaderTest, TrailingGarbage) {
  const std::string text = "{\"version\":3,\"deployment\":{}}\n  x";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.code(), Errc::kSyntax);
  EXPECT_EQ(FindingLines(r.report), (Lines{"json-syntax  2:3"}));
  EXPECT_NE(r.status.message().find("test.json:2:3:"), std::string::npos)
      << r.status.message();
  EXPECT_FALSE(r.handler.finished);
  // Whitespace after the document is fine.
  ReadResult ok;
  ReadInto("{\"version\":3,\"deployment\":{}}\n\n \t", &ok);
  EXPECT_TRUE(ok.status.ok());
}

TEST(ReaderTest, SyntaxErrorsInsideLeavesAreLocated) {
  const std::string text =
      "{\"version\":3,\n\"deployment\":{\"resources\":[\n{\"urn\":\"a\"},\n"
      "{\"urn\": }]}}";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.code(), Errc::kSyntax);
  EXPECT_EQ(FindingLines(r.report),
            (Lines{"json-syntax /deployment/resources/1 4:9"}));
}

TEST(ReaderTest, InvalidUtf8AndDepthAreFatal) {
  ReadResult r;
  ReadInto("{\"version\":3,\"deployment\":{\"resources\":[{\"urn\":\"\xC0\xAF\"}]}}",
      &r);
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.report.findings()[0].code, diag::Code::kJsonInvalidUtf8);

  ReadResult deep;
  std::string nest(100, '[');
  auto input = io::MemoryInput("{\"version\":3,\"deployment\":{\"metadata\":" +
                               nest + "}}");
  ReadOptions options;
  options.max_depth = 10;
  Status s = Read(*input, deep.handler, deep.report, options);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(deep.report.findings()[0].code, diag::Code::kJsonTooDeep);
}

TEST(ReaderTest, DuplicateKeys) {
  const std::string text =
      "{\"version\":3,\"deployment\":{\"resources\":[{\"urn\":\"a\",\"urn\":\"b\"}]},"
      "\"version\":3}";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FindingLines(r.report),
            (Lines{"json-duplicate-key /deployment/resources/0 " +
                       LineCol(text, "\"urn\":\"b\""),
                   "json-duplicate-key  " + LineCol(text, "\"version\"", 5)}));
}

TEST(ReaderTest, IoErrorsAreFatal) {
  std::string gz("\x1f\x8b\x08\x00garbage-after-the-magic", 27);
  auto input = io::MemoryInput(gz, "bad.json");
  ReadResult r;
  Status s = Read(*input, r.handler, r.report);
  ASSERT_FALSE(s.ok());
  ASSERT_FALSE(r.report.findings().empty());
  EXPECT_EQ(r.report.findings()[0].code, diag::Code::kIoError);
  EXPECT_TRUE(r.report.fatal());
}

/// A state with every kind of member, whitespace, escapes, multi-byte
/// text, unknown fields and duplicate keys, to be read with tiny windows.
const std::string kBigState =
    "{\n"
    "    \"version\": 4,\n"
    "    \"deployment\": {\n"
    "        \"manifest\": {\n"
    "            \"time\": \"2024-01-02T03:04:05.123Z\",\n"
    "            \"magic\": \"\",\n"
    "            \"version\": \"\"\n"
    "        },\n"
    "        \"secrets_providers\": {\"type\": \"b64\"},\n"
    "        \"resources\": [\n"
    "            {\n"
    "                \"urn\": \"urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev\",\n"
    "                \"custom\": false,\n"
    "                \"type\": \"pulumi:pulumi:Stack\",\n"
    "                \"outputs\": {\"text\": \"caf\xC3\xA9 \\u00e9 \\\"q\\\" "
    "\xF0\x9F\x98\x80\", \"n\": 12345678901234567890}\n"
    "            },\n"
    "            {\"urn\": \"urn:pulumi:dev::p::a:b:C::x\", \"urn\": \"dup\"},\n"
    "            {\"urn\": \"urn:pulumi:dev::p::a:b:C::y\", \"inputs\": {\"list\": "
    "[1, 2, 3, [4, [5, {\"deep\": true}]]]}}\n"
    "        ],\n"
    "        \"unknownInDeployment\": {\"a\": [1, 2, 3]},\n"
    "        \"p\\u0065nding_operations\": [],\n"
    "        \"metadata\": {},\n"
    "        \"extensions\": {\"e\\u0031\": {\"name\": \"n\"}, \"e2\": null}\n"
    "    },\n"
    "    \"anotherUnknownAtTheRoot\": \"some long text to make the window move "
    "along\",\n"
    "    \"features\": [\"taint\", \"byteString\", \"zzz\"]\n"
    "}\n";

TEST(ReaderTest, TinyWindowGivesIdenticalEventsAndLocations) {
  ReadResult big;
  ReadInto(kBigState, &big);
  ASSERT_TRUE(big.status.ok()) << big.status.message();
  Lines findings = FindingLines(big.report);
  EXPECT_EQ(findings,
            (Lines{"json-duplicate-key /deployment/resources/1 " +
                       LineCol(kBigState, "\"urn\": \"dup\""),
                   "field-unknown /deployment/unknownInDeployment " +
                       LineCol(kBigState, "\"unknownInDeployment\""),
                   "field-unknown /anotherUnknownAtTheRoot " +
                       LineCol(kBigState, "\"anotherUnknownAtTheRoot\""),
                   "features-unsupported /features " +
                       LineCol(kBigState, "[\"taint\""),
                   "features-unsorted /features " +
                       LineCol(kBigState, "[\"taint\"")}));
  for (std::size_t window : {std::size_t{1}, std::size_t{2}, std::size_t{3},
                             std::size_t{7}, std::size_t{16}, std::size_t{64}}) {
    ReadResult tiny;
    ReadInto(kBigState, &tiny, window);
    ASSERT_TRUE(tiny.status.ok()) << window << ": " << tiny.status.message();
    EXPECT_EQ(tiny.handler.events, big.handler.events) << "window " << window;
    EXPECT_EQ(FindingLines(tiny.report), findings) << "window " << window;
  }
}

TEST(ReaderTest, TinyWindowLocatesFatalErrorsIdentically) {
  for (std::string bad :
       {kBigState + "x", kBigState.substr(0, kBigState.size() / 2),
        kBigState.substr(0, 40) + "\x01" + kBigState.substr(40)}) {
    ReadResult big;
    ReadInto(bad, &big);
    ASSERT_FALSE(big.status.ok());
    for (std::size_t window : {std::size_t{1}, std::size_t{16}}) {
      ReadResult tiny;
      ReadInto(bad, &tiny, window);
      ASSERT_FALSE(tiny.status.ok());
      EXPECT_EQ(tiny.status.message(), big.status.message());
      EXPECT_EQ(FindingLines(tiny.report), FindingLines(big.report));
      EXPECT_EQ(tiny.handler.events, big.handler.events);
    }
  }
}

TEST(ReaderTest, ProgressIsReported) {
  std::string text = "{\"version\":3,\"deployment\":{\"resources\":[";
  std::string resource = "{\"urn\":\"" + std::string(1000, 'u') + "\"}";
  for (int i = 0; i < 9000; ++i) text += (i ? "," : "") + resource;
  text += "]}}";
  auto input = io::MemoryInput(text);
  RecordingHandler handler;
  diag::Report report("x");
  ReadOptions options;
  options.window_size = 1 << 16;
  std::vector<std::uint64_t> seen;
  options.on_progress = [&](std::uint64_t consumed, std::uint64_t total) {
    EXPECT_EQ(total, text.size());
    seen.push_back(consumed);
  };
  ASSERT_TRUE(Read(*input, handler, report, options).ok());
  EXPECT_GE(seen.size(), 1u);
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(report.summary().resources, 9000u);
}

}  // namespace
}  // namespace pstate::state

namespace pstate::state {
namespace {

TEST(ReaderTest, FindingsAtKeysSurviveWindowMoves) {
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

}  // namespace
}  // namespace pstate::state
