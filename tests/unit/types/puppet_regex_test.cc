// Puppet patterns through Oniguruma. Every expectation is Ruby's (Onigmo,
// Ruby's default options): `subject =~ /pattern/` is nil or not, or the
// pattern is a SyntaxError. Where pstate differs on purpose (the work
// limit) the test says so.
#include "types/puppet_regex.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "unit/types/check_helpers.h"

namespace pstate::types::puppet {
namespace {

using M = Regex::Match;

M SearchIn(std::string_view pattern, std::string_view subject,
           const Regex::Limits& limits = {}) {
  std::string error;
  std::size_t at = 0;
  std::shared_ptr<const Regex> re = Regex::Compile(pattern, &error, &at);
  EXPECT_TRUE(re) << pattern << ": " << error;
  if (!re) return M::kNo;
  return re->Search(subject, limits);
}

bool Matches(std::string_view pattern, std::string_view subject) {
  return SearchIn(pattern, subject) == M::kYes;
}

std::string CompileError(std::string_view pattern) {
  std::string error;
  std::size_t at = 0;
  std::shared_ptr<const Regex> re = Regex::Compile(pattern, &error, &at);
  EXPECT_FALSE(re) << pattern;
  return error;
}

TEST(PuppetRegex, PossessiveAndAtomic) {
  // A4: the possessive a*+ takes every "a" and never gives one back.
  EXPECT_FALSE(Matches(R"(\Aa*+a\z)", "aaa"));
  EXPECT_TRUE(Matches(R"(\Aa*a\z)", "aaa"));
  EXPECT_FALSE(Matches(R"(\Aa++a)", "aaa"));
  EXPECT_TRUE(Matches(R"(\Aa?+b)", "ab"));
  EXPECT_FALSE(Matches(R"((?>a*)a)", "aaa"));
  EXPECT_FALSE(Matches(R"(\A(?>a|ab)c)", "abc"));
  EXPECT_TRUE(Matches(R"(\A(?:a|ab)c)", "abc"));
  // In Ruby {n,m}+ is not possessive: it is (?:a{1,2})+.
  EXPECT_TRUE(Matches(R"(\Aa{1,2}+a\z)", "aaa"));
  // A fixed interval followed by ? is optional, not lazy.
  EXPECT_TRUE(Matches(R"(\Aa{2}?\z)", ""));
  EXPECT_FALSE(Matches(R"(\Aa{2}?\z)", "a"));
}

TEST(PuppetRegex, AnchorsAndDot) {
  EXPECT_TRUE(Matches("^b", "a\nb"));  // ^ and $ are line anchors
  EXPECT_TRUE(Matches("a$", "a\nb"));
  EXPECT_FALSE(Matches(R"(\Ab)", "a\nb"));
  EXPECT_FALSE(Matches(R"(\Aa\z)", "x\na"));
  EXPECT_TRUE(Matches(R"(a\Z)", "a\n"));
  EXPECT_FALSE(Matches(R"(a\z)", "a\n"));
  EXPECT_FALSE(Matches("a.c", "a\nc"));
  EXPECT_TRUE(Matches("(?m)a.c", "a\nc"));  // Ruby's m: dot matches "\n"
  EXPECT_TRUE(Matches("(?m:a.c)", "a\nc"));
  EXPECT_FALSE(Matches("(?m:a).c", "a\nc"));
}

TEST(PuppetRegex, ClassesAreRubys) {
  EXPECT_TRUE(Matches(R"(\A\h+\z)", "09afAF"));  // \h: hex digit
  EXPECT_FALSE(Matches(R"(\h)", "g"));
  EXPECT_FALSE(Matches(R"(\H)", "f"));
  // \d \w \s are ASCII for UTF-8 strings...
  EXPECT_FALSE(Matches(R"(\w)", "\u00e9"));
  EXPECT_TRUE(Matches(R"(\W)", "\u00e9"));
  EXPECT_FALSE(Matches(R"([\w])", "\u00e9"));
  EXPECT_TRUE(Matches(R"([^\w])", "\u00e9"));
  EXPECT_FALSE(Matches(R"(\d)", "\u0663"));  // ARABIC-INDIC DIGIT THREE
  EXPECT_FALSE(Matches(R"(\s)", "\u00a0"));  // NO-BREAK SPACE
  EXPECT_TRUE(Matches(R"(\A\s+\z)", " \t\n\v\f\r"));
  EXPECT_TRUE(Matches(R"(\A\S\D\W\z)", "x-."));
  EXPECT_TRUE(Matches(R"(\A[\d\s-]+\z)", "1 2-3"));
  EXPECT_TRUE(Matches(R"(\A[-\d]+\z)", "1-2"));
  EXPECT_TRUE(Matches(R"(\A[^-\d]+\z)", "ab"));
  EXPECT_TRUE(Matches(R"(\A[a-c-\d]+\z)", "a-1"));
  EXPECT_TRUE(Matches(R"(\A[\-\d]+\z)", "1-2"));
  // ... unless (?u) asks for Unicode; (?d) is Ruby's default.
  EXPECT_TRUE(Matches(R"((?u)\w)", "\u00e9"));
  EXPECT_TRUE(Matches(R"((?u:\d))", "\u0663"));
  EXPECT_FALSE(Matches(R"((?u:\d)\d)", "\u0663\u0663"));
  EXPECT_FALSE(Matches(R"((?d)\w)", "\u00e9"));
  // ... while \b, POSIX brackets and properties are Unicode.
  EXPECT_FALSE(Matches(R"(caf\b)", "caf\u00e9"));
  EXPECT_TRUE(Matches(R"([[:alpha:]])", "\u00e9"));
  EXPECT_TRUE(Matches(R"([[:digit:]])", "\u0663"));
  EXPECT_TRUE(Matches(R"([[:space:]])", "\u00a0"));
  EXPECT_TRUE(Matches(R"(\A\p{L}+\z)", "\u00e9t\u00e9"));
  EXPECT_TRUE(Matches(R"(\p{Digit})", "\u0663"));
  EXPECT_FALSE(Matches(R"(\p{^L})", "\u00e9"));
  EXPECT_TRUE(Matches(R"(\P{L})", "1"));
  EXPECT_TRUE(Matches(R"(\A[\w&&[^_]]+\z)", "ab1"));
  EXPECT_FALSE(Matches(R"([\w&&[^_]])", "_"));
  EXPECT_TRUE(Matches("[[a]]", "a"));  // a nested class
}

TEST(PuppetRegex, CaseInsensitive) {
  EXPECT_TRUE(Matches("(?i)abc", "ABC"));
  EXPECT_TRUE(Matches("(?i)\u00e9", "\u00c9"));
  EXPECT_TRUE(Matches("(?i)stra\u00dfe", "STRASSE"));
  EXPECT_FALSE(Matches("(?i:a)b", "AB"));
  // Ruby's \w is a character type, not a class: no case folding, so the
  // KELVIN SIGN (which folds to "k") is not a word character.
  EXPECT_FALSE(Matches(R"((?i)\w)", "\u212a"));
  EXPECT_TRUE(Matches(R"((?i)\W)", "\u212a"));
}

TEST(PuppetRegex, GroupsLookaroundAndReferences) {
  EXPECT_TRUE(Matches("(?<=a)b", "ab"));
  EXPECT_FALSE(Matches("(?<=a)b", "cb"));
  EXPECT_FALSE(Matches("(?<!a)b", "ab"));
  EXPECT_TRUE(Matches("a(?=b)", "ab"));
  EXPECT_FALSE(Matches("a(?!b)", "ab"));
  EXPECT_TRUE(Matches(R"((?<y>\d{4})-\k<y>)", "2024-2024"));
  EXPECT_FALSE(Matches(R"((?<y>\d{4})-\k<y>)", "2024-2025"));
  EXPECT_TRUE(Matches(R"((\w)\1)", "xx"));
  EXPECT_FALSE(Matches(R"((\w)\1)", "xy"));
  EXPECT_TRUE(Matches(R"(\A(a)?(?(1)b|c)\z)", "c"));
  EXPECT_TRUE(Matches(R"(\A(a)?(?(1)b|c)\z)", "ab"));
  EXPECT_TRUE(Matches(R"(\A(?<p>\(\g<p>*\))\z)", "(()())"));
  EXPECT_FALSE(Matches(R"(\A(?<p>\(\g<p>*\))\z)", "(()"));
  EXPECT_TRUE(Matches(R"(\A(?~ab)\z)", "aXb"));
  EXPECT_FALSE(Matches(R"(\A(?~ab)\z)", "xaby"));
}

TEST(PuppetRegex, EscapesAndComments) {
  // Unknown escapes are the letter itself in Ruby; Oniguruma would read
  // \y as a text-segment boundary and \o{...} as octal.
  EXPECT_TRUE(Matches(R"(\y)", "y"));
  EXPECT_FALSE(Matches(R"(\y)", "x"));
  EXPECT_TRUE(Matches(R"(\A\o{2}\z)", "oo"));
  EXPECT_TRUE(Matches(R"(\u00e9)", "\u00e9"));
  EXPECT_TRUE(Matches(R"(\u{e9})", "\u00e9"));
  EXPECT_TRUE(Matches(R"(\A\u{61 62}\z)", "ab"));
  EXPECT_TRUE(Matches(R"(\x41\101\cA)", "AA\x01"));
  EXPECT_TRUE(Matches("\\A\\R\\z", "\r\n"));
  // (?x): blanks ignored, '#' to the end of the line is a comment (a '['
  // there opens no class).
  EXPECT_TRUE(Matches("(?x)\\A a \\w # [ not a class\n \\w \\z", "abc"));
  EXPECT_FALSE(Matches("(?x)\\A a \\w # [ not a class\n \\w \\z", "ab\u00e9"));
  EXPECT_TRUE(Matches(R"(\Aa(?#[)\w\z)", "ab"));
  EXPECT_FALSE(Matches(R"(\Aa(?#[)\w\z)", "a\u00e9"));
}

TEST(PuppetRegex, RefusedLikeRuby) {
  EXPECT_NE(CompileError("a(").find("parenthesis"), std::string::npos);
  EXPECT_NE(CompileError("*a").find("target of repeat"), std::string::npos);
  EXPECT_NE(CompileError(R"([\d-z])").find("range"), std::string::npos);
  EXPECT_NE(CompileError(R"([a-\d])").find("range"), std::string::npos);
  EXPECT_NE(CompileError(R"((?<a>x)\1)").find("numbered"), std::string::npos);
  EXPECT_NE(CompileError("(?-u)a").find("option"), std::string::npos);
  EXPECT_NE(CompileError("\xff").find("multibyte"), std::string::npos);
  // What pstate cannot express or Ruby does not have.
  EXPECT_NE(CompileError("(?a)a").find("(?a)"), std::string::npos);
  EXPECT_NE(CompileError("(?~|a)").find("not Ruby's"), std::string::npos);
}

TEST(PuppetRegex, WorkIsBounded) {
  // Catastrophic backtracking stops at the retry limit with no verdict
  // (Ruby 3.2's match cache would answer "no match"; older Rubies run
  // for minutes). The answer is the same at every run.
  std::string subject(40, 'a');
  subject += 'b';
  EXPECT_EQ(SearchIn("(a+)+$", subject), M::kTooComplex);
  EXPECT_EQ(SearchIn("(a+)+$", subject), M::kTooComplex);
  EXPECT_EQ(SearchIn(R"(\A(a|aa)+\z)", subject), M::kTooComplex);
  // The limit is the caller's: a tiny one stops even a plain search, and
  // a definite answer under a small limit stays the answer under a larger.
  Regex::Limits tiny;
  tiny.retries = 1;
  EXPECT_EQ(SearchIn("(a+)+$", "aaaab", tiny), M::kTooComplex);
  Regex::Limits some;
  some.retries = 1000;
  EXPECT_EQ(SearchIn("(a+)+$", "baa", some), M::kYes);
  EXPECT_EQ(SearchIn("(a+)+$", "baa"), M::kYes);
  EXPECT_EQ(SearchIn("(a+)+$", "aab", some), M::kNo);
  EXPECT_EQ(SearchIn("(a+)+$", "aab"), M::kNo);
  // A bounded stack: a long subject a Ruby loop takes in one step per
  // character.
  Regex::Limits shallow;
  shallow.stack = 1000;
  EXPECT_EQ(SearchIn(R"(\A(?:a|b)*\z)", std::string(5000, 'a'), shallow),
            M::kTooComplex);
  EXPECT_EQ(SearchIn(R"(\A(?:a|b)*\z)", std::string(5000, 'a')), M::kYes);
}

TEST(PuppetRegex, InvalidSubject) {
  EXPECT_EQ(SearchIn("a", "a\xff"), M::kInvalidSubject);
  EXPECT_EQ(SearchIn("a", "\xed\xa0\x80"), M::kInvalidSubject);  // surrogate
}

TEST(PuppetRegex, ThroughTheTypeChecker) {
  testing::Checker c(System::kPuppet);
  auto show = [&](std::string_view type, std::string_view value) {
    return testing::Show(c.Run("\"" + std::string(type) + "\"", value));
  };
  EXPECT_EQ(
      show(R"(Pattern[/\\Aa*+a\\z/])", "\"aaa\""),
      R"(error at '': expects a match for Pattern[/\Aa*+a\z/], got "aaa")");
  EXPECT_EQ(show(R"(Pattern[/\\Aa*a\\z/])", "\"aaa\""), "ok");
  std::string catastrophic = "\"" + std::string(40, 'a') + "b\"";
  EXPECT_EQ(show("Pattern[/(a+)+$/]", catastrophic),
            "error at '': the pattern /(a+)+$/ needs too much work on this "
            "value");
}

}  // namespace
}  // namespace pstate::types::puppet
