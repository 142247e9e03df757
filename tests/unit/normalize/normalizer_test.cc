// Byte-exact cases for each rule of Go's encoding/json as Pulumi uses it
// (state-operations.md §1.2-1.3 in the reference notes), as small
// input/expected-output pairs.
#include "normalize/normalizer.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "diag/report.h"
#include "io/input.h"
#include "io/output.h"
#include "json/number.h"
#include "normalize/go_text.h"

namespace pstate::normalize {
namespace {

struct Result {
  Status status;
  std::string out;
  std::vector<Note> notes;
  bool needs_reorder = false;
  std::optional<diag::Failure> failure;  ///< the normalizer's, located
};

Result Normalize(const std::string& in, Options options = {},
                 Mode mode = Mode::kStream) {
  io::StringOutput out;
  Normalizer n(out, options, mode);
  diag::Report report("<test>");
  auto input = io::MemoryInput(in);
  Result r;
  r.status = state::Read(*input, n, report);
  r.out = out.str();
  r.notes = n.notes();
  r.needs_reorder = n.needs_reorder();
  r.failure = n.failure();
  return r;
}

/// A one-resource export whose outputs are `outputs` (compact JSON).
std::string ExportWithOutputs(const std::string& outputs) {
  return R"({"version":3,"deployment":{"manifest":{"time":"2026-08-01T10:00:00Z","magic":"m","version":"v3.250.0"},"resources":[{"urn":"u","custom":false,"type":"t","outputs":)" +
         outputs + "}]}}";
}

/// The normalized compact (diy) text of a value placed in outputs.
std::string OutputsDiy(const std::string& outputs, Options options = {}) {
  options.layout = Layout::kDiy;
  Result r = Normalize(ExportWithOutputs(outputs), options);
  EXPECT_TRUE(r.status.ok()) << r.status.message();
  std::string prefix = R"("outputs":)";
  std::size_t at = r.out.find(prefix);
  if (at == std::string::npos) return "<none>";
  std::size_t end = r.out.rfind("}]");
  return r.out.substr(at + prefix.size(), end - at - prefix.size());
}

TEST(NormalizerTest, LayoutAExampleIsByteExact) {
  // The example of state-operations.md §1.3 A, from a shuffled compact input.
  std::string in =
      R"({"features":["taint"],"version":4,"deployment":{"manifest":{"version":"v3.250.0","time":"2026-08-01T10:00:00+00:00","magic":"9efda2e66c69194595f1be2c3587ab931ef188c15697bed0da0a960b45186d89"},"resources":[{"type":"pulumi:pulumi:Stack","urn":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev","custom":false,"inputs":{},"id":"","outputs":{"alpha":[],"__x":"a\u003cb","Zeta":1e21}},{"urn":"urn:pulumi:dev::proj::aws:s3/bucket:Bucket::logs","taint":true,"custom":true,"id":"logs-123","type":"aws:s3/bucket:Bucket","parent":"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev","protect":false}]}})";
  std::string want = R"({
    "version": 4,
    "features": [
        "taint"
    ],
    "deployment": {
        "manifest": {
            "time": "2026-08-01T10:00:00Z",
            "magic": "9efda2e66c69194595f1be2c3587ab931ef188c15697bed0da0a960b45186d89",
            "version": "v3.250.0"
        },
        "resources": [
            {
                "urn": "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev",
                "custom": false,
                "type": "pulumi:pulumi:Stack",
                "outputs": {
                    "Zeta": 1e+21,
                    "__x": "a<b",
                    "alpha": []
                }
            },
            {
                "urn": "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::logs",
                "custom": true,
                "id": "logs-123",
                "type": "aws:s3/bucket:Bucket",
                "parent": "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev",
                "taint": true
            }
        ],
        "metadata": {}
    }
}
)";
  Result r = Normalize(in);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.out, want);
  // Idempotent.
  Result again = Normalize(r.out);
  ASSERT_TRUE(again.status.ok());
  EXPECT_EQ(again.out, want);
}

