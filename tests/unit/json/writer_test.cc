#include "json/writer.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "json/parser.h"

namespace pstate::json {
namespace {

std::string Rewrite(const std::string& text, Layout layout) {
  Arena arena;
  Parser parser;
  Value v;
  EXPECT_EQ(parser.ParseDocument(text, 0, arena, &v), ParseStatus::kOk);
  io::StringOutput out;
  Writer w(out, layout);
  w.Write(v);
  w.Finish();
  return out.str();
}

TEST(WriterTest, IndentsLikeGoMarshalIndent) {
  EXPECT_EQ(Rewrite(R"({"a":[1,{"b":null}],"c":{},"d":[]})", Layout::kIndented),
            "{\n    \"a\": [\n        1,\n        {\n            \"b\": null\n"
            "        }\n    ],\n    \"c\": {},\n    \"d\": []\n}\n");
}

// Strings the canonical form cannot keep byte for byte (a lone surrogate
// escape, read as U+FFFD) are reported with their offsets, keys included.
TEST(WriterTest, LossyStringsAreReported) {
  const std::string text =
      R"({"a":"x\ud800","k\udc00":"\ud83d\ude00","b":["\\ud800","\ude01"]})";
  Arena arena;
  Parser parser;
  Value v;
  ASSERT_EQ(parser.ParseDocument(text, 0, arena, &v), ParseStatus::kOk);
  io::StringOutput out;
  Writer w(out, Layout::kCompact);
  std::vector<std::uint64_t> offsets;
  w.OnLossyString([&](const Value& s) { offsets.push_back(s.offset); });
  w.Write(v);
  EXPECT_EQ(offsets, (std::vector<std::uint64_t>{text.find("\"x\\ud800"),
                                                 text.find("\"k"),
                                                 text.find("\"\\ude01")}));
}

TEST(WriterTest, CompactHasNoWhitespace) {
  EXPECT_EQ(Rewrite("{ \"a\" : [ 1 , 2 ] }", Layout::kCompact),
            R"({"a":[1,2]})");
}

TEST(WriterTest, ProgramValuesAreEscapedLikeGo) {
  std::string text;
  {
    StringSink sink(&text);
    Writer w(sink, Layout::kCompact);
    w.BeginObject();
    w.Name("a\"b");
    w.String("x\n\x01<\xff");
    w.Name("n");
    w.BeginArray();
    w.Int(-3);
    w.Uint(18446744073709551615u);
    w.Bool(true);
    w.Bool(false);
    w.Null();
    w.RawValue(R"({"k":[1]})");
    w.EndArray();
    w.EndObject();
  }
  EXPECT_EQ(text, R"({"a\"b":"x\n\u0001<\ufffd","n":[-3,18446744073709551615,)"
                  R"(true,false,null,{"k":[1]}]})");
}

TEST(WriterTest, StringSinkPassesBytesToAStream) {
  std::ostringstream os;
  {
    StringSink sink(&os);
    Writer w(sink, Layout::kIndented);
    w.BeginArray();
    w.String("a");
    w.EndArray();
    w.Finish();
  }
  EXPECT_EQ(os.str(), "[\n    \"a\"\n]\n");
}

TEST(WriterTest, NumbersKeepTheirText) {
  EXPECT_EQ(Rewrite("[18446744073709552000,1.50,-0,6.02214076e+23]",
                    Layout::kCompact),
            "[18446744073709552000,1.50,-0,6.02214076e+23]");
}

TEST(WriterTest, StringsTakeGoExportEscaping) {
  // \u0026 becomes & (export does not escape HTML); \/ becomes /; control
  // characters use lowercase hex; U+2028 is escaped.
  EXPECT_EQ(
      Rewrite(R"(["a\u0026b","x\/y","\u001B","\u2028"])", Layout::kCompact),
      R"(["a&b","x/y","\u001b","\u2028"])");
}

TEST(WriterTest, HtmlSafeStyleEscapesAngleBrackets) {
  Arena arena;
  Parser parser;
  Value v;
  ASSERT_EQ(parser.ParseDocument(R"("<a&b>")", 0, arena, &v), ParseStatus::kOk);
  io::StringOutput out;
  Writer w(out, Layout::kCompact, EscapeStyle::kHtmlSafe);
  w.Write(v);
  EXPECT_EQ(out.str(), R"("\u003ca\u0026b\u003e")");
}

TEST(WriterTest, RawLineSeparatorsAreEscapedOtherTextCopied) {
  // No backslash in the input, but Go escapes U+2028/U+2029 even when raw.
  EXPECT_EQ(Rewrite("[\"a\xE2\x80\xA8"
                    "b\",\"\xC3\xA9\xE2\x82\xAC\"]",
                    Layout::kCompact),
            "[\"a\\u2028b\",\"\xC3\xA9\xE2\x82\xAC\"]");
}

TEST(WriterTest, EscapedKeysAreCanonicalized) {
  EXPECT_EQ(Rewrite(R"({"\u0061\/b":1})", Layout::kCompact), R"({"a/b":1})");
}

}  // namespace
}  // namespace pstate::json
