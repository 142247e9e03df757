#include "base/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace pstate::utf8 {
namespace {

TEST(Utf8Test, DecodesWellFormedSequences) {
  struct Case {
    std::string bytes;
    char32_t code_point;
  };
  for (const Case& c : {Case{"A", U'A'}, Case{"\xC3\xA9", U'\u00E9'},
                        Case{"\xE2\x82\xAC", U'\u20AC'},
                        Case{"\xF0\x9F\x98\x80", U'\U0001F600'},
                        Case{"\xF4\x8F\xBF\xBF", U'\U0010FFFF'},
                        Case{std::string("\0", 1), U'\0'}}) {
    Char d = Decode(c.bytes + "rest");
    EXPECT_TRUE(d.valid) << c.bytes;
    EXPECT_EQ(d.code_point, c.code_point) << c.bytes;
    EXPECT_EQ(d.size, c.bytes.size()) << c.bytes;
    Char last = DecodeLast("x" + c.bytes);
    EXPECT_TRUE(last.valid) << c.bytes;
    EXPECT_EQ(last.code_point, c.code_point) << c.bytes;
    EXPECT_EQ(last.size, c.bytes.size()) << c.bytes;
    std::string encoded;
    Append(c.code_point, &encoded);
    EXPECT_EQ(encoded, c.bytes);
  }
}

TEST(Utf8Test, IllFormedBytesDecodeAsOneReplacementCharacter) {
  for (const char* bytes :
       {"\x80", "\xBF", "\xC0\x80", "\xC1\xBF", "\xC3", "\xE0\x80\x80",
        "\xED\xA0\x80", "\xE2\x82", "\xF0\x80\x80\x80", "\xF4\x90\x80\x80",
        "\xF5\x80\x80\x80", "\xFF"}) {
    Char d = Decode(bytes);
    EXPECT_FALSE(d.valid) << bytes;
    EXPECT_EQ(d.code_point, kReplacement);
    EXPECT_EQ(d.size, 1u);
    Char last = DecodeLast(std::string("x") + bytes);
    EXPECT_FALSE(last.valid) << bytes;
    EXPECT_EQ(last.size, 1u);
    EXPECT_FALSE(IsValid(bytes)) << bytes;
  }
  // Go's DecodeLastRune: a lone continuation byte after a whole character.
  Char last = DecodeLast("\xC3\xA9\xA9");
  EXPECT_FALSE(last.valid);
  EXPECT_EQ(last.size, 1u);
}

TEST(Utf8Test, Validity) {
  EXPECT_TRUE(IsValid(""));
  EXPECT_TRUE(IsValid("plain ascii"));
  EXPECT_TRUE(IsValid("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
  EXPECT_FALSE(IsValid("caf\xC3"));
  EXPECT_TRUE(IsContinuation('\x80'));
  EXPECT_FALSE(IsContinuation('\xC3'));
  EXPECT_FALSE(IsContinuation('a'));
}

TEST(Utf8Test, CutPointNeverSplitsACharacter) {
  std::string s =
      "ab\xE2\x82\xAC"
      "c";  // a b EURO c
  EXPECT_EQ(CutPoint(s, 0), 0u);
  EXPECT_EQ(CutPoint(s, 2), 2u);
  EXPECT_EQ(CutPoint(s, 3), 2u);
  EXPECT_EQ(CutPoint(s, 4), 2u);
  EXPECT_EQ(CutPoint(s, 5), 5u);
  EXPECT_EQ(CutPoint(s, 99), s.size());
}

}  // namespace
}  // namespace pstate::utf8
