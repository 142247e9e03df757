#include "json/string_codec.h"

#include <gtest/gtest.h>

#include <string>

#include "base/utf8.h"

namespace pstate::json {
namespace {

const std::string kReplacement = "\xEF\xBF\xBD";

TEST(UnescapeTest, SimpleEscapes) {
  EXPECT_EQ(Unescape(""), "");
  EXPECT_EQ(Unescape("plain"), "plain");
  EXPECT_EQ(Unescape(R"(\"\\\/\b\f\n\r\t)"), "\"\\/\b\f\n\r\t");
  EXPECT_EQ(Unescape(R"(a\nb)"), "a\nb");
}

TEST(UnescapeTest, UnicodeEscapes) {
  EXPECT_EQ(Unescape(R"(\u0041)"), "A");
  EXPECT_EQ(Unescape(R"(\u0000)"), std::string("\0", 1));
  EXPECT_EQ(Unescape(R"(\u00e9\u00E9)"), "\xC3\xA9\xC3\xA9");
  EXPECT_EQ(Unescape(R"(\u20ac)"), "\xE2\x82\xAC");
  EXPECT_EQ(Unescape(R"(\uffff)"), "\xEF\xBF\xBF");
}

TEST(UnescapeTest, SurrogatePairs) {
  EXPECT_EQ(Unescape(R"(\ud83d\ude00)"), "\xF0\x9F\x98\x80");
  EXPECT_EQ(Unescape(R"(\uD800\uDC00)"), "\xF0\x90\x80\x80");  // U+10000
  EXPECT_EQ(Unescape(R"(\udbff\udfff)"), "\xF4\x8F\xBF\xBF");  // U+10FFFF
}

TEST(UnescapeTest, LoneSurrogatesBecomeReplacementCharacters) {
  // As Go's encoding/json decodes them.
  EXPECT_EQ(Unescape(R"(\ud83d)"), kReplacement);
  EXPECT_EQ(Unescape(R"(\ude00)"), kReplacement);
  EXPECT_EQ(Unescape(R"(\ud83dx)"), kReplacement + "x");
  EXPECT_EQ(Unescape(R"(\ud83d\u0041)"), kReplacement + "A");
  EXPECT_EQ(Unescape(R"(\ud83d\n)"), kReplacement + "\n");
  EXPECT_EQ(Unescape(R"(\ude00\ud83d)"), kReplacement + kReplacement);
  // A high surrogate followed by a full pair: one replacement, one emoji.
  EXPECT_EQ(Unescape(R"(\ud83d\ud83d\ude00)"),
            kReplacement + "\xF0\x9F\x98\x80");
}

TEST(UnescapeTest, HasLoneSurrogateFindsExactlyWhatUnescapeReplaces) {
  for (const char* lone :
       {R"(\ud83d)", R"(\ude00)", R"(a\ud83dx)", R"(\ud83d\u0041)",
        R"(\ude00\ud83d\ude00)", R"(\ud83d\ud83d\ude00)", R"(\uD800)"}) {
    EXPECT_TRUE(HasLoneSurrogate(lone)) << lone;
  }
  for (const char* kept : {"plain", R"(\ud83d\ude00)", R"(\\ud800)",
                           R"(\ufffd)", R"(\u0041\n\"\\)", ""}) {
    EXPECT_FALSE(HasLoneSurrogate(kept)) << kept;
  }
}

TEST(UnescapeTest, AppendsToExistingText) {
  std::string out = "pre:";
  AppendUnescaped(R"(a\tb)", &out);
  EXPECT_EQ(out, "pre:a\tb");
}

std::string Escaped(std::string_view s,
                    EscapeStyle style = EscapeStyle::kExport) {
  std::string out;
  AppendEscaped(s, &out, style);
  return out;
}

TEST(AppendEscapedTest, GoExportRules) {
  EXPECT_EQ(Escaped("plain text"), "plain text");
  EXPECT_EQ(Escaped("a\"b\\c"), R"(a\"b\\c)");
  EXPECT_EQ(Escaped("\n\r\t"), R"(\n\r\t)");
  // Other control characters as \u00XX with lowercase hex.
  EXPECT_EQ(Escaped(std::string("\0", 1)), R"(\u0000)");
  EXPECT_EQ(Escaped("\x01\x1f\x1b"), R"(\u0001\u001f\u001b)");
  EXPECT_EQ(Escaped("\b\f"), R"(\b\f)");
  // DEL and '/' are not escaped; neither are <, >, & in the export style.
  EXPECT_EQ(Escaped("\x7f/<>&"), "\x7f/<>&");
  // Valid UTF-8 passes through, except U+2028 and U+2029.
  EXPECT_EQ(Escaped("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"),
            "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  EXPECT_EQ(Escaped("a\xE2\x80\xA8"
                    "b\xE2\x80\xA9"),
            R"(a\u2028b\u2029)");
  EXPECT_EQ(Escaped("\xE2\x80\xA7"), "\xE2\x80\xA7");  // U+2027 is fine
}

TEST(AppendEscapedTest, HtmlSafeStyle) {
  EXPECT_EQ(Escaped("<a href=\"x\">&</a>", EscapeStyle::kHtmlSafe),
            R"(\u003ca href=\"x\"\u003e\u0026\u003c/a\u003e)");
  EXPECT_EQ(Escaped("\xE2\x80\xA8\n", EscapeStyle::kHtmlSafe), R"(\u2028\n)");
}

TEST(AppendEscapedTest, InvalidUtf8BytesBecomeReplacementEscapes) {
  // Go replaces each byte that does not start a valid sequence.
  EXPECT_EQ(Escaped("a\xFF"
                    "b"),
            R"(a\ufffdb)");
  EXPECT_EQ(Escaped("\xC0\x80"), R"(\ufffd\ufffd)");            // overlong
  EXPECT_EQ(Escaped("\xED\xA0\x80"), R"(\ufffd\ufffd\ufffd)");  // surrogate
  EXPECT_EQ(Escaped("\xE2\x82"), R"(\ufffd\ufffd)");            // truncated
  EXPECT_EQ(Escaped("\xF4\x90\x80\x80"), R"(\ufffd\ufffd\ufffd\ufffd)");
  EXPECT_EQ(Escaped("x\xC3"), R"(x\ufffd)");
}

TEST(AppendEscapedTest, RoundTripsThroughUnescape) {
  std::string all;
  for (int c = 0; c < 0x80; ++c) all.push_back(static_cast<char>(c));
  all += "\xC3\xA9\xE2\x80\xA8\xF0\x9F\x98\x80";
  for (auto style : {EscapeStyle::kExport, EscapeStyle::kHtmlSafe}) {
    std::string esc = Escaped(all, style);
    EXPECT_EQ(Unescape(esc), all);
    for (char c : esc) {
      EXPECT_GE(static_cast<unsigned char>(c), 0x20) << "raw control byte";
    }
  }
}

TEST(AppendEscapedTest, AppendsToExistingText) {
  std::string out = "\"";
  AppendEscaped("a\nb", &out);
  EXPECT_EQ(out, "\"a\\nb");
}

TEST(Utf8SequenceLengthTest, Lengths) {
  auto len = [](std::string_view s) {
    return utf8::SequenceLength(
        reinterpret_cast<const unsigned char*>(s.data()), s.size());
  };
  EXPECT_EQ(len("a"), 1);
  EXPECT_EQ(len("\xC3\xA9"), 2);
  EXPECT_EQ(len("\xE2\x82\xAC"), 3);
  EXPECT_EQ(len("\xF0\x9F\x98\x80"), 4);
  EXPECT_EQ(len("\xF0\x9F\x98\x80zz"), 4);
  EXPECT_EQ(len("\xC0\x80"), 0);
  EXPECT_EQ(len("\xE2\x82"), 0);  // not enough bytes available
  EXPECT_EQ(len("\x80"), 0);
}

}  // namespace
}  // namespace pstate::json

