#include "base/glob.h"

#include <gtest/gtest.h>

namespace pstate {
namespace {

constexpr auto kFold = ascii::Case::kFold;

TEST(GlobTest, StarAndQuestionMark) {
  EXPECT_TRUE(GlobMatch("*", ""));
  EXPECT_TRUE(GlobMatch("*", "anything/at:all"));
  EXPECT_TRUE(GlobMatch("a?c", "abc"));
  EXPECT_FALSE(GlobMatch("a?c", "ac"));
  EXPECT_FALSE(GlobMatch("*key", "keys"));
  EXPECT_TRUE(GlobMatch("*a*b*c", "xxaxxbxxbc"));
  EXPECT_FALSE(GlobMatch("token", "tokens"));
  EXPECT_FALSE(GlobMatch("tokens", "token"));
  EXPECT_TRUE(GlobMatch("aws:*:Bucket", "aws:s3/bucket:Bucket"));
  EXPECT_TRUE(
      GlobMatch("urn:pulumi:*::*::web-*", "urn:pulumi:dev::p::t::web-1"));
  EXPECT_TRUE(GlobMatch("**a", "a"));
  EXPECT_FALSE(GlobMatch("", "a"));
  EXPECT_TRUE(GlobMatch("", ""));
}

TEST(GlobTest, Sets) {
  EXPECT_TRUE(GlobMatch("web-[0-9]", "web-7"));
  EXPECT_FALSE(GlobMatch("web-[0-9]", "web-x"));
  EXPECT_TRUE(GlobMatch("[abc]x", "bx"));
  EXPECT_TRUE(GlobMatch("[!abc]x", "dx"));
  EXPECT_FALSE(GlobMatch("[!abc]x", "ax"));
  EXPECT_TRUE(GlobMatch("[^abc]x", "dx"));
  EXPECT_FALSE(GlobMatch("[^abc]x", "cx"));
  EXPECT_TRUE(GlobMatch("[]]", "]"));
  EXPECT_TRUE(GlobMatch("[!]]", "a"));
  EXPECT_FALSE(GlobMatch("[!]]", "]"));
  EXPECT_TRUE(GlobMatch("[a-]", "-"));
  EXPECT_TRUE(GlobMatch("[-a]", "-"));
  EXPECT_FALSE(GlobMatch("[a-c]", "-"));
  EXPECT_TRUE(GlobMatch("[a-cx-z]", "y"));
  // A '[' without ']' is an ordinary character.
  EXPECT_TRUE(GlobMatch("a[b", "a[b"));
  EXPECT_FALSE(GlobMatch("a[b", "ab"));
  // '*' and '?' inside a set are members.
  EXPECT_TRUE(GlobMatch("[*?]", "?"));
  EXPECT_FALSE(GlobMatch("[*?]", "x"));
}

TEST(GlobTest, Escapes) {
  EXPECT_TRUE(GlobMatch("a\\*b", "a*b"));
  EXPECT_FALSE(GlobMatch("a\\*b", "axb"));
  EXPECT_TRUE(GlobMatch("\\?", "?"));
  EXPECT_FALSE(GlobMatch("\\?", "x"));
  EXPECT_TRUE(GlobMatch("\\[x]", "[x]"));
  EXPECT_TRUE(GlobMatch("a\\\\b", "a\\b"));
  EXPECT_TRUE(GlobMatch("[\\]]", "]"));
  EXPECT_TRUE(GlobMatch("[a\\-z]", "-"));
  EXPECT_FALSE(GlobMatch("[a\\-z]", "m"));
}

TEST(GlobTest, CharactersAreCodePoints) {
  EXPECT_TRUE(GlobMatch("caf?", "caf\xC3\xA9"));
  EXPECT_FALSE(GlobMatch("caf??", "caf\xC3\xA9"));
  EXPECT_TRUE(GlobMatch("[\xC3\xA9\xC3\xA8]t\xC3\xA9", "\xC3\xA8t\xC3\xA9"));
  EXPECT_TRUE(GlobMatch("*\xE2\x82\xAC", "price \xE2\x82\xAC"));
  // An ill-formed byte is one character and matches only itself.
  EXPECT_TRUE(GlobMatch("a?b",
                        "a\xFF"
                        "b"));
  EXPECT_TRUE(
      GlobMatch("a\xFF"
                "b",
                "a\xFF"
                "b"));
  EXPECT_FALSE(
      GlobMatch("a\xFE"
                "b",
                "a\xFF"
                "b"));
}

TEST(GlobTest, CaseFolding) {
  EXPECT_FALSE(GlobMatch("*password*", "dbPassword"));
  EXPECT_TRUE(GlobMatch("*password*", "dbPassword", kFold));
  EXPECT_TRUE(GlobMatch("*PASSWORD*", "password", kFold));
  EXPECT_TRUE(GlobMatch("[a-c]x", "BX", kFold));
  EXPECT_TRUE(GlobMatch("[A-C]x", "bx", kFold));
  EXPECT_FALSE(GlobMatch("[!a-c]x", "Bx", kFold));
  EXPECT_FALSE(GlobMatch("[a-c]x", "Bx"));
  // Only ASCII letters fold.
  EXPECT_FALSE(GlobMatch("\xC3\x89", "\xC3\xA9", kFold));
}

TEST(GlobTest, BacktracksOnlyToTheLastStar) {
  std::string text(2000, 'a');
  EXPECT_FALSE(GlobMatch("*a*a*a*a*a*b", text));
  EXPECT_TRUE(GlobMatch("*a*a*a*a*a*", text));
}

}  // namespace
}  // namespace pstate