TEST(NormalizerTest, StringEscapeRows) {
  // " and \ ; \b \f (Go >= 1.22); \n \r \t; other controls as \u00XX.
  EXPECT_EQ(OutputsDiy(R"({"a":"q\"b\\"})"), R"({"a":"q\"b\\"})");
  EXPECT_EQ(OutputsDiy(R"({"a":"\u0008\u000C"})"), R"({"a":"\b\f"})");
  EXPECT_EQ(OutputsDiy(R"({"a":"\u000a\u000D\u0009"})"), R"({"a":"\n\r\t"})");
  EXPECT_EQ(OutputsDiy(R"({"a":"\u0001\u001F"})"), R"({"a":"\u0001\u001f"})");
  // <, > and &: raw in export and diy, escaped in diy-state-command.
  EXPECT_EQ(OutputsDiy(R"({"a":"\u003c\u003e\u0026"})"), R"({"a":"<>&"})");
  Options html;
  html.layout = Layout::kDiyStateCommand;
  Result r = Normalize(ExportWithOutputs(R"({"a":"<>&"})"), html);
  EXPECT_NE(r.out.find(R"("a":"\u003c\u003e\u0026")"), std::string::npos);
  // U+2028 and U+2029 are always escaped.
  EXPECT_EQ(OutputsDiy("{\"a\":\"\xE2\x80\xA8\xE2\x80\xA9\"}"),
            R"({"a":"\u2028\u2029"})");
  // DEL, '/', and other non-ASCII stay raw; \/ and \u00e9 are unescaped.
  EXPECT_EQ(OutputsDiy("{\"a\":\"\x7F/\\/\\u00e9\xC3\xA9\"}"),
            "{\"a\":\"\x7F//\xC3\xA9\xC3\xA9\"}");
  // Keys are escaped the same way.
  EXPECT_EQ(OutputsDiy(R"({"\u003c":1})"), R"({"<":1})");
}

TEST(NormalizerTest, NumberRows) {
  EXPECT_EQ(OutputsDiy(R"({"a":1.0,"b":1e2,"c":1E+2,"d":0.10})"),
            R"({"a":1,"b":100,"c":100,"d":0.1})");
  EXPECT_EQ(OutputsDiy(R"({"a":-0})"), R"({"a":-0})");
  EXPECT_EQ(OutputsDiy(R"({"a":1e20,"b":1e21})"),
            R"({"a":100000000000000000000,"b":1e+21})");
  EXPECT_EQ(OutputsDiy(R"({"a":1e-6,"b":1e-7,"c":1.2e-5})"),
            R"({"a":0.000001,"b":1e-7,"c":0.000012})");
  EXPECT_EQ(OutputsDiy(R"({"a":1.7976931348623157e308,"b":5e-324})"),
            R"({"a":1.7976931348623157e+308,"b":5e-324})");
  // Lossless by default: digits Go would lose are kept, with a note.
  EXPECT_EQ(OutputsDiy(R"({"a":123456789012345678,"b":9007199254740993})"),
            R"({"a":123456789012345678,"b":9007199254740993})");
  EXPECT_EQ(OutputsDiy(R"({"a":12345678901234567890,"b":1e400})"),
            R"({"a":12345678901234567890,"b":1e400})");
  Options go;
  go.pulumi_numbers = true;
  EXPECT_EQ(OutputsDiy(R"({"a":123456789012345678,"b":9007199254740993})", go),
            R"({"a":123456789012345680,"b":9007199254740992})");
  EXPECT_EQ(OutputsDiy(R"({"a":12345678901234567890})", go),
            R"({"a":12345678901234567000})");
  Result r = Normalize(ExportWithOutputs(R"({"b":1e400})"), go);
  EXPECT_FALSE(r.status.ok());
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->pointer, "/deployment/resources/0/outputs/b");
  EXPECT_GT(r.failure->line, 0u);
  EXPECT_EQ(r.failure->reason, r.status.message());
}

TEST(NormalizerTest, InexactNumbersAreNoted) {
  Options o;
  o.layout = Layout::kDiy;
  Result r = Normalize(ExportWithOutputs(R"({"n":9007199254740993})"), o);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0].kind, NoteKind::kInexactNumber);
  EXPECT_EQ(r.notes[0].pointer, "/deployment/resources/0/outputs/n");
  EXPECT_NE(r.notes[0].message.find("9007199254740992"), std::string::npos);
}

