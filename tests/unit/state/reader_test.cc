#include "state/reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "io/input.h"

#include "unit/testing/recording_handler.h"
#include "unit/testing/state_samples.h"
#include "unit/testing/temp_dir.h"

namespace pstate::state {
namespace {

using pstate::testing::At;
using pstate::testing::FindingLines;
using pstate::testing::kBigState;
using pstate::testing::ReadText;
using pstate::testing::RecordingHandler;
using Lines = std::vector<std::string>;

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
  EXPECT_EQ(
      r.handler.events,
      (Lines{
          "{",
          "key version",
          "leaf version /version key=version @11 3",
          "key checkpoint",
          "{",
          "key stack",
          "leaf stack /checkpoint/stack key=stack " + At(text, "\"org/") +
              " \"org/proj/dev\"",
          "key config",
          "leaf config /checkpoint/config key=config " +
              At(text, "{\"aws:region\"") + R"( {"aws:region":"us-west-2"})",
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
  EXPECT_EQ(r.handler.events, (Lines{
                                  "{",
                                  "key stack",
                                  "leaf stack /stack key=stack @9 \"dev\"",
                                  "key config",
                                  "leaf config /config key=config @24 {}",
                                  "key latest",
                                  "{",
                                  "key resources",
                                  "[",
                                  "leaf resource /latest/resources/0 index=0 " +
                                      At(text, "{\"urn\"") + " {\"urn\":\"u\"}",
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

TEST(ReaderTest, LatestNullIsAnEmptyStack) {
  const std::string text =
      R"({"version":3,"checkpoint":{"stack":"s","latest":null}})";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(
      r.handler.events,
      (Lines{"{", "key version", "leaf version /version key=version @11 3",
             "key checkpoint", "{", "key stack",
             "leaf stack /checkpoint/stack key=stack @35 \"s\"", "key latest",
             "leaf misshapen /checkpoint/latest key=latest @48 null", "}", "}",
             "finish checkpoint"}));
  EXPECT_TRUE(r.report.findings().empty());
  EXPECT_FALSE(r.handler.envelope.has_deployment);
}

struct VersionCase {
  std::string version;
  std::string message_part;
};

TEST(ReaderTest, UnsupportedVersionsAreFatal) {
  for (const VersionCase& c :
       std::vector<VersionCase>{{"5", "too new"},
                                {"99999999999999999999", "must be an integer"},
                                {"-1", "not a version"},
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
    // The located text lives in the report's one fatal finding.
    EXPECT_EQ(FindingLines(r.report),
              (Lines{"version-unsupported /version 2:12"}))
        << c.version;
    EXPECT_NE(r.report.findings()[0].message.find(c.message_part),
              std::string::npos)
        << r.report.findings()[0].message;
    EXPECT_EQ(r.status.message(), r.report.findings()[0].message);
    EXPECT_TRUE(r.report.fatal());
    // Reading stops at the fatal problem: the handler never sees it.
    EXPECT_FALSE(r.handler.finished);
    EXPECT_EQ(r.handler.events.back(), "key version");
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
  EXPECT_EQ(FindingLines(r.report), (Lines{"not-a-state  1:7"}));
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
  EXPECT_EQ(r.status.message(), r.report.findings()[0].message);
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
  ReadInto(
      "{\"version\":3,\"deployment\":{\"resources\":[{\"urn\":\"\xC0\xAF\"}]}}",
      &r);
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.report.findings()[0].code, diag::Code::kJsonInvalidUtf8);

  ReadResult deep;
  std::string nest(100, '[');
  auto input = io::MemoryInput(
      "{\"version\":3,\"deployment\":{\"metadata\":" + nest + "}}");
  ReadOptions options;
  options.max_depth = 10;
  Status s = Read(*input, deep.handler, deep.report, options);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(deep.report.findings()[0].code, diag::Code::kJsonTooDeep);
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

TEST(ReaderTest, TinyWindowGivesIdenticalEventsAndLocations) {
  ReadResult big;
  ReadInto(kBigState, &big);
  ASSERT_TRUE(big.status.ok()) << big.status.message();
  for (std::size_t window :
       {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7},
        std::size_t{16}, std::size_t{64}}) {
    ReadResult tiny;
    ReadInto(kBigState, &tiny, window);
    ASSERT_TRUE(tiny.status.ok()) << window << ": " << tiny.status.message();
    EXPECT_EQ(tiny.handler.events, big.handler.events) << "window " << window;
  }
}

// The reader has no policy: unknown members, duplicate keys, misshapen
// containers and odd features are verify's to judge (verify/), so a state
// full of them reads without a single finding.
TEST(ReaderTest, ReportsOnlyWhatMakesTheInputUnreadable) {
  for (const std::string& text : std::vector<std::string>{
           kBigState, R"({"target":"dev","latest":null})",
           R"({"version":3,"deployment":{"resources":5,"extensions":[]}})",
           "{\"version\":3,\"deployment\":{\"resources\":[{\"urn\":\"a\","
           "\"urn\":\"b\"}]},\"version\":3}",
           R"({"version":3,"features":"x","deployment":{"zz":1}})"}) {
    ReadResult r;
    ReadInto(text, &r);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_TRUE(r.report.findings().empty()) << FindingLines(r.report)[0];
  }
}

// Go matches struct fields case-insensitively; property keys stay exact.
TEST(ReaderTest, EnvelopeFieldsMatchCaseInsensitively) {
  const std::string text =
      R"({"Version":3,"DEPLOYMENT":{"Resources":[{"urn":"u"}],)"
      R"("Secrets_Providers":{"type":"b64"}}})";
  ReadResult r;
  ReadInto(text, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.handler.envelope.kind, EnvelopeKind::kExport);
  EXPECT_EQ(r.handler.envelope.version, 3);
  EXPECT_EQ(r.handler.envelope.resources, 1u);
  EXPECT_NE(std::find_if(r.handler.events.begin(), r.handler.events.end(),
                         [](const std::string& e) {
                           return e.rfind(
                                      "leaf secrets_providers "
                                      "/DEPLOYMENT/Secrets_Providers ",
                                      0) == 0;
                         }),
            r.handler.events.end());
}

// An explicit "version": 0 is Go's zero value: read like no version.
TEST(ReaderTest, VersionZeroIsNoVersion) {
  ReadResult legacy;
  ReadInto(R"({"version":0,"stack":"s","latest":null})", &legacy);
  EXPECT_TRUE(legacy.status.ok()) << legacy.status.message();
  EXPECT_EQ(legacy.handler.envelope.kind, EnvelopeKind::kLegacyCheckpoint);
  ReadResult exported;
  ReadInto(R"({"version":0,"deployment":{}})", &exported);
  EXPECT_FALSE(exported.status.ok());
  EXPECT_NE(exported.report.findings().at(0).message.find("has no \"version\""),
            std::string::npos);
}

// A DIY update-history record is named as what it is.
TEST(ReaderTest, HistoryFileIsNotAState) {
  ReadResult r;
  ReadInto(
      R"({"kind":"update","startTime":1,"message":"","environment":{},)"
      R"("config":{},"result":"succeeded","endTime":2,"resourceChanges":{}})",
      &r);
  ASSERT_FALSE(r.status.ok());
  ASSERT_EQ(r.report.findings().size(), 1u);
  EXPECT_EQ(r.report.findings()[0].code, diag::Code::kNotAState);
  EXPECT_NE(r.report.findings()[0].message.find("update-history"),
            std::string::npos);
}

// A handler can stop the read (ripgrep's sink contract) or fail it.
TEST(ReaderTest, HandlerCanStopOrFail) {
  ReadResult stopped;
  stopped.handler.stop_at_leaf = 1;
  ReadInto(kBigState, &stopped);
  EXPECT_TRUE(stopped.status.ok());
  EXPECT_FALSE(stopped.handler.finished);
  EXPECT_EQ(std::count_if(
                stopped.handler.events.begin(), stopped.handler.events.end(),
                [](const std::string& e) { return e.rfind("leaf ", 0) == 0; }),
            2);

  class Failing : public Handler {
   public:
    Result<Flow> OnLeaf(Leaf& leaf, Context&) override {
      ++leaves;
      if (leaf.role == Role::kManifest) {
        return Status(Errc::kCrypto, "incorrect passphrase");
      }
      return Flow::kContinue;
    }
    int leaves = 0;
  } failing;
  diag::Report report("test.json");
  Status status = ReadText(kBigState, failing, report);
  EXPECT_EQ(status.code(), Errc::kCrypto);
  EXPECT_EQ(status.message(), "incorrect passphrase");
  EXPECT_TRUE(report.findings().empty());
  EXPECT_EQ(failing.leaves, 2);  // version, manifest: nothing after
}

// Leaf::bytes is the leaf's text as it is in the input, whatever the
// window (diff hashes resources by it).
TEST(ReaderTest, LeafBytesAreTheLeafsText) {
  class Bytes : public Handler {
   public:
    explicit Bytes(const std::string& text) : text_(text) {}
    Result<Flow> OnLeaf(Leaf& leaf, Context&) override {
      ++leaves;
      EXPECT_EQ(leaf.bytes,
                text_.substr(static_cast<std::size_t>(leaf.value.offset),
                             static_cast<std::size_t>(leaf.end_offset -
                                                      leaf.value.offset)))
          << leaf.pointer;
      EXPECT_FALSE(leaf.bytes.empty()) << leaf.pointer;
      return Flow::kContinue;
    }
    int leaves = 0;

   private:
    const std::string& text_;
  };
  for (std::size_t window :
       {std::size_t{1}, std::size_t{7}, std::size_t{4} << 20}) {
    Bytes handler(kBigState);
    diag::Report report("test.json");
    ASSERT_TRUE(ReadText(kBigState, handler, report, window).ok());
    EXPECT_GT(handler.leaves, 5) << window;
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

// An envelope finding points at the root's closing brace even when reading
// on to the end of the input refilled the window past it (the last member
// is a number, which needs the byte after it).
TEST(ReaderTest, EnvelopeFindingKeepsItsColumnWithATinyWindow) {
  const std::string text = "{ \"min\": -18 }";
  ReadResult big;
  ReadInto(text, &big);
  ASSERT_FALSE(big.status.ok());
  for (std::size_t window : {std::size_t{1}, std::size_t{7}, std::size_t{16}}) {
    ReadResult tiny;
    ReadInto(text, &tiny, window);
    ASSERT_FALSE(tiny.status.ok()) << window;
    EXPECT_EQ(FindingLines(tiny.report), FindingLines(big.report)) << window;
  }
  ASSERT_EQ(big.report.findings().size(), 1u);
  EXPECT_EQ(big.report.findings()[0].line, 1u);
  EXPECT_EQ(big.report.findings()[0].column, 14u);
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

// A gzip input reports decompressed bytes and a total the compression ratio
// predicts (never below what was read), so a small .gz holding a big state
// still shows progress; the counts end at the decompressed size.
TEST(ReaderTest, CompressedProgressCountsDecompressedBytes) {
  std::string text = "{\"version\":3,\"deployment\":{\"resources\":[";
  std::string resource = "{\"urn\":\"" + std::string(1000, 'u') + "\"}";
  for (int i = 0; i < 20000; ++i) text += (i ? "," : "") + resource;
  text += "]}}";
  pstate::testing::TempDir dir;
  std::string plain = (dir.path() / "s.json").string();
  std::ofstream(plain, std::ios::binary) << text;
  std::string gz = plain + ".gz";
  ASSERT_EQ(std::system(("gzip -c -n " + plain + " > " + gz).c_str()), 0);
  auto input = io::OpenInput(gz);
  ASSERT_TRUE(input.ok());
  RecordingHandler handler;
  diag::Report report("x");
  ReadOptions options;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> seen;
  options.on_progress = [&](std::uint64_t done, std::uint64_t total) {
    seen.emplace_back(done, total);
  };
  ASSERT_TRUE(Read(**input, handler, report, options).ok());
  ASSERT_GE(seen.size(), 1u);
  for (const auto& [done, total] : seen) {
    EXPECT_GE(total, done);
    EXPECT_LE(done, text.size());
  }
  // The compressed file is far smaller than 8 MiB steps; the counts are
  // decompressed bytes, so they pass it.
  EXPECT_GT(seen.back().first, std::filesystem::file_size(gz));
  EXPECT_EQ(report.summary().resources, 20000u);
}

}  // namespace
}  // namespace pstate::state

namespace pstate::state {
namespace {}  // namespace
}  // namespace pstate::state