namespace pstate::json {
namespace {

// AppendCanonical must agree with decoding then escaping, in both styles.
TEST(AppendCanonicalTest, MatchesUnescapeThenEscape) {
  const char* cases[] = {"plain",
                         R"(a\"b\\c\/d)",
                         R"(\n\r\t\b\f)",
                         R"(\u0001\u001F\u007f)",
                         R"(\u003c\u003e\u0026<>&)",
                         R"(\u2028\u2029)",
                         "raw \xE2\x80\xA8 sep",
                         R"(\uD83D\uDE00 pair)",
                         R"(\uD83D lone)",
                         R"(\uDE00 lone low)",
                         R"(\u00e9t\u00E9 caf\u00e9)",
                         "\xC3\xA9\xE5\x90\x8D",
                         R"(end\\)",
                         ""};
  for (const char* text : cases) {
    for (EscapeStyle style : {EscapeStyle::kExport, EscapeStyle::kHtmlSafe}) {
      std::string want;
      AppendEscaped(Unescape(text), &want, style);
      std::string got;
      AppendCanonical(text, &got, style);
      EXPECT_EQ(got, want) << "input: " << text;
    }
  }
}

TEST(AppendCanonicalTest, RandomEscapedTextAgrees) {
  // Build random valid escaped text from pieces and compare the two paths,
  // in both styles. Long plain pieces make runs of sixteen bytes and more,
  // so the vectorized copy and its handover to the byte loop are covered.
  const char* pieces[] = {"a",
                          "Z",
                          "<",
                          ">",
                          "&",
                          R"(\")",
                          R"(\\)",
                          R"(\/)",
                          R"(\n)",
                          R"(\b)",
                          R"(\u0000)",
                          R"(\u001b)",
                          R"(\u00ff)",
                          R"(\u003c)",
                          R"(\u003E)",
                          R"(\u2028)",
                          R"(\ud800)",
                          R"(\udc00)",
                          R"(\ud834\udd1e)",
                          "\xE2\x80\xA9",
                          "\xE2\x82\xAC",
                          "\xF0\x9F\x98\x80",
                          "abcdefghijklmnopqrstuvwxyz0123456789",
                          "{policy: allow, resource: *}",
                          " "};
  unsigned seed = 12345;
  for (int round = 0; round < 4000; ++round) {
    std::string text;
    int n = static_cast<int>(seed % 40);
    for (int i = 0; i < n; ++i) {
      seed = seed * 1103515245u + 12345u;
      text += pieces[(seed >> 16) % (sizeof(pieces) / sizeof(pieces[0]))];
    }
    seed = seed * 1103515245u + 12345u;
    for (EscapeStyle style : {EscapeStyle::kExport, EscapeStyle::kHtmlSafe}) {
      std::string want;
      AppendEscaped(Unescape(text), &want, style);
      std::string got = "prefix";
      AppendCanonical(text, &got, style);
      ASSERT_EQ(got, "prefix" + want) << "input: " << text;
      ASSERT_LE(want.size() + kCanonicalSlack,
                CanonicalBound(text.size(), style));
    }
  }
}

}  // namespace
}  // namespace pstate::json