TEST(NormalizerTest, MapKeysSortBytewiseUnescaped) {
  EXPECT_EQ(
      OutputsDiy("{\"\\u2028k\":0,\"\xC3\xA9\":0,\"z\":0,\"alpha\":0,"
                 "\"a b\":0,\"__inputs\":0,\"_\":0,\"Zeta\":0,\"A\":0,\"9\":0,"
                 "\"10\":0}"),
      "{\"10\":0,\"9\":0,\"A\":0,\"Zeta\":0,\"_\":0,\"__inputs\":0,"
      "\"a b\":0,\"alpha\":0,\"z\":0,\"\xC3\xA9\":0,\"\\u2028k\":0}");
  // Nested maps too, and an escaped key sorts by its decoded bytes.
  EXPECT_EQ(OutputsDiy(R"({"b":{"y":1,"x":2},"\u0061":3})"),
            R"({"a":3,"b":{"x":2,"y":1}})");
}

TEST(NormalizerTest, DuplicateKeysLastWins) {
  Options o;
  o.layout = Layout::kDiy;
  Result r = Normalize(ExportWithOutputs(R"({"a":1,"b":2,"a":3})"), o);
  ASSERT_TRUE(r.status.ok());
  EXPECT_NE(r.out.find(R"("outputs":{"a":3,"b":2})"), std::string::npos);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0].kind, NoteKind::kDuplicateKey);
  EXPECT_EQ(r.notes[0].pointer, "/deployment/resources/0/outputs/a");
  EXPECT_EQ(r.notes[0].line, 1u);
  // A struct field matched case-insensitively, then exactly: the last wins.
  Result s = Normalize(
      R"({"version":3,"deployment":{"manifest":{"time":"0001-01-01T00:00:00Z","magic":"","version":""},"resources":[{"URN":"old","urn":"new","custom":true,"type":"t"}]}})",
      o);
  EXPECT_NE(s.out.find(R"({"urn":"new","custom":true,"type":"t"})"),
            std::string::npos)
      << s.out;
}

TEST(NormalizerTest, Timestamps) {
  EXPECT_EQ(GoTimeText("2026-01-01T00:00:00+00:00"), "2026-01-01T00:00:00Z");
  EXPECT_EQ(GoTimeText("2019-05-30T15:54:35.812817000-07:00"),
            "2019-05-30T15:54:35.812817-07:00");
  EXPECT_EQ(GoTimeText("2026-01-01T00:00:00.500Z"), "2026-01-01T00:00:00.5Z");
  EXPECT_EQ(GoTimeText("2026-01-01T00:00:00.000Z"), "2026-01-01T00:00:00Z");
  EXPECT_EQ(GoTimeText("0001-01-01T00:00:00Z"), "0001-01-01T00:00:00Z");
  EXPECT_EQ(GoTimeText("2026-01-01T00:00:00z"), std::nullopt);
  EXPECT_EQ(GoTimeText("2026-01-01T00:00:00"), std::nullopt);
  // Go reads any number of fraction digits and keeps the first nine.
  EXPECT_EQ(GoTimeText("2026-01-01T00:00:00.1234567890Z"),
            "2026-01-01T00:00:00.123456789Z");
  // Go rejects a day the month does not have: left as it is.
  EXPECT_EQ(GoTimeText("2024-02-30T00:00:00.000+00:00"), std::nullopt);
  Options o;
  o.layout = Layout::kDiy;
  Result r = Normalize(
      R"({"version":3,"deployment":{"manifest":{"time":"2026-01-01T00:00:00.500+00:00","magic":"","version":""},"resources":[{"urn":"u","custom":true,"type":"t","modified":"2026-01-01T00:00:00.100-07:00","created":"2026-01-01T00:00:00+00:00"}]}})",
      o);
  EXPECT_EQ(
      r.out,
      R"({"version":3,"deployment":{"manifest":{"time":"2026-01-01T00:00:00.5Z","magic":"","version":""},"resources":[{"urn":"u","custom":true,"type":"t","created":"2026-01-01T00:00:00Z","modified":"2026-01-01T00:00:00.1-07:00"}],"metadata":{}}})");
}

