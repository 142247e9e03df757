#include "json/parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/utf8.h"
#include "json/string_codec.h"

namespace pstate::json {
namespace {

struct Parsed {
  ParseStatus status = ParseStatus::kError;
  Value value;
  SyntaxError error;
  std::vector<DuplicateKey> duplicates;
  std::size_t stop = 0;  ///< bytes consumed
};

/// Parses text[0, end) of `text` (the rest of `text` and 64 bytes of
/// padding stay readable, as the window guarantees).
Parsed ParseSome(const std::string& text, std::size_t end, bool at_eof,
                 Arena& arena, std::uint64_t base = 0,
                 int max_depth = kDefaultMaxDepth) {
  static std::string buffer;  // outlives the returned Value within a test
  buffer = text + std::string(kParserPadding, '\0');
  Parser parser(max_depth);
  Parsed r;
  const char* stop = nullptr;
  r.status = parser.Parse(buffer.data(), buffer.data() + end, at_eof, base,
                          arena, &r.value, &stop);
  r.stop = static_cast<std::size_t>(stop - buffer.data());
  r.error = parser.error();
  r.duplicates.assign(parser.duplicates().begin(), parser.duplicates().end());
  return r;
}

Parsed ParseAll(const std::string& text, Arena& arena, std::uint64_t base = 0,
                int max_depth = kDefaultMaxDepth) {
  return ParseSome(text, text.size(), true, arena, base, max_depth);
}

void ExpectError(const std::string& text, std::uint64_t offset,
                 SyntaxCode code = SyntaxCode::kSyntax,
                 std::string_view message_part = "") {
  Arena arena;
  Parsed r = ParseAll(text, arena);
  ASSERT_EQ(r.status, ParseStatus::kError) << text;
  EXPECT_EQ(r.error.offset, offset) << text << ": " << r.error.message;
  EXPECT_EQ(r.error.code, code) << text << ": " << r.error.message;
  if (!message_part.empty()) {
    EXPECT_NE(r.error.message.find(message_part), std::string::npos)
        << text << ": " << r.error.message;
  }
  // The same bytes at a different base offset fail at the shifted offset.
  Arena arena2;
  Parsed shifted = ParseAll(text, arena2, 1000);
  ASSERT_EQ(shifted.status, ParseStatus::kError);
  EXPECT_EQ(shifted.error.offset, offset + 1000) << text;
}

TEST(ParserTest, EveryValueType) {
  Arena arena;
  std::string text =
      R"( {"n":null,"f":false,"t":true,"i":-12,"s":"x","a":[1,"b"],"o":{}} )";
  Parsed r = ParseAll(text, arena);
  ASSERT_EQ(r.status, ParseStatus::kOk) << r.error.message;
  EXPECT_EQ(r.stop, text.size() - 1);  // stops right after the value
  const Value& v = r.value;
  ASSERT_TRUE(v.is_object());
  EXPECT_EQ(v.offset, 1u);
  ASSERT_EQ(v.size, 7u);
  EXPECT_EQ(v.object()[0].raw_key(), "n");
  EXPECT_TRUE(v.object()[0].value.is_null());
  EXPECT_EQ(v.object()[1].value.type, Type::kFalse);
  EXPECT_EQ(v.object()[2].value.type, Type::kTrue);
  EXPECT_TRUE(v.object()[2].value.is_bool());
  EXPECT_TRUE(v.object()[3].value.is_number());
  EXPECT_EQ(v.object()[3].value.raw(), "-12");
  EXPECT_TRUE(v.object()[4].value.is_string());
  EXPECT_EQ(v.object()[4].value.raw(), "x");
  EXPECT_FALSE(v.object()[4].value.has_escapes);
  const Value& a = v.object()[5].value;
  ASSERT_TRUE(a.is_array());
  ASSERT_EQ(a.size, 2u);
  EXPECT_EQ(a.array()[0].raw(), "1");
  EXPECT_EQ(a.array()[1].raw(), "b");
  EXPECT_TRUE(v.object()[6].value.is_object());
  EXPECT_EQ(v.object()[6].value.size, 0u);
  // Offsets are those of each value's first byte; keys have theirs.
  EXPECT_EQ(v.object()[0].key.offset, 2u);
  EXPECT_EQ(v.object()[0].value.offset, 6u);
  EXPECT_EQ(a.offset, text.find('['));
  EXPECT_EQ(a.array()[1].offset, text.find("\"b\""));
}

TEST(ParserTest, ScalarsAtTopLevel) {
  for (std::string text :
       {"null", "true", "false", "0", "\"\"", "[]", "{}", " \t\r\n 7"}) {
    Arena arena;
    Parsed r = ParseAll(text, arena);
    EXPECT_EQ(r.status, ParseStatus::kOk) << text << ": " << r.error.message;
  }
}

TEST(ParserTest, NumbersKeepTheirText) {
  for (std::string n :
       {"0", "-0", "1", "-1", "10", "123456789012345678901234567890",
        "-98765432109876543210987654321098765432109876543210", "0.5",
        "-0.000001", "1e10", "1E+10", "2.5e-300", "6.02214076e+23", "1e999",
        "18446744073709551616"}) {
    Arena arena;
    Parsed r = ParseAll("[" + n + "]", arena);
    ASSERT_EQ(r.status, ParseStatus::kOk) << n << ": " << r.error.message;
    ASSERT_EQ(r.value.size, 1u);
    EXPECT_TRUE(r.value.array()[0].is_number());
    EXPECT_EQ(r.value.array()[0].raw(), n);
  }
}

TEST(ParserTest, InvalidNumbers) {
  ExpectError("01", 1, SyntaxCode::kSyntax, "leading zero");
  ExpectError("-01", 2, SyntaxCode::kSyntax, "leading zero");
  ExpectError("[00]", 2, SyntaxCode::kSyntax, "leading zero");
  ExpectError("-", 1);
  ExpectError("-a", 1, SyntaxCode::kSyntax, "expected a digit");
  ExpectError("1.", 2);
  ExpectError("1.e5", 2, SyntaxCode::kSyntax, "after '.'");
  ExpectError("1e", 2);
  ExpectError("1e+", 3);
  ExpectError("1e+x", 3, SyntaxCode::kSyntax, "exponent");
  ExpectError("+1", 0);
  ExpectError(".5", 0);
  ExpectError("[1,2,03]", 6, SyntaxCode::kSyntax, "leading zero");
}

TEST(ParserTest, StringsWithEscapes) {
  Arena arena;
  Parsed r = ParseAll(
      R"(["plain","a\"b","\\\/\b\f\n\r\t","\u00e9\ud83d\ude00"])", arena);
  ASSERT_EQ(r.status, ParseStatus::kOk) << r.error.message;
  auto items = r.value.array();
  EXPECT_FALSE(items[0].has_escapes);
  EXPECT_TRUE(items[1].has_escapes);
  EXPECT_EQ(items[1].raw(), R"(a\"b)");  // kept escaped
  EXPECT_EQ(items[1].Str(), "a\"b");
  EXPECT_EQ(items[2].Str(), "\\/\b\f\n\r\t");
  EXPECT_EQ(items[3].Str(), "\xC3\xA9\xF0\x9F\x98\x80");
}

TEST(ParserTest, InvalidEscapes) {
  ExpectError(R"("a\qb")", 2, SyntaxCode::kSyntax, "invalid escape");
  ExpectError(R"("\x41")", 1, SyntaxCode::kSyntax, "invalid escape");
  ExpectError(R"("\u12G4")", 5, SyntaxCode::kSyntax, "4 hex digits");
  ExpectError(R"("\u12")", 5, SyntaxCode::kSyntax, "4 hex digits");
  ExpectError(R"("\U0041")", 1, SyntaxCode::kSyntax, "invalid escape");
  ExpectError(R"("\')", 1, SyntaxCode::kSyntax, "invalid escape");
}

TEST(ParserTest, ControlCharactersMustBeEscaped) {
  ExpectError("\"a\tb\"", 2, SyntaxCode::kSyntax, "control character");
  ExpectError("\"a\nb\"", 2, SyntaxCode::kSyntax, "U+000A");
  ExpectError(std::string("\"ab\0\"", 5), 3, SyntaxCode::kSyntax,
              "control character");
  ExpectError("\"\x1f\"", 1, SyntaxCode::kSyntax, "U+001F");
  // DEL is not a control character for JSON.
  Arena arena;
  EXPECT_EQ(ParseAll("\"\x7f\"", arena).status, ParseStatus::kOk);
}

struct Utf8Case {
  const char* bytes;
  bool valid;
};

const Utf8Case kUtf8Cases[] = {
    {"\xC3\xA9", true},           // é, 2 bytes
    {"\xC2\x80", true},           // smallest 2-byte
    {"\xE2\x82\xAC", true},       // €, 3 bytes
    {"\xE0\xA0\x80", true},       // smallest 3-byte
    {"\xED\x9F\xBF", true},       // U+D7FF, just below the surrogates
    {"\xEE\x80\x80", true},       // U+E000, just above
    {"\xF0\x9F\x98\x80", true},   // 😀, 4 bytes
    {"\xF4\x8F\xBF\xBF", true},   // U+10FFFF
    {"\xC0\xAF", false},          // overlong '/'
    {"\xC1\xBF", false},          // overlong
    {"\xE0\x80\xAF", false},      // overlong 3-byte
    {"\xF0\x80\x80\xAF", false},  // overlong 4-byte
    {"\xED\xA0\x80", false},      // U+D800 surrogate
    {"\xED\xBF\xBF", false},      // U+DFFF surrogate
    {"\xF4\x90\x80\x80", false},  // U+110000
    {"\xF5\x80\x80\x80", false},  // beyond any plane
    {"\xFF", false},
    {"\x80", false},          // lone continuation
    {"\xC3", false},          // truncated 2-byte
    {"\xE2\x82", false},      // truncated 3-byte
    {"\xF0\x9F\x98", false},  // truncated 4-byte
    {"\xC3\x28", false},      // bad continuation
    {"\xE2\x28\xA1", false},
};

TEST(ParserTest, Utf8Validation) {
  for (const Utf8Case& c : kUtf8Cases) {
    std::string text = std::string("\"ab") + c.bytes + "\"";
    Arena arena;
    Parsed r = ParseAll(text, arena);
    if (c.valid) {
      EXPECT_EQ(r.status, ParseStatus::kOk) << testing::PrintToString(text);
      EXPECT_EQ(r.value.Str(), std::string("ab") + c.bytes);
    } else {
      ASSERT_EQ(r.status, ParseStatus::kError) << testing::PrintToString(text);
      EXPECT_EQ(r.error.code, SyntaxCode::kInvalidUtf8);
      EXPECT_EQ(r.error.offset, 3u) << testing::PrintToString(text);
    }
  }
}

TEST(StringCodecTest, IsValidUtf8MatchesTheTable) {
  for (const Utf8Case& c : kUtf8Cases) {
    EXPECT_EQ(utf8::IsValid(c.bytes), c.valid)
        << testing::PrintToString(c.bytes);
    EXPECT_EQ(utf8::IsValid(std::string("x") + c.bytes + "y"), c.valid)
        << testing::PrintToString(c.bytes);
  }
  EXPECT_TRUE(utf8::IsValid(""));
  EXPECT_TRUE(utf8::IsValid(std::string("a\0b", 3)));
}

TEST(ParserTest, TrailingCommasAndMissingSeparators) {
  ExpectError("[1,]", 3, SyntaxCode::kSyntax, "where a value was expected");
  ExpectError(R"({"a":1,})", 7, SyntaxCode::kSyntax, "string key");
  ExpectError(R"({"a" 1})", 5, SyntaxCode::kSyntax, "expected ':'");
  ExpectError("[1 2]", 3, SyntaxCode::kSyntax, "expected ',' or ']'");
  ExpectError(R"({"a":1 "b":2})", 7, SyntaxCode::kSyntax,
              "expected ',' or '}'");
  ExpectError(R"({a:1})", 1, SyntaxCode::kSyntax, "string key");
  ExpectError("[,1]", 1);
  ExpectError("{,}", 1);
  ExpectError("", 0, SyntaxCode::kSyntax, "end of input");
  ExpectError("   ", 3, SyntaxCode::kSyntax, "end of input");
}

TEST(ParserTest, InvalidLiterals) {
  ExpectError("tru", 3, SyntaxCode::kSyntax, "end of input");
  ExpectError("trUe", 2, SyntaxCode::kSyntax, "expected 'true'");
  ExpectError("nul", 3);
  ExpectError("nulL", 3, SyntaxCode::kSyntax, "expected 'null'");
  ExpectError("fals", 4);
  ExpectError("[True]", 1, SyntaxCode::kSyntax, "where a value was expected");
  ExpectError("@", 0, SyntaxCode::kSyntax, "'@'");
}

TEST(ParserTest, StopsRightAfterTheValue) {
  Arena arena;
  Parsed r = ParseAll("[1] trailing", arena);
  ASSERT_EQ(r.status, ParseStatus::kOk);
  EXPECT_EQ(r.stop, 3u);
  r = ParseAll("  12,", arena);
  ASSERT_EQ(r.status, ParseStatus::kOk);
  EXPECT_EQ(r.stop, 4u);
  EXPECT_EQ(r.value.offset, 2u);
}

std::string Nested(int depth, char open, char close) {
  return std::string(static_cast<std::size_t>(depth), open) + "1" +
         std::string(static_cast<std::size_t>(depth), close);
}

TEST(ParserTest, DepthLimit) {
  Arena arena;
  EXPECT_EQ(ParseAll(Nested(3, '[', ']'), arena, 0, 3).status,
            ParseStatus::kOk);
  Parsed r = ParseAll(Nested(4, '[', ']'), arena, 0, 3);
  ASSERT_EQ(r.status, ParseStatus::kError);
  EXPECT_EQ(r.error.code, SyntaxCode::kTooDeep);
  EXPECT_EQ(r.error.offset, 3u);  // the opening bracket one level too deep

  std::string objects = R"({"a":{"b":{"c":{}}}})";
  r = ParseAll(objects, arena, 0, 3);
  ASSERT_EQ(r.status, ParseStatus::kError);
  EXPECT_EQ(r.error.code, SyntaxCode::kTooDeep);
  EXPECT_EQ(r.error.offset, 15u);
  EXPECT_EQ(ParseAll(objects, arena, 0, 4).status, ParseStatus::kOk);

  // The default limit: 512 levels are fine, 513 are not.
  EXPECT_EQ(ParseAll(Nested(kDefaultMaxDepth, '[', ']'), arena).status,
            ParseStatus::kOk);
  r = ParseAll(Nested(kDefaultMaxDepth + 1, '[', ']'), arena);
  ASSERT_EQ(r.status, ParseStatus::kError);
  EXPECT_EQ(r.error.code, SyntaxCode::kTooDeep);
  EXPECT_EQ(r.error.offset, static_cast<std::uint64_t>(kDefaultMaxDepth));
  // Far deeper input fails cleanly rather than exhausting the stack.
  r = ParseAll(Nested(100000, '[', ']'), arena);
  EXPECT_EQ(r.status, ParseStatus::kError);
  EXPECT_EQ(r.error.code, SyntaxCode::kTooDeep);
}

TEST(ParserTest, DuplicateKeysSmallObject) {
  Arena arena;
  Parsed r = ParseAll(R"({"a":1,"b":2,"a":3})", arena);
  ASSERT_EQ(r.status, ParseStatus::kOk);
  ASSERT_EQ(r.duplicates.size(), 1u);
  EXPECT_EQ(r.duplicates[0].key, "a");
  EXPECT_EQ(r.duplicates[0].offset, 13u);
  // Both members stay in the tree, in order.
  EXPECT_EQ(r.value.size, 3u);
}

TEST(ParserTest, DuplicateKeysLargeObject) {
  std::string text = "{";
  for (int i = 0; i < 20; ++i) {
    text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  }
  std::size_t dup_at = text.size();
  text += "\"k5\":0,";
  std::size_t dup2_at = text.size();
  text += "\"k19\":0}";
  Arena arena;
  Parsed r = ParseAll(text, arena);
  ASSERT_EQ(r.status, ParseStatus::kOk) << r.error.message;
  ASSERT_EQ(r.duplicates.size(), 2u);
  EXPECT_EQ(r.duplicates[0].key, "k5");
  EXPECT_EQ(r.duplicates[0].offset, dup_at);
  EXPECT_EQ(r.duplicates[1].key, "k19");
  EXPECT_EQ(r.duplicates[1].offset, dup2_at);
  // Exactly 17 distinct members: no duplicates.
  std::string distinct = "{";
  for (int i = 0; i < 17; ++i) {
    distinct += (i ? ",\"" : "\"") + std::to_string(i) + "\":0";
  }
  distinct += "}";
  r = ParseAll(distinct, arena);
  ASSERT_EQ(r.status, ParseStatus::kOk);
  EXPECT_TRUE(r.duplicates.empty());
}

TEST(ParserTest, DuplicateKeysEqualAfterUnescaping) {
  Arena arena;
  Parsed r = ParseAll(R"({"a":1,"\u0061":2})", arena);
  ASSERT_EQ(r.status, ParseStatus::kOk);
  ASSERT_EQ(r.duplicates.size(), 1u);
  EXPECT_EQ(r.duplicates[0].key, "a");
  EXPECT_EQ(r.duplicates[0].offset, 7u);
  r = ParseAll(R"({"a\/b":1,"a/b":2})", arena);
  ASSERT_EQ(r.duplicates.size(), 1u);
  EXPECT_EQ(r.duplicates[0].key, "a/b");
  // Different after unescaping: no duplicate.
  r = ParseAll(R"({"a":1,"\u0062":2,"\\u0061":3})", arena);
  EXPECT_TRUE(r.duplicates.empty());
}

TEST(ParserTest, SameKeyInDifferentObjectsIsNoDuplicate) {
  Arena arena;
  Parsed r = ParseAll(R"([{"a":1},{"a":2},{"a":{"a":3}}])", arena);
  ASSERT_EQ(r.status, ParseStatus::kOk);
  EXPECT_TRUE(r.duplicates.empty());
  // Nested duplicates are found, and a later Parse forgets earlier ones.
  r = ParseAll(R"({"x":{"k":1,"k":2}})", arena);
  ASSERT_EQ(r.duplicates.size(), 1u);
  EXPECT_EQ(r.duplicates[0].offset, 12u);
  r = ParseAll(R"({"x":1})", arena);
  EXPECT_TRUE(r.duplicates.empty());
}

/// A document exercising every construct, with escapes and multi-byte
/// UTF-8 so cuts land inside them.
const std::string kSample =
    "{\n  \"s\": \"plain text\",\n  \"e\": \"q\\\"x\\\\ \\n \\u00e9 "
    "\\ud83d\\ude00\",\n  \"u\": \"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\",\n"
    "  \"n\": [0, -1, 12.5e+3, -0.25E-2, 123456789012345678901234567890],\n"
    "  \"t\": true, \"f\": false, \"z\": null,\n"
    "  \"o\": {\"nested\": [{}, [], {\"k\": \"v\"}]}\n}";

/// For each offset, the start of the escape or UTF-8 sequence it lies
/// strictly inside, or the offset itself.
std::vector<std::size_t> UnitStarts(const std::string& s) {
  std::vector<std::size_t> start(s.size() + 1);
  for (std::size_t i = 0; i <= s.size(); ++i) start[i] = i;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = 1;
    auto c = static_cast<unsigned char>(s[i]);
    if (c == '\\')
      len = s[i + 1] == 'u' ? 6 : 2;
    else if (c >= 0xF0)
      len = 4;
    else if (c >= 0xE0)
      len = 3;
    else if (c >= 0xC0)
      len = 2;
    for (std::size_t k = 1; k < len; ++k) start[i + k] = i;
    i += len;
  }
  return start;
}

TEST(ParserTest, IncompleteAtEveryCutPoint) {
  ASSERT_TRUE(utf8::IsValid(kSample));
  std::vector<std::size_t> unit = UnitStarts(kSample);
  for (std::size_t cut = 0; cut < kSample.size(); ++cut) {
    Arena arena;
    Parsed r = ParseSome(kSample, cut, /*at_eof=*/false, arena);
    EXPECT_EQ(r.status, ParseStatus::kIncomplete)
        << "cut " << cut << ": " << r.error.message;
    Parsed e = ParseSome(kSample, cut, /*at_eof=*/true, arena, 500);
    ASSERT_EQ(e.status, ParseStatus::kError) << "cut " << cut;
    EXPECT_EQ(e.error.offset, 500 + unit[cut])
        << "cut " << cut << ": " << e.error.message;
    if (unit[cut] == cut) {
      EXPECT_EQ(e.error.code, SyntaxCode::kSyntax) << "cut " << cut;
      EXPECT_NE(e.error.message.find("end of input"), std::string::npos)
          << "cut " << cut << ": " << e.error.message;
    }
  }
  for (bool at_eof : {false, true}) {
    Arena arena;
    Parsed r = ParseSome(kSample, kSample.size(), at_eof, arena);
    ASSERT_EQ(r.status, ParseStatus::kOk) << r.error.message;
    EXPECT_EQ(r.stop, kSample.size());
    EXPECT_EQ(r.value.Find("u")->Str(), "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
    EXPECT_EQ(r.value.Find("e")->Str(), "q\"x\\ \n \xC3\xA9 \xF0\x9F\x98\x80");
  }
}

TEST(ParserTest, NumberAtTheEndOfTheBufferNeedsMore) {
  Arena arena;
  // "12" may continue as "123" unless the input ended.
  EXPECT_EQ(ParseSome("12", 2, false, arena).status, ParseStatus::kIncomplete);
  Parsed r = ParseSome("12", 2, true, arena);
  ASSERT_EQ(r.status, ParseStatus::kOk);
  EXPECT_EQ(r.value.raw(), "12");
  // A cut right after a complete literal or string is complete.
  EXPECT_EQ(ParseSome("true", 4, false, arena).status, ParseStatus::kOk);
  EXPECT_EQ(ParseSome("\"a\"", 3, false, arena).status, ParseStatus::kOk);
}

TEST(ParserTest, ErrorsBeforeTheCutAreErrorsEvenWithoutEof) {
  Arena arena;
  std::string text = "[1,,2,3,4,5,6";
  Parsed r = ParseSome(text, text.size(), false, arena);
  ASSERT_EQ(r.status, ParseStatus::kError);
  EXPECT_EQ(r.error.offset, 3u);
}

TEST(ParseDocumentTest, WhitespaceAroundIsFine) {
  Arena arena;
  Parser parser;
  Value v;
  EXPECT_EQ(parser.ParseDocument("  {\"a\": [1]} \n", 0, arena, &v),
            ParseStatus::kOk);
  EXPECT_EQ(v.Find("a")->array()[0].raw(), "1");
}

TEST(ParseDocumentTest, TrailingGarbage) {
  Arena arena;
  Parser parser;
  Value v;
  ASSERT_EQ(parser.ParseDocument("1 2", 0, arena, &v), ParseStatus::kError);
  EXPECT_EQ(parser.error().offset, 2u);
  EXPECT_EQ(parser.error().code, SyntaxCode::kSyntax);
  EXPECT_NE(parser.error().message.find("after the JSON value"),
            std::string::npos);
  ASSERT_EQ(parser.ParseDocument("{} x", 10, arena, &v), ParseStatus::kError);
  EXPECT_EQ(parser.error().offset, 13u);
  ASSERT_EQ(parser.ParseDocument("[1]]", 0, arena, &v), ParseStatus::kError);
  EXPECT_EQ(parser.error().offset, 3u);
  ASSERT_EQ(parser.ParseDocument("", 0, arena, &v), ParseStatus::kError);
  EXPECT_EQ(parser.error().offset, 0u);
  // A number at the end of a document is complete (at_eof is implied).
  EXPECT_EQ(parser.ParseDocument("42", 0, arena, &v), ParseStatus::kOk);
  EXPECT_EQ(v.raw(), "42");
}

TEST(ParseDocumentTest, TreeDoesNotDependOnTheCallersBuffer) {
  Arena arena;
  Parser parser;
  Value v;
  std::string text = R"({"key":"value","n":12})";
  ASSERT_EQ(parser.ParseDocument(text, 0, arena, &v), ParseStatus::kOk);
  std::fill(text.begin(), text.end(), 'X');
  EXPECT_EQ(v.Find("key")->Str(), "value");
  EXPECT_EQ(v.Find("n")->raw(), "12");
}

TEST(DescribeByteTest, Forms) {
  EXPECT_EQ(DescribeByte('x'), "'x'");
  EXPECT_EQ(DescribeByte(' '), "a space");
  EXPECT_EQ(DescribeByte('\n'), "U+000A");
  EXPECT_EQ(DescribeByte(0x7F), "U+007F");
  EXPECT_EQ(DescribeByte(0xFF), "byte 0xFF");
}

}  // namespace
}  // namespace pstate::json
