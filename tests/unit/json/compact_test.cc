#include "json/compact.h"

#include <gtest/gtest.h>

#include <string>

#include "json/parser.h"

namespace pstate::json {
namespace {

Value Parse(std::string_view text, Arena& arena) {
  Parser parser;
  Value v;
  EXPECT_EQ(parser.ParseDocument(text, 0, arena, &v), ParseStatus::kOk)
      << parser.error().message;
  return v;
}

TEST(CompactJsonTest, DropsWhitespaceKeepsTextAndOrder) {
  Arena arena;
  Value v = Parse(R"( {
    "b" : [ 1 , 2.50 , -0 , 1E+3 , true , false , null ] ,
    "a" : { } ,
    "c" : [ ] ,
    "a" : "x\u0041\/y\n",
    "\u00e9" : { "k" : "v" }
  } )",
                  arena);
  EXPECT_EQ(ToCompactJson(v),
            R"({"b":[1,2.50,-0,1E+3,true,false,null],"a":{},"c":[],)"
            R"("a":"x\u0041\/y\n","\u00e9":{"k":"v"}})");
}

TEST(CompactJsonTest, Scalars) {
  Arena arena;
  EXPECT_EQ(ToCompactJson(Parse("null", arena)), "null");
  EXPECT_EQ(ToCompactJson(Parse(" true ", arena)), "true");
  EXPECT_EQ(ToCompactJson(Parse("false", arena)), "false");
  EXPECT_EQ(ToCompactJson(Parse("12345678901234567890123", arena)),
            "12345678901234567890123");
  EXPECT_EQ(ToCompactJson(Parse(R"("")", arena)), R"("")");
  EXPECT_EQ(ToCompactJson(Value()), "null");
}

TEST(CompactJsonTest, HtmlSafeEscapesAsGoMarshal) {
  Arena arena;
  // Raw U+2028 (E2 80 A8) and U+2029 (E2 80 A9), and other E2 characters
  // (U+2022 bullet, E2 80 A2) left alone.
  Value v = Parse(
      "{\"<a&b>\":\"x<y>&z \xE2\x80\xA8\xE2\x80\xA9\xE2\x80\xA2"
      "\\u003c\"}",
      arena);
  EXPECT_EQ(ToCompactJson(v, EscapeStyle::kHtmlSafe),
            "{\"\\u003ca\\u0026b\\u003e\":\"x\\u003cy\\u003e\\u0026z "
            "\\u2028\\u2029\xE2\x80\xA2\\u003c\"}");
  // The export style keeps every byte.
  EXPECT_EQ(ToCompactJson(v, EscapeStyle::kExport),
            "{\"<a&b>\":\"x<y>&z \xE2\x80\xA8\xE2\x80\xA9\xE2\x80\xA2"
            "\\u003c\"}");
}

TEST(CompactJsonTest, BuiltValues) {
  Arena arena;
  Value elements[] = {arena.MakeNumber("1.0"), MakeBool(true), MakeNull(),
                      arena.MakeString("q\"uote")};
  Member members[] = {{arena.MakeString("list"), arena.MakeArray(elements)},
                      {arena.MakeString("empty"), arena.MakeObject({})}};
  EXPECT_EQ(ToCompactJson(arena.MakeObject(members)),
            R"({"list":[1.0,true,null,"q\"uote"],"empty":{}})");
}

TEST(CompactJsonTest, AppendsToExistingText) {
  Arena arena;
  std::string out = "value=";
  AppendCompactJson(Parse("[ 1 ]", arena), &out);
  EXPECT_EQ(out, "value=[1]");
}

TEST(CompactJsonTest, ReparsesToTheSameText) {
  Arena arena;
  std::string text =
      ToCompactJson(Parse(R"({"a": [1, {"b": "c\"d"}], "e": -1.5e-3})", arena));
  EXPECT_EQ(ToCompactJson(Parse(text, arena)), text);
}

TEST(CompactJsonTest, CanonicalStringsRewriteEscapesOnly) {
  Arena arena;
  Value v = Parse(R"({"\u0041": ["\u00e9\/", "plain", 1.50]})", arena);
  std::string as_stored;
  AppendCompactJson(v, &as_stored, EscapeStyle::kExport,
                    CompactStrings::kAsStored);
  EXPECT_EQ(as_stored, ToCompactJson(v));
  std::string canonical;
  AppendCompactJson(v, &canonical, EscapeStyle::kExport,
                    CompactStrings::kCanonical);
  EXPECT_EQ(canonical, "{\"A\":[\"\u00e9/\",\"plain\",1.50]}");
}

}  // namespace
}  // namespace pstate::json