TEST(NormalizerTest, EmptyContainersStayOnOneLine) {
  std::string in = ExportWithOutputs(R"({"a":[],"b":{},"c":[[]],"d":[{}]})");
  Result r = Normalize(in);
  ASSERT_TRUE(r.status.ok());
  EXPECT_NE(r.out.find(R"(                "outputs": {
                    "a": [],
                    "b": {},
                    "c": [
                        []
                    ],
                    "d": [
                        {}
                    ]
                }
)"),
            std::string::npos)
      << r.out;
}

TEST(NormalizerTest, CheckpointDiyLayoutIsCompactWithoutNewline) {
  std::string in = R"({
    "checkpoint": {"latest": {"manifest": {"magic": "", "version": "", "time": "0001-01-01T00:00:00Z"}}, "stack": "organization/p/dev"},
    "version": 3
})";
  // "version" after "checkpoint": Go writes it first, so a stream pass
  // that has not written anything yet still succeeds.
  Result r = Normalize(in);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(
      r.out,
      R"({"version":3,"checkpoint":{"stack":"organization/p/dev","latest":{"manifest":{"time":"0001-01-01T00:00:00Z","magic":"","version":""},"metadata":{}}}})");
}

TEST(NormalizerTest, MembersOutOfOrderNeedASpoolPass) {
  std::string in =
      R"({"version":3,"deployment":{"resources":[{"urn":"u","custom":true,"type":"t"}],"manifest":{"time":"0001-01-01T00:00:00Z","magic":"","version":""}}})";
  Result stream = Normalize(in);
  EXPECT_FALSE(stream.status.ok());
  EXPECT_TRUE(stream.needs_reorder);
  Options o;
  o.layout = Layout::kDiy;
  Result spool = Normalize(in, o, Mode::kSpool);
  ASSERT_TRUE(spool.status.ok()) << spool.status.message();
  EXPECT_EQ(
      spool.out,
      R"({"version":3,"deployment":{"manifest":{"time":"0001-01-01T00:00:00Z","magic":"","version":""},"resources":[{"urn":"u","custom":true,"type":"t"}],"metadata":{}}})");
  // The spooled array is re-indented to its depth in the export layout.
  Result pretty = Normalize(in, {}, Mode::kSpool);
  Result direct = Normalize(spool.out, {});
  ASSERT_TRUE(pretty.status.ok());
  EXPECT_EQ(pretty.out, direct.out);
}

TEST(NormalizerTest, UnknownMembersKeptAfterKnownOnes) {
  Options o;
  o.layout = Layout::kDiy;
  std::string in =
      R"({"version":3,"deployment":{"manifest":{"time":"0001-01-01T00:00:00Z","magic":"","version":"","extra":1},"resources":[{"zz":1,"urn":"u","custom":true,"type":"t","aa":{"y":1,"x":2}}],"later":true}})";
  Result r = Normalize(in, o);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(
      r.out,
      R"({"version":3,"deployment":{"manifest":{"time":"0001-01-01T00:00:00Z","magic":"","version":"","extra":1},"resources":[{"urn":"u","custom":true,"type":"t","zz":1,"aa":{"x":2,"y":1}}],"metadata":{},"later":true}})");
  EXPECT_EQ(r.notes.size(), 4u);
  o.drop_unknown = true;
  Result d = Normalize(in, o);
  EXPECT_EQ(
      d.out,
      R"({"version":3,"deployment":{"manifest":{"time":"0001-01-01T00:00:00Z","magic":"","version":""},"resources":[{"urn":"u","custom":true,"type":"t"}],"metadata":{}}})");
}

TEST(NormalizerTest, OmitemptyAndZeroValues) {
  Options o;
  o.layout = Layout::kDiy;
  // Empty inputs, "" id, false flags, empty arrays dropped; custom false and
  // a pointer customTimeouts {} kept; empty resources and pending
  // operations arrays dropped; secrets_providers.state passed verbatim.
  std::string in =
      R"({"version":3,"deployment":{"manifest":{"time":"0001-01-01T00:00:00Z","magic":"","version":""},"secrets_providers":{"type":"b64","state":{"z":"\u003c","a":1.50}},"resources":[{"urn":"u","custom":false,"delete":false,"id":"","type":"t","inputs":{},"dependencies":[],"customTimeouts":{},"protect":false}],"pending_operations":[]}})";
  Result r = Normalize(in, o);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(
      r.out,
      R"({"version":3,"deployment":{"manifest":{"time":"0001-01-01T00:00:00Z","magic":"","version":""},"secrets_providers":{"type":"b64","state":{"z":"\u003c","a":1.50}},"resources":[{"urn":"u","custom":false,"type":"t","customTimeouts":{}}],"metadata":{}}})");
}

