// Work bounds of the type languages, asserted by counting work (name
// comparisons, regex retries), never by timing: type-expression parsers
// are linear in the type's size, and a Puppet check's pattern matching is
// bounded by the size of its value, whatever the patterns.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "json/parser.h"
#include "types/name_index.h"
#include "types/puppet.h"
#include "types/puppet_regex.h"
#include "types/registry.h"

namespace pstate::types {
namespace {

constexpr std::size_t kKeys = 20000;

// Parses `type` in `system` and returns the name comparisons it took.
std::uint64_t ParseWork(System system, const std::string& type,
                        bool expect_ok = true) {
  Result<std::unique_ptr<TypeSystem>> language = MakeSystem(system, nullptr);
  EXPECT_TRUE(language.ok());
  json::Arena arena;
  json::Value spec = arena.MakeString(arena.Copy(type));
  std::uint64_t before = NameComparisons();
  Result<std::shared_ptr<const Type>> parsed = (*language)->Parse(spec);
  EXPECT_EQ(parsed.ok(), expect_ok) << parsed.status().message();
  return NameComparisons() - before;
}

std::string Keys(const std::string& open, const std::string& each,
                 const std::string& close, std::size_t n) {
  std::string out = open;
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out += ",";
    out += "a" + std::to_string(i) + each;
  }
  return out + close;
}

// A scan against every earlier key makes n²/2 (200 million) comparisons;
// a hash probe a few per key.
TEST(BoundedWork, ObjectTypeParsersAreLinear) {
  EXPECT_LE(
      ParseWork(System::kPuppet, Keys("Struct[{", "=>String", "}]", kKeys)),
      4 * kKeys);
  EXPECT_LE(ParseWork(System::kPcl, Keys("object({", "=string", "})", kKeys)),
            4 * kKeys);
  EXPECT_LE(
      ParseWork(System::kTerraform, Keys("object({", "=string", "})", kKeys)),
      4 * kKeys);
  // The duplicate is still found.
  EXPECT_LE(ParseWork(System::kPuppet, "Struct[{a=>String,a=>Integer}]", false),
            4u);
  EXPECT_LE(ParseWork(System::kPcl, "object({a=string,a=number})", false), 4u);
  EXPECT_LE(ParseWork(System::kTerraform, "object({a=string,a=number})", false),
            4u);
}

TEST(BoundedWork, ObjectValuesAreCheckedInLinearWork) {
  // A Struct of n keys against an object of n keys, and PCL's typing of an
  // object value (duplicate keys: the last wins).
  std::string value = "{";
  for (std::size_t i = 0; i < kKeys; ++i) {
    if (i > 0) value += ",";
    value += "\"a" + std::to_string(i) + "\":\"x\"";
  }
  value += ",\"a0\":\"y\"}";
  json::Arena arena;
  json::Parser parser;
  json::Value v;
  ASSERT_EQ(parser.ParseDocument(value, 0, arena, &v), json::ParseStatus::kOk);
  for (auto [system, type] :
       {std::pair{System::kPuppet, Keys("Struct[{", "=>String", "}]", kKeys)},
        std::pair{System::kPcl, Keys("object({", "=string", "})", kKeys)}}) {
    Result<std::unique_ptr<TypeSystem>> language = MakeSystem(system, nullptr);
    ASSERT_TRUE(language.ok());
    json::Value spec = arena.MakeString(arena.Copy(type));
    Result<std::shared_ptr<const Type>> t = (*language)->Parse(spec);
    ASSERT_TRUE(t.ok()) << t.status().message();
    std::uint64_t before = NameComparisons();
    Verdict verdict = (*language)->Check(**t, v);
    EXPECT_EQ(verdict.outcome, Outcome::kOk) << verdict.message;
    EXPECT_LE(NameComparisons() - before, 8 * kKeys);
  }
}

// Fuzz finding: a Variant of many patterns over an array of many strings
// spent the whole per-search budget in every search (values × patterns ×
// budget). One budget per check bounds the work by the value's size.
TEST(BoundedWork, OneRegexBudgetPerCheck) {
  std::string type = "Array[Variant[";
  for (int i = 0; i < 100; ++i) type += "Pattern[/^(a|a?)+$/],";
  type += "String]]";
  std::string item = "\"" + std::string(40, 'a') + "!\"";
  std::string value = "[";
  std::uint64_t bytes = 0;
  for (int i = 0; i < 100; ++i) {
    if (i > 0) value += ",";
    value += item;
    bytes += 41 + 1;
  }
  value += "]";
  Result<puppet::TypePtr> t = puppet::ParseType(type);
  ASSERT_TRUE(t.ok()) << t.status().message();
  json::Arena arena;
  json::Parser parser;
  json::Value v;
  ASSERT_EQ(parser.ParseDocument(value, 0, arena, &v), json::ParseStatus::kOk);
  puppet::RegexBudget budget;
  Verdict verdict = puppet::Check(**t, v, budget);
  EXPECT_EQ(verdict.outcome, Outcome::kOk);  // String takes every item
  EXPECT_LE(budget.spent(),
            puppet::RegexBudget::kBase + puppet::RegexBudget::kPerByte * bytes);
  EXPECT_EQ(budget.spent(), budget.granted());  // it ran out, and stopped
}

// Fuzz finding: a backreference compares a whole capture per retry, so a
// retry of such a pattern is charged the subject's length.
TEST(BoundedWork, BackreferenceRetriesCostTheSubjectLength) {
  std::string error;
  std::size_t at = 0;
  std::shared_ptr<const puppet::Regex> re =
      puppet::Regex::Compile(R"(^(a*)\1*\1*\1*c)", &error, &at);
  ASSERT_TRUE(re) << error;
  EXPECT_TRUE(re->backreferences());
  std::string subject(100000, 'a');
  puppet::RegexBudget budget;
  budget.Credit(&subject, subject.size());
  puppet::Regex::Match m = re->Search(subject, budget);
  EXPECT_NE(m, puppet::Regex::Match::kYes);
  EXPECT_LE(budget.spent(), budget.granted());
  // At most granted / length retries ran, each comparing ≤ length bytes.
  EXPECT_LE(budget.spent() / subject.size(),
            (puppet::RegexBudget::kBase +
             puppet::RegexBudget::kPerByte * (subject.size() + 1)) /
                subject.size());
  // A spent budget answers at once, whatever the pattern.
  std::shared_ptr<const puppet::Regex> plain =
      puppet::Regex::Compile("^(a|a?)+$", &error, &at);
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->backreferences());
  puppet::RegexBudget small(100);
  EXPECT_EQ(plain->Search(std::string(40, 'a') + "!", small),
            puppet::Regex::Match::kTooComplex);
  EXPECT_EQ(small.spent(), 100u);
  EXPECT_EQ(plain->Search("a", small), puppet::Regex::Match::kTooComplex);
  EXPECT_EQ(small.spent(), 100u);
  // A search that needs little is charged little.
  puppet::RegexBudget ample;
  EXPECT_EQ(plain->Search("aaa", ample), puppet::Regex::Match::kYes);
  EXPECT_LE(ample.spent(), 64u);
}

}  // namespace
}  // namespace pstate::types
