#include "report/value.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "json/document.h"
#include "report/diff.h"

namespace pstate::report {
namespace {

using diff::Value;
using diff::ValueKind;

Value Display(const std::string& json, bool show = false) {
  auto doc = json::Document::Parse(json);
  EXPECT_TRUE(doc.ok()) << json;
  return diff::DisplayValue(doc->root(), nullptr, show);
}

constexpr char kSig[] =
    R"("4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270")";

TEST(ValueRenderTest, CompactJsonKeepsTheStoredText) {
  const std::string text =
      R"({"s":"caf\u00e9","n":1.50,"a":[true,null,{}],"k\"ey":[],"d":1,"d":2})";
  EXPECT_EQ(CompactJson(Display(text)), text);
}

TEST(ValueRenderTest, HiddenLiteralAndShownSecretsRenderApart) {
  const std::string secret =
      std::string("{") + kSig + R"(,"plaintext":"\"[secret]\""})";
  Value hidden = Display(secret);
  Value shown = Display(secret, /*show=*/true);
  Value literal = Display(R"("[secret]")");
  EXPECT_TRUE(hidden.hidden());
  EXPECT_EQ(shown.kind, ValueKind::kSecret);
  EXPECT_FALSE(shown.hidden());
  EXPECT_EQ(literal.kind, ValueKind::kString);
  EXPECT_NE(hidden, literal);
  EXPECT_NE(hidden, shown);
  EXPECT_NE(shown, literal);
  // JSON: as today, a hidden secret is the string "[secret]".
  EXPECT_EQ(CompactJson(hidden), R"("[secret]")");
  EXPECT_EQ(CompactJson(shown), R"("[secret]")");
  EXPECT_EQ(CompactJson(literal), R"("[secret]")");
  // Text: only a hidden secret prints bare.
  EXPECT_EQ(ValueText(hidden, 0), "[secret]");
  EXPECT_EQ(ValueText(literal, 0), R"("[secret]")");
  EXPECT_EQ(ValueText(shown, 0), R"("[secret]")");
  diff::PropertyChange c;
  c.section = diff::Section::kOutputs;
  c.path = "p";
  c.before = hidden;
  c.after = literal;
  EXPECT_EQ(ChangeLine(c), R"(~ outputs.p: [secret] => "[secret]")");
}

TEST(ValueRenderTest, NestedSecretsInAnAddedObjectAreValues) {
  Value v = Display(std::string(R"({"a":{"b":{)") + kSig +
                    R"(,"ciphertext":"x"}},"c":"[secret]"})");
  ASSERT_EQ(v.kind, ValueKind::kObject);
  ASSERT_EQ(v.members.size(), 2u);
  ASSERT_EQ(v.members[0].value.members.size(), 1u);
  EXPECT_TRUE(v.members[0].value.members[0].value.hidden());
  EXPECT_EQ(v.members[1].value.kind, ValueKind::kString);
  EXPECT_EQ(CompactJson(v), R"({"a":{"b":"[secret]"},"c":"[secret]"})");
}

TEST(ValueRenderTest, ValuesBeyondTheWalksDepthShowEmpty) {
  // Deeper than the walk descends (WalkOptions::max_depth, 1024; the
  // parser stops at 512, so the tree is built by hand): the innermost
  // container it reaches is empty, the rest stays in place.
  json::Arena arena;
  json::Value v = arena.MakeNumber("1");
  for (int i = 0; i < 1100; ++i) {
    json::Value one[] = {v};
    v = arena.MakeArray(one);
  }
  json::Value outer[] = {v, arena.MakeNumber("2")};
  std::string text = CompactJson(diff::DisplayValue(arena.MakeArray(outer)));
  EXPECT_EQ(text.find('1'), std::string::npos);
  EXPECT_EQ(text.substr(text.size() - 4), "],2]");
  EXPECT_EQ(std::count(text.begin(), text.end(), '['),
            std::count(text.begin(), text.end(), ']'));
}

TEST(ValueRenderTest, TextIsCutToTheWidth) {
  EXPECT_EQ(ValueText(Display(R"("abcdefghij")"), 6), "\"ab...");
  EXPECT_EQ(ValueText(Display(R"({"x":1})"), 0), R"({"x":1})");
}

}  // namespace
}  // namespace pstate::report