TEST(NormalizerTest, VersionOneResourcesKeepTheirStruct) {
  Options o;
  o.layout = Layout::kDiy;
  std::string in =
      R"({"version":1,"checkpoint":{"stack":"s","latest":{"manifest":{"time":"0001-01-01T00:00:00Z","magic":"","version":""},"resources":[{"outputs":{"b":1},"urn":"u","custom":true,"type":"t","defaults":{"a":1}}]}}})";
  Result r = Normalize(in, o);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(
      r.out,
      R"({"version":1,"checkpoint":{"stack":"s","latest":{"manifest":{"time":"0001-01-01T00:00:00Z","magic":"","version":""},"resources":[{"urn":"u","custom":true,"type":"t","defaults":{"a":1},"outputs":{"b":1},"dependencies":null,"initErrors":null}]}}})");
}

TEST(NormalizerTest, PlainIntegers) {
  EXPECT_TRUE(IsPlainInteger("0"));
  EXPECT_TRUE(IsPlainInteger("-0"));
  EXPECT_TRUE(IsPlainInteger("123456789012345"));
  EXPECT_FALSE(IsPlainInteger("1234567890123456"));
  EXPECT_FALSE(IsPlainInteger("1.0"));
  EXPECT_FALSE(IsPlainInteger("-"));
}

TEST(NormalizerTest, GoDecimals) {
  EXPECT_TRUE(IsGoDecimal("0.75"));
  EXPECT_TRUE(IsGoDecimal("-12.5"));
  EXPECT_TRUE(IsGoDecimal("0.000001"));  // 1e-6 itself: Go's 'f' format
  EXPECT_TRUE(IsGoDecimal("12345678901234.5"));
  EXPECT_FALSE(IsGoDecimal("0.0000001"));  // Go writes 1e-7
  EXPECT_FALSE(IsGoDecimal("1.50"));       // Go writes 1.5
  EXPECT_FALSE(IsGoDecimal("1.0"));
  EXPECT_FALSE(IsGoDecimal("123456789012345.6"));  // 16 digits
  EXPECT_FALSE(IsGoDecimal("1e5"));
  EXPECT_FALSE(IsGoDecimal("1.5e5"));
  EXPECT_FALSE(IsGoDecimal("12"));
  EXPECT_FALSE(IsGoDecimal("1."));
  EXPECT_FALSE(IsGoDecimal(".5"));
  EXPECT_FALSE(IsGoDecimal("-"));
  EXPECT_FALSE(IsGoDecimal(""));
}

TEST(NormalizerTest, GoDecimalsAreWhatGoWrites) {
  // The fast path must agree with the slow one (parse, Go's spelling)
  // wherever it claims a number: a deterministic sweep of shapes.
  std::uint64_t seed = 88172645463325252ull;
  auto next = [&] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  int claimed = 0;
  for (int i = 0; i < 200000; ++i) {
    std::string text = (next() % 4 == 0) ? "-" : "";
    std::size_t int_digits = next() % 17;
    if (int_digits == 0) {
      text += "0";
    } else {
      text += static_cast<char>('1' + next() % 9);
      for (std::size_t d = 1; d < int_digits; ++d) {
        text += static_cast<char>('0' + next() % 10);
      }
    }
    text += ".";
    std::size_t zeros = next() % 8;
    text.append(zeros, '0');
    std::size_t frac = 1 + next() % 16;
    for (std::size_t d = 0; d < frac; ++d) {
      text += static_cast<char>('0' + next() % 10);
    }
    if (!IsGoDecimal(text)) continue;
    ++claimed;
    std::optional<double> d = json::ToDouble(text);
    ASSERT_TRUE(d.has_value()) << text;
    ASSERT_EQ(json::GoFloatText(*d), text) << text;
  }
  EXPECT_GT(claimed, 10000);
}

}  // namespace
}  // namespace pstate::normalize
