#include "pstate/verify/fields.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "pstate/json/parser.h"
#include "pstate/verify/check_context.h"
#include "unit/testing/fake_context.h"

namespace pstate::verify {
namespace {

using pstate::testing::FakeContext;
using Lines = std::vector<std::string>;

TEST(IsRfc3339Test, Valid) {
  for (const char* s :
       {"2024-01-02T03:04:05Z", "2024-01-02T03:04:05.1Z",
        "2024-01-02T03:04:05.123456789Z", "2024-01-02T03:04:05+01:00",
        "2024-01-02T03:04:05.5-07:30", "2024-12-31T23:59:59Z",
        "2024-02-29T00:00:00Z", "2000-02-29T12:00:00Z", "2023-04-30T00:00:00Z",
        "0001-01-01T00:00:00Z", "2024-01-02T03:04:05+23:59",
        // Go reads and writes these (as 03:04:05 and +02:00).
        "2024-01-02T3:04:05Z", "2024-01-02T03:04:05+01:60"}) {
    EXPECT_TRUE(IsRfc3339(s)) << s;
  }
}

TEST(IsRfc3339Test, Invalid) {
  for (const char* s :
       {"", "2024-01-02", "2024-01-02T03:04:05", "2024-01-02 03:04:05Z",
        "2024-1-02T03:04:05Z", "24-01-02T03:04:05Z", "2024-13-02T03:04:05Z",
        "2024-00-02T03:04:05Z", "2024-01-00T03:04:05Z", "2024-01-32T03:04:05Z",
        "2024-01-02T24:00:00Z", "2024-01-02T03:60:00Z", "2024-01-02T03:04:60Z",
        "2024-01-02T03:04:05.Z", "2024-01-02T03:04:05+0100",
        "2024-01-02T03:04:05+01",
        // Go reads it, but cannot save it again.
        "2024-01-02T03:04:05+24:00", "2024-01-02T03:04:05Zjunk",
        "2024-01-02T03:04:05ZZ", "2024/01/02T03:04:05Z", "x024-01-02T03:04:05Z",
        "2024-01-02T03:04:05 Z"}) {
    EXPECT_FALSE(IsRfc3339(s)) << s;
  }
}

TEST(IsRfc3339Test, DayMustExistInTheMonth) {
  // Go's time.Time rejects these ("day out of range").
  for (const char* s :
       {"2023-02-29T00:00:00Z", "2024-02-30T00:00:00Z", "1900-02-29T00:00:00Z",
        "2024-04-31T00:00:00Z", "2024-06-31T00:00:00Z", "2024-09-31T00:00:00Z",
        "2024-11-31T00:00:00Z"}) {
    EXPECT_FALSE(IsRfc3339(s)) << s;
  }
  EXPECT_TRUE(IsRfc3339("2024-01-31T00:00:00Z"));
  EXPECT_TRUE(IsRfc3339("2024-03-31T00:00:00Z"));
}

TEST(IsRfc3339Test, SeparatorsAreUppercaseAsGoRequires) {
  // Go's time.Time matches 'T' and 'Z' exactly.
  EXPECT_FALSE(IsRfc3339("2024-01-02t03:04:05Z"));
  EXPECT_FALSE(IsRfc3339("2024-01-02T03:04:05z"));
}

struct Parsed {
  json::Arena arena;
  json::Value value;
};

void Parse(std::string_view text, Parsed* p) {
  json::Parser parser;
  ASSERT_EQ(parser.ParseDocument(text, 0, p->arena, &p->value),
            json::ParseStatus::kOk);
}

constexpr std::array<FieldSpec, 7> kSpec = {{{"s", FieldType::kString},
                                             {"b", FieldType::kBool},
                                             {"n", FieldType::kNumber},
                                             {"o", FieldType::kObject},
                                             {"a", FieldType::kArray},
                                             {"sa", FieldType::kStringArray},
                                             {"any", FieldType::kAny}}};

TEST(CheckFieldsTest, RightTypesAndNullsPass) {
  Parsed p;
  Parse(R"({"s":"x","b":true,"n":1.5,"o":{},"a":[1],"sa":["x","y"],"any":[{}],)"
        R"("s":null})",
        &p);
  FakeContext context;
  Reporter reporter(context, "/base");
  CheckFields(p.value, kSpec, reporter, "thing");
  EXPECT_TRUE(context.findings.empty());
  Parse(
      R"({"s":null,"b":null,"n":null,"o":null,"a":null,"sa":null,"any":null})",
      &p);
  CheckFields(p.value, kSpec, reporter, "thing");
  EXPECT_TRUE(context.findings.empty());
}

TEST(CheckFieldsTest, WrongTypesAndUnknownFields) {
  Parsed p;
  const std::string text =
      R"({"s":1,"b":"true","n":"1","o":[],"a":{},"sa":["x",2],"z~/":0})";
  Parse(text, &p);
  FakeContext context;
  Reporter reporter(context, "/base");
  CheckFields(p.value, kSpec, reporter, "thing");
  auto at = [&](const char* needle) {
    return std::to_string(text.find(needle));
  };
  EXPECT_EQ(context.Lines(),
            (Lines{"field-type /base/s @" + at("1"),
                   "field-type /base/b @" + at("\"true\""),
                   "field-type /base/n @" + at("\"1\""),
                   "field-type /base/o @" + at("[]"),
                   "field-type /base/a @" + at("{}"),
                   "field-type /base/sa @" + at("[\"x\",2]"),
                   // Unknown fields point at their key.
                   "field-unknown /base/z~0~1 @" + at("\"z~/\"")}));
  EXPECT_EQ(context.findings[0].message,
            "thing field \"s\" must be a string, found number");
  EXPECT_EQ(context.findings[0].severity, diag::Severity::kError);
  EXPECT_EQ(context.findings[6].severity, diag::Severity::kNote);
  // Unknown fields can be ignored.
  FakeContext quiet;
  Reporter r2(quiet, "");
  Parse(R"({"zzz":1,"s":"x"})", &p);
  CheckFields(p.value, kSpec, r2, "thing", /*report_unknown=*/false);
  EXPECT_TRUE(quiet.findings.empty());
}

TEST(CheckFieldsTest, EscapedKeysAreMatchedDecoded) {
  Parsed p;
  Parse(R"({"\u0073":5})", &p);  // "s"
  FakeContext context;
  Reporter reporter(context, "");
  CheckFields(p.value, kSpec, reporter, "thing");
  EXPECT_EQ(context.Lines(), (Lines{"field-type /s @10"}));
}

TEST(ReporterTest, PointerScopesAndOverride) {
  Parsed p;
  Parse(R"({"a\/b":1})", &p);
  FakeContext context;
  Reporter reporter(context, "/deployment/resources/3");
  reporter.set_urn("urn:x");
  {
    PointerScope a(reporter, "outputs");
    PointerScope b(reporter, p.value.object()[0].key);  // escaped JSON key
    PointerScope c(reporter, std::size_t{2});
    EXPECT_EQ(reporter.PointerString(),
              "/deployment/resources/3/outputs/a~1b/2");
    reporter.Add(diag::Code::kFieldType, "m", 40);
    reporter.set_offset_override(7);
    reporter.Add(diag::Code::kFieldType, "m", 40);
    reporter.set_offset_override(0);
  }
  EXPECT_EQ(reporter.PointerString(), "/deployment/resources/3");
  EXPECT_EQ(context.Lines(),
            (Lines{"field-type /deployment/resources/3/outputs/a~1b/2 @40",
                   "field-type /deployment/resources/3/outputs/a~1b/2 @7"}));
  EXPECT_EQ(context.findings[0].urn, "urn:x");
}

}  // namespace
}  // namespace pstate::verify
