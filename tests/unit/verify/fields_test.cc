#include "verify/fields.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "json/parser.h"
#include "unit/testing/fake_context.h"
#include "verify/check_context.h"

namespace pstate::verify {
namespace {

using pstate::testing::FakeContext;
using Lines = std::vector<std::string>;

// The grammar is base/rfc3339.h's (tested there); verify adds one rule.
TEST(IsRfc3339Test, WhatPulumiCanLoadAndSave) {
  EXPECT_TRUE(IsRfc3339("2024-01-02T03:04:05.5-07:30"));
  EXPECT_TRUE(IsRfc3339("2024-01-02T3:04:05+01:60"));        // Go reads, writes
  EXPECT_FALSE(IsRfc3339("2024-02-30T00:00:00.000+00:00"));  // no such day
  EXPECT_FALSE(IsRfc3339("2024-01-02 03:04:05Z"));
  // Go reads it, but MarshalJSON fails: Pulumi could not save the state.
  EXPECT_FALSE(IsRfc3339("2024-01-02T03:04:05+24:00"));
  // Stored text: UnmarshalJSON does not unescape.
  EXPECT_FALSE(IsRfc3339("2024-01-02T03:04:05\\u005a"));
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
