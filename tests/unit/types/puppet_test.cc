// The Puppet type language: syntax (§7.1), JSON to Puppet values (§7.2),
// instance rules (§7.3), assignability (§7.4), the puppet column of §8 and
// §9.2, §9.10, §9.11.
#include "types/puppet.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "json/parser.h"

namespace pstate::types {
namespace {

constexpr std::string_view kSig = "\"4dabf18193072939515e22adb298388d\"";
constexpr std::string_view kUnknown =
    "\"04da6b54-80e4-46f7-96ec-b56ff0331ba9\"";

std::string Expand(std::string text) {
  for (std::size_t at = text.find("SIG"); at != std::string::npos;
       at = text.find("SIG")) {
    text.replace(at, 3, kSig);
  }
  return text;
}

std::string Secret(std::string_view inner_json) {
  std::string out =
      "{SIG:\"1b47061264138c4ac30d75fd1eb44270\",\"plaintext\":\"";
  for (char c : inner_json) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += "\"}";
  return out;
}

class PuppetTest : public ::testing::Test {
 protected:
  const json::Value& Parse(const std::string& text) {
    auto* v = arena_.Allocate<json::Value>(1);
    new (v) json::Value();
    json::Parser parser;
    EXPECT_EQ(parser.ParseDocument(Expand(text), 0, arena_, v),
              json::ParseStatus::kOk)
        << text;
    return *v;
  }

  puppet::TypePtr T(std::string_view text) {
    Result<puppet::TypePtr> t = puppet::ParseType(text);
    EXPECT_TRUE(t.ok()) << text << ": " << t.status().message();
    if (!t.ok()) return puppet::ParseType("Any").value();
    return *t;
  }

  Verdict Check(std::string_view type, const std::string& value) {
    json::Arena spec_arena;
    Result<std::shared_ptr<const Type>> t =
        system_->Parse(spec_arena.MakeString(type));
    EXPECT_TRUE(t.ok()) << type << ": " << t.status().message();
    if (!t.ok()) return ErrorVerdict("", "type did not parse");
    return system_->Check(**t, Parse(value));
  }

  void Ok(std::string_view type, const std::string& value) {
    Verdict r = Check(type, value);
    EXPECT_EQ(r.outcome, Outcome::kOk)
        << type << " <- " << value << ": " << r.message;
  }
  void Err(std::string_view type, const std::string& value,
           std::string_view pointer = "", std::string_view part = "") {
    Verdict r = Check(type, value);
    EXPECT_EQ(r.outcome, Outcome::kError) << type << " <- " << value;
    EXPECT_EQ(r.pointer, pointer) << type << " <- " << value;
    EXPECT_NE(r.message.find(part), std::string::npos)
        << type << " <- " << value << ": " << r.message;
  }
  void SyntaxError(std::string_view type, std::size_t offset) {
    Result<puppet::TypePtr> t = puppet::ParseType(type);
    ASSERT_FALSE(t.ok()) << type;
    EXPECT_EQ(t.status().code(), Errc::kSyntax);
    EXPECT_NE(
        t.status().message().find("at offset " + std::to_string(offset) + " "),
        std::string::npos)
        << type << ": " << t.status().message();
  }
  bool A(std::string_view a, std::string_view b) {
    return puppet::IsAssignable(*T(a), *T(b));
  }

  json::Arena arena_;
  std::unique_ptr<TypeSystem> system_ = MakePuppetSystem();
};

// --- §7.1 syntax -------------------------------------------------------------

TEST_F(PuppetTest, ParsesParameters) {
  EXPECT_EQ(T("Integer[1]")->from, "1");  // a single parameter is the minimum
  EXPECT_FALSE(T("Integer[1]")->to.has_value());
  EXPECT_EQ(T("Integer[default, 5]")->to, "5");
  EXPECT_FALSE(T("Integer[default, 5]")->from.has_value());
  EXPECT_EQ(T("Float[0, 1.5]")->to, "1.5");
  EXPECT_EQ(T("String[1, 3]")->max_size, 3);
  EXPECT_EQ(T("String[Integer[2, 4]]")->min_size, 2);
  EXPECT_EQ(T("Enum['a', 'b', true]")->enum_values.size(), 2u);
  EXPECT_TRUE(T("Enum['a', 'b', true]")->case_insensitive);
  EXPECT_EQ(T("Pattern[/a/, 'b', Regexp[/c/]]")->patterns.size(), 3u);
  EXPECT_EQ(T("Boolean[true]")->boolean, true);
  EXPECT_EQ(T("Array[String, 1, 2]")->elements.size(), 1u);
  EXPECT_EQ(T("Array[1, 2]")->elements.size(), 0u);  // T = Any
  EXPECT_EQ(T("Hash[String, Integer, 1]")->min_size, 1);
  EXPECT_EQ(T("Tuple[String, Integer, 1, default]")->min_size, 1);
  EXPECT_EQ(T("Struct[{a => String, Optional['b'] => Integer, "
              "NotUndef['c'] => Any}]")
                ->members.size(),
            3u);
  EXPECT_EQ(T("Optional['abc']")->elements[0]->value, "abc");
  EXPECT_EQ(T("Variant[String, Integer]")->elements.size(), 2u);
  EXPECT_EQ(T("Callable[Integer]")->kind, puppet::Kind::kCallable);
  EXPECT_EQ(T("Sensitive[String]")->kind, puppet::Kind::kSensitive);
  EXPECT_EQ(T("Unit")->kind, puppet::Kind::kUnit);
  EXPECT_EQ(T(" Array [ String ] ")->text, "Array[String]");
  EXPECT_EQ(T("Collection[1]")->min_size, 1);
  EXPECT_EQ(T("Integer[-5, -1]")->from, "-5");
}

TEST_F(PuppetTest, SyntaxErrorsSayWhere) {
  SyntaxError("string", 0);
  SyntaxError("Array[String", 12);
  SyntaxError("Integer[5, 1]", 8);  // from > to: ArgumentError
  SyntaxError("Integer[1.5]", 8);
  SyntaxError("Float[1, 'x']", 9);
  SyntaxError("Struct[{a => 1}]", 13);
  SyntaxError("Struct[{a => String, 'a' => Integer}]", 21);
  SyntaxError("Pattern[/a(/]", 9);  // Oniguruma gives no position
  SyntaxError("Pattern[/(?<=a/]", 9);
  SyntaxError("Any[1]", 4);
  SyntaxError("Array[String] x", 14);
  SyntaxError("Hash[String]", 5);
  json::Arena arena;
  Result<std::shared_ptr<const Type>> t =
      system_->Parse(arena.MakeString("Array[String"));
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("at offset 12"), std::string::npos);
  json::Value not_a_string;
  EXPECT_FALSE(system_->Parse(not_a_string).ok());
}

// --- §7.2 and §7.3 ----------------------------------------------------------

TEST_F(PuppetTest, IntegerAndFloatByToken) {
  Ok("Integer", "1");
  Err("Integer", "1.0", "", "expects Integer, got Float");
  Err("Integer", "10.0");  // a Float never matches Integer
  Err("Integer", "1e3");
  Ok("Float", "1.0");
  Ok("Float", "1e3");
  Err("Float", "1", "", "expects Float, got Integer");
  Ok("Numeric", "1");
  Ok("Numeric", "1.5");
  Err("Numeric", "\"1\"", "", "got String");
  // Bignums are Integers and the range is unbounded (§9.10).
  Ok("Integer", "123456789012345678901234567890");
  Ok("Integer", "9007199254740993");  // §8: 2^53+1 is an Integer
  Ok("Integer[0, 10]", "10");
  Ok("Integer[0, 10]", "0");
  Err("Integer[0, 10]", "11", "", "out of range");
  Err("Integer[0, 10]", "-1");
  Ok("Integer[1]", "1000000");  // one parameter = the minimum (§9.10)
  Err("Integer[1]", "0");
  Ok("Float[0.5, 1]", "0.75");
  Err("Float[0.5, 1]", "1.25");
  Ok("Numeric[0, 1]", "1");
  Err("Numeric[0, 1]", "1.5");
}

TEST_F(PuppetTest, Strings) {
  Ok("String", "\"\"");
  Ok("String[1]", "\"a\"");  // at least one character (§9.10)
  Err("String[1]", "\"\"", "", "at least 1");
  Ok("String[1, 1]", "\"\\ud83d\\ude00\"");              // one code point
  Err("String[1, 1]", "\"e\\u0301\"", "", "at most 1");  // two
  Err("String", "1", "", "expects String, got Integer");
  Err("String", "null", "", "got Undef");
  Ok("Enum['a', 'b']", "\"b\"");
  Err("Enum['a', 'b']", "\"c\"", "", "expects a match for Enum['a', 'b']");
  Err("Enum['a']", "\"A\"");
  Ok("Enum['a', true]", "\"A\"");  // casecmp
  Err("Enum", "\"a\"");            // no values: matches nothing (§9.10)
  Ok("Optional['abc']", "\"abc\"");
  Err("Optional['abc']", "\"abd\"");
  Ok("Optional['abc']", "null");
}

TEST_F(PuppetTest, Patterns) {
  Ok("Pattern", "\"anything\"");
  Ok("Pattern[/b/]", "\"abc\"");  // unanchored
  Err("Pattern[/^b/]", "\"abc\"", "", "expects a match for Pattern[/^b/]");
  Ok("Pattern[/^a$/]", "\"x\\na\"");  // line anchors
  Err("Pattern[/\\Aa\\z/]", "\"x\\na\"");
  Ok("Pattern[/\\Aa\\z/]", "\"a\"");
  Ok("Pattern['^[0-9]+$']", "\"123\"");
  Ok("Pattern[/x/, /y/]", "\"y\"");
  Ok("Pattern[/(?i)abc/]", "\"ABC\"");
  Ok("Pattern[/\\h+/]", "\"ff\"");  // \h is a hex digit in Ruby
  Ok("Pattern[/^(a|b)+c{2}$/]", "\"abacc\"");
  Ok("Pattern[/(\\w)\\1/]", "\"xx\"");
  Err("Pattern[/(\\w)\\1/]", "\"xy\"");
  Ok("Pattern[/a(?=b)/]", "\"ab\"");
  Err("Pattern[/a(?!b)/]", "\"ab\"");
  Err("Pattern[/a/]", "1");
  // The work is bounded: a catastrophic pattern is an error, not a hang.
  Verdict r = Check("Pattern[/(a+)+$/]", "\"" + std::string(40, 'a') + "b\"");
  EXPECT_EQ(r.outcome, Outcome::kError);
  EXPECT_NE(r.message.find("needs too much work"), std::string::npos);
}

TEST_F(PuppetTest, RegexSemantics) {
  Ok("Pattern[/a.c/]", "\"xabcx\"");
  Err("Pattern[/a.c/]", "\"a\\nc\"");     // . does not match a newline
  Ok("Pattern[/(?m)a.c/]", "\"a\\nc\"");  // Ruby's m: dot matches newline
  Ok("Pattern[/^\\d{2,3}$/]", "\"12\"");
  Err("Pattern[/^\\d{2,3}$/]", "\"1234\"");
  Err("Pattern[/[^a-c]/]", "\"abc\"");
  Ok("Pattern[/[^a-c]/]", "\"abcd\"");
  Ok("Pattern[/a$/]", "\"a\\nb\"");  // $ is a line anchor
  Ok("Pattern[/a\\Z/]", "\"a\\n\"");
  Ok("Pattern[/(a*)*$/]", "\"b\"");  // empty loops terminate
  Ok("Pattern[/\u00e9+/]", "\"\u00e9\u00e9\"");
  Ok("Pattern[/x{1,}?y/]", "\"xxy\"");
  Ok("Pattern[/[[:alpha:]]+[[:digit:]]/]", "\"ab1\"");
  Ok("Pattern[/\\bword\\b/]", "\"a word here\"");
  Err("Pattern[/\\bword\\b/]", "\"swordfish\"");
  // Ruby has lookbehind, properties and nested classes.
  Ok("Pattern[/(?<=a)b/]", "\"ab\"");
  Ok("Pattern[/\\p{Alpha}/]", "\"\u00e9\"");
  Ok("Pattern[/[[a]]/]", "\"a\"");
  SyntaxError("Pattern[/*a/]", 9);
  SyntaxError("Pattern['(?a)x']", 11);  // the offset of 'a'
}

TEST_F(PuppetTest, ScalarsBooleansUndef) {
  Ok("Boolean", "true");
  Ok("Boolean[true]", "true");
  Err("Boolean[true]", "false");
  Err("Boolean", "\"true\"");  // §8: no conversions in Puppet
  Ok("Undef", "null");
  Err("Undef", "0");
  Ok("Any", "null");
  Ok("Unit", "[1]");
  Err("Default", "\"default\"");
  Err("Callable", "\"x\"");
  Ok("Scalar", "\"s\"");
  Ok("Scalar", "1.5");
  Err("Scalar", "null");
  Err("Scalar", "[]");
  Err("Scalar", "{}");
  Ok("ScalarData", "true");
  Err("ScalarData", "null");
  Ok("NotUndef", "0");
  Err("NotUndef", "null", "", "got Undef");
  Ok("NotUndef[Optional[String]]", "\"s\"");
  Err("NotUndef[Optional[String]]", "null");
  Ok("Optional[Integer]", "null");
  Err("Optional[Integer]", "\"1\"");
  Ok("Variant[String, Integer]", "1");
  Err("Variant[String, Integer]", "1.5", "", "expects Variant");
}

TEST_F(PuppetTest, ArraysHashesTuples) {
  Ok("Array[String]", "[\"a\", \"b\"]");
  Err("Array[String]", "[\"a\", null]", "/1", "got Undef");  // §8
  Ok("Array[Optional[String]]", "[\"a\", null]");
  Err("Array[String, 1]", "[]", "", "at least 1");
  Err("Array[Integer, 0, 1]", "[1, 2]", "", "at most 1");
  Ok("Array[1, 2]", "[null]");
  Err("Array", "{}");
  Ok("Hash[String, Integer]", "{\"a\": 1}");
  Err("Hash[String, Integer]", "{\"a\": \"1\"}", "/a", "expects Integer");
  Err("Hash[Enum['a'], Integer]", "{\"b\": 1}", "/b", "the key");
  Err("Hash[String, Integer, 1]", "{}", "", "at least 1");
  Ok("Tuple[String, Integer]", "[\"a\", 1]");
  Err("Tuple[String, Integer]", "[\"a\"]", "", "at least 2");  // §8
  Err("Tuple[String, Integer]", "[\"a\", 1, 2]", "", "at most 2");
  Ok("Tuple[String, Integer, 1, default]", "[\"a\", 1, 2, 3]");  // last type
  Err("Tuple[String, Integer, 1, default]", "[\"a\", 1, \"x\"]", "/2");
  Ok("Tuple[String, 1]", "[\"a\", \"b\"]");
  Ok("Collection[1, 2]", "{\"a\": 1}");
  Err("Collection[1, 2]", "[]");
  Err("Collection", "\"s\"");
}

TEST_F(PuppetTest, Structs) {
  const std::string_view t = "Struct[{a => String, b => Optional[Integer]}]";
  Ok(t, "{\"a\": \"x\"}");  // b may be missing: its type accepts undef
  Ok(t, "{\"a\": \"x\", \"b\": null}");
  Err(t, "{\"b\": 1}", "", "expects a value for key 'a'");           // §8
  Err(t, "{\"a\": \"x\", \"c\": 1}", "/c", "unrecognized key 'c'");  // §8
  Err(t, "{\"a\": 1}", "/a", "expects String");
  Ok("Struct[{Optional['a'] => String}]", "{}");
  Err("Struct[{Optional['a'] => String}]", "{\"a\": null}", "/a");
  Err("Struct[{NotUndef['a'] => Optional[String]}]", "{}", "", "key 'a'");
  Ok("Struct[{NotUndef['a'] => Optional[String]}]", "{\"a\": null}");
  Err("Struct[{a => String}]", "[]", "", "expects Struct");
}

TEST_F(PuppetTest, DataAlias) {
  Ok("Data", "{\"a\": [1, 2.5, \"x\", null, true, {\"b\": []}]}");
  Err("Data", Secret("\"x\""), "", "got Sensitive");
  Err("Data", "{\"a\": [" + Secret("1") + "]}", "/a/0");
}

TEST_F(PuppetTest, SecretsAreSensitive) {
  Ok("Sensitive[String]", Secret("\"x\""));
  Ok("Sensitive", Secret("[1]"));
  Err("Sensitive[Integer]", Secret("\"hunter2\""), "", "inside a secret");
  Err("String", Secret("\"x\""), "", "got Sensitive");  // §8
  Ok("Any", Secret("\"x\""));
  Ok("Optional[Sensitive[String]]", Secret("\"x\""));
  Err("Sensitive[String]", "\"x\"", "", "got String");
  // Ciphertext only: any Sensitive accepts it (§9.8).
  const std::string cipher =
      "{SIG:\"1b47061264138c4ac30d75fd1eb44270\",\"ciphertext\":\"v1:x\"}";
  Ok("Sensitive[Integer]", cipher);
  Err("Integer", cipher);
}

TEST_F(PuppetTest, ErrorsInsideSecretsDoNotQuoteThePlaintext) {
  Verdict r = Check("Sensitive[Enum['a']]", Secret("\"hunter2\""));
  EXPECT_EQ(r.outcome, Outcome::kError);
  EXPECT_EQ(r.message.find("hunter2"), std::string::npos) << r.message;
  r = Check("Sensitive[Struct[{a => Integer}]]", Secret("{\"hunter2\": 1}"));
  EXPECT_EQ(r.outcome, Outcome::kError);
  EXPECT_EQ(r.message.find("hunter2"), std::string::npos) << r.message;
  EXPECT_EQ(r.pointer.find("hunter2"), std::string::npos) << r.pointer;
  r = Check("Sensitive[Array[Integer[0, 5]]]", Secret("[1, 77777]"));
  EXPECT_EQ(r.pointer, "/1");
  EXPECT_EQ(r.message.find("77777"), std::string::npos) << r.message;
}

TEST_F(PuppetTest, StateEncodingsArePlainHashes) {
  const std::string asset =
      "{SIG:\"c44067f5952c0a294b673a41bacd8c17\",\"text\":\"hi\"}";
  Err("String", asset, "", "got Hash");  // §8
  Ok("Hash[String, String]", asset);
  Ok("Hash", "{SIG:\"5cf8f73096256a8f31e491e813e4eb8e\",\"urn\":\"u\"}");
  Err("Any", "{SIG:\"d0e6a833031e9bbcd3f4e8bde6ca49a4\"}", "",
      "unrecognized signature");
}

TEST_F(PuppetTest, UnknownsAreOk) {  // §1.4, §9.11 (a pstate rule)
  for (std::string_view t : {"Integer", "Undef", "Struct[{a => String}]",
                             "Enum['x']", "Sensitive[String]"}) {
    Ok(t, std::string(kUnknown));
  }
  Ok("Array[Integer]", "[1, " + std::string(kUnknown) + "]");
}

// --- §7.4 assignability
// --------------------------------------------------------

TEST_F(PuppetTest, Assignability) {
  EXPECT_TRUE(A("Integer[0, 10]", "Integer[2, 5]"));
  EXPECT_FALSE(A("Integer[2, 5]", "Integer[0, 10]"));
  EXPECT_TRUE(A("Integer", "Integer[2, 5]"));
  EXPECT_FALSE(A("Float", "Integer"));
  EXPECT_FALSE(A("Integer", "Float"));
  EXPECT_TRUE(A("Numeric", "Integer"));
  EXPECT_TRUE(A("Numeric", "Float"));
  EXPECT_TRUE(A("ScalarData", "Integer"));
  EXPECT_FALSE(A("Scalar", "Data"));
  EXPECT_TRUE(A("String[1, 3]", "Enum['ab', 'abc']"));
  EXPECT_FALSE(A("String[1, 2]", "Enum['ab', 'abc']"));
  EXPECT_TRUE(A("String", "Pattern[/a/]"));
  EXPECT_TRUE(A("String", "Enum['a']"));
  EXPECT_TRUE(A("Enum", "String"));  // permissive type relation (§9.10)
  EXPECT_TRUE(A("Enum", "Enum['a']"));
  EXPECT_TRUE(A("Enum", "Pattern[/a/]"));
  EXPECT_TRUE(A("Enum['a', 'b']", "Enum['a']"));
  EXPECT_FALSE(A("Enum['a']", "Enum['a', 'b']"));
  EXPECT_FALSE(A("Enum['a']", "String"));
  EXPECT_TRUE(A("Pattern[/^a/]", "Enum['ab', 'ac']"));
  EXPECT_FALSE(A("Pattern[/^a/]", "Enum['ab', 'bc']"));
  EXPECT_TRUE(A("Array[Integer]", "Tuple[Integer, Integer]"));
  EXPECT_FALSE(A("Array[Integer]", "Array[Any]"));
  EXPECT_FALSE(A("Tuple[Integer, 1]", "Array[Integer]"));
  EXPECT_TRUE(A("Hash[String, Integer]", "Struct[{a => Integer}]"));
  EXPECT_FALSE(A("Struct[{a => Integer}]", "Hash[String, Integer]"));
  EXPECT_TRUE(A("Struct[{a => Integer}]", "Hash[String, Integer, 1, 1]"));
  EXPECT_TRUE(A("Optional[String]", "Undef"));
  EXPECT_TRUE(A("Optional[String]", "String"));
  EXPECT_FALSE(A("String", "Optional[String]"));
  EXPECT_TRUE(A("NotUndef[Optional[String]]", "String"));
  EXPECT_FALSE(A("NotUndef[Optional[String]]", "Undef"));
  EXPECT_TRUE(A("Data", "Undef"));
  EXPECT_TRUE(A("Data", "Hash[String, Integer]"));
  EXPECT_FALSE(A("Data", "Hash[Integer, Integer]"));
  EXPECT_TRUE(A("Variant[String, Integer]", "Integer"));
  EXPECT_FALSE(A("Variant[String, Integer]", "Float"));
  EXPECT_TRUE(A("Boolean", "Boolean[true]"));
  EXPECT_FALSE(A("Boolean[true]", "Boolean"));
  EXPECT_TRUE(A("Callable[Integer]", "Callable[Numeric]"));
  EXPECT_FALSE(A("Callable[Numeric]", "Callable[Integer]"));
  EXPECT_TRUE(A("Any", "Callable"));
  EXPECT_TRUE(A("Unit", "String"));
  EXPECT_TRUE(A("String", "Unit"));
  EXPECT_TRUE(A("Sensitive[Any]", "Sensitive[String]"));
}

// --- §8, the puppet column ------------------------------------------------

TEST_F(PuppetTest, SideBySideColumn) {
  Err("Integer", "\"42\"");
  Err("String", "42");
  Err("Boolean", "\"true\"");
  Err("Struct[{a => Integer}]", "{\"a\": 1, \"b\": 2}", "/b");
  Err("Struct[{a => Integer, b => Integer}]", "{\"a\": 1}");
  Err("Array[String]", "[\"a\", null]", "/1");
  Err("Tuple[Integer, Integer]", "[1]");
  Ok("Integer", "9007199254740993");
  Err("String", Secret("\"s\""));
  Ok("String", std::string(kUnknown));
  Err("String", "{SIG:\"c44067f5952c0a294b673a41bacd8c17\",\"text\":\"x\"}");
  // No Puppet case is a conversion.
  EXPECT_NE(Check("Integer", "1").outcome, Outcome::kConvert);
}

// Every type name of lib/puppet/pops/types/ parses (type_parser.rb
// type_map, looked up lower-cased); those whose instances are Ruby objects
// reject every JSON value with "expects ..., got ...".
TEST_F(PuppetTest, EveryTypeNameParses) {
  for (std::string_view type :
       {"Type",
        "Type[Integer]",
        "Runtime['ruby', 'Time']",
        "Class",
        "Class['apache']",
        "Resource",
        "Resource['file', '/tmp/x']",
        "CatalogEntry",
        "Iterator",
        "Iterator[String]",
        "SemVer",
        "SemVer['>=1.0.0']",
        "SemVerRange",
        "Timespan",
        "Timespan['0-00:00:00', '1-00:00:00']",
        "Timestamp",
        "Timestamp['2014-12-01T13:15:00']",
        "Binary",
        "URI",
        "URI['http://example.com']",
        "URI[{scheme => 'http'}]",
        "Object",
        "Object[{attributes => {a => String}, equality => [a]}]",
        "TypeSet",
        "TypeSet[{pcore_version => '1.0.0', types => {}}]",
        "Error",
        "Deferred",
        "Task",
        "Callable[[String], Integer]"}) {
    Err(type, "\"x\"", "", "expects");
    Err(type, "{}", "", "expects");
    Err(type, "null", "", "expects");
  }
  Err("Type[Integer]", "1", "", "expects Type[Integer], got Integer");
  Err("SemVer", "\"1.0.0\"", "", "expects SemVer, got String");
  // Names are case-insensitive after the capital, as in Puppet, and print
  // in Puppet's spelling.
  Err("SEMVERRANGE", "1", "", "expects SemVerRange, got Integer");
}

// Types print back in Puppet's canonical spelling (type_formatter.rb),
// which reparses to the same spelling.
TEST_F(PuppetTest, CanonicalSpelling) {
  const std::pair<std::string_view, std::string_view> kCases[] = {
      {"Integer[0,10]", "Integer[0, 10]"},
      {"Integer[1]", "Integer[1]"},
      {"Integer[default, 5]", "Integer[default, 5]"},
      {"Integer[default, default]", "Integer"},
      {"Float[1, 2.5]", "Float[1.0, 2.5]"},
      {"String[1]", "String[1]"},
      {"String[Integer[2, 4]]", "String[2, 4]"},
      {"Enum[a, \"b\", true]", "Enum['a', 'b', true]"},
      {"Pattern['a/b', /c/]", "Pattern[/a\\/b/, /c/]"},
      {"Array", "Array"},
      {"Array[1]", "Array[Any, 1]"},
      {"Array[String,1,2]", "Array[String, 1, 2]"},
      {"Array[String, 0, 0]", "Array[0, 0]"},
      {"Hash[String,Integer]", "Hash[String, Integer]"},
      {"Tuple[String, Integer, 1]", "Tuple[String, Integer, 1]"},
      {"Struct[{a=>String, Optional['b']=>Integer, NotUndef[c] => Any}]",
       "Struct[{'a' => String, Optional['b'] => Integer, NotUndef['c'] => "
       "Any}]"},
      {"Optional['it\\'s']", "Optional['it\\'s']"},
      {"Optional[String]", "Optional[String]"},
      {"Variant[String,Integer]", "Variant[String, Integer]"},
      {"Init[Integer,16]", "Init[Integer, 16]"},
      {"SEMVER", "SemVer"},
      // The types whose parameters are Ruby data (type_formatter.rb
      // append_strings: canonical types, single-quoted strings).
      // type_formatter_spec.rb "should yield 'Type[Runtime[ruby, Puppet]]'
      // for the Puppet module": the runtime is a Symbol.
      {"Runtime[ruby,\"Foo\"]", "Runtime[ruby, 'Foo']"},
      {"Runtime['ruby', [/^Foo/, 'Bar']]", "Runtime[ruby, [/^Foo/, 'Bar']]"},
      {"Runtime['a b', 'Foo']", "Runtime['a b', 'Foo']"},
      {"SemVer[\">=1.0.0 <2.0.0\",'3.x']", "SemVer['>=1.0.0 <2.0.0', '3.x']"},
      {"SemVerRange", "SemVerRange"},
      {"Timespan[default,\"1-00:00:00\"]", "Timespan[default, '1-00:00:00.0']"},
      {"Timespan[0, default]", "Timespan['0-00:00:00.0']"},
      {"Timespan[default, default]", "Timespan"},
      {"Timestamp['2016-01-01',1500000000]",
       "Timestamp['2016-01-01T00:00:00.000000000 UTC', "
       "'2017-07-14T02:40:00.000000000 UTC']"},
      {"Callable[String,Integer[0,5],1,2]",
       "Callable[String, Integer[0, 5], 1, 2]"},
      {"Callable[[String],Integer]", "Callable[[String], Integer]"},
      // string_PObjectType: a named Object prints by its name.
      {"Object[{name=>'Foo',attributes=>{a=>Integer[1,2]}}]", "Foo"},
      {"Object[{attributes=>{a=>Integer[1,2]}}]",
       "Object[{'attributes' => {'a' => Integer[1, 2]}}]"},
      {"Object", "Object"},
      {"Error", "Error"},
      {"Binary", "Binary"},
      {"URI[{scheme=>'http'}]", "URI[{'scheme' => 'http'}]"},
      // p_uri_type_spec.rb "presents parsable string form".
      {"URI['https://user:password@www.example.com:3000/some/path?x=y#frag']",
       "URI[{'scheme' => 'https', 'userinfo' => 'user:password', 'host' => "
       "'www.example.com', 'port' => '3000', 'path' => '/some/path', 'query' "
       "=> 'x=y', 'fragment' => 'frag'}]"},
      {"URI['urn:a:b:c']", "URI[{'scheme' => 'urn', 'opaque' => 'a:b:c'}]"},
      {"URI[{scheme => Enum[http, https], path => /^\\/a/}]",
       "URI[{'scheme' => Enum['http', 'https'], 'path' => Pattern[/^\\/a/]}]"},
      // Builtin aliases print by name (format_type_alias_type).
      {"RichDataKey", "RichDataKey"},
      {"Hash[RichDataKey,RichData]", "Hash[RichDataKey, RichData]"},
      {"Sensitive[String[1]]", "Sensitive[String[1]]"},
      {"Boolean[true]", "Boolean[true]"},
  };
  for (const auto& [written, canonical] : kCases) {
    puppet::TypePtr t = T(written);
    EXPECT_EQ(t->text, canonical) << written;
    EXPECT_EQ(T(t->text)->text, t->text) << written;
  }
  Err("Integer[0,10]", "11", "", "expects Integer[0, 10], got Integer 11");
}

// Timespan and Timestamp bounds print as Puppet prints the Time::Timespan
// and Time::Timestamp values convert_arg makes of them (to_s in the first
// default format), a `to` equal to `from` left out (type_formatter.rb
// string_PTimespanType, string_PTimestampType).
TEST_F(PuppetTest, TimeBoundsPrintAsPuppet) {
  const std::pair<std::string_view, std::string_view> kCases[] = {
      // type_formatter_spec.rb "should yield 'Timespan[{hours => 1}] ...",
      // with the bound written as seconds or a string.
      {"Timespan[3600]", "Timespan['0-01:00:00.0']"},
      {"Timespan[default, '02:00:00']", "Timespan[default, '0-02:00:00.0']"},
      {"Timespan['01:00:00', 7200]",
       "Timespan['0-01:00:00.0', '0-02:00:00.0']"},
      // p_timespan_type_spec.rb "can be created from a string": the type of
      // Timespan('3-11:00') is Timespan['3-11:00:00.0'] (from = to).
      {"Timespan['3-11:00', '3-11:00']", "Timespan['3-11:00:00.0']"},
      {"Timespan['3-11:00', 298800]", "Timespan['3-11:00:00.0']"},
      {"Timespan[-90061.5]", "Timespan['-1-01:01:01.5']"},
      {"Timespan[1.5, 2.25]", "Timespan['0-00:00:01.5', '0-00:00:02.25']"},
      // Puppet would print '.5' for 0.05 s, which reads back as 0.5 s.
      {"Timespan['0.05', '0.5']", "Timespan['0-00:00:00.05', '0-00:00:00.5']"},
      // type_formatter_spec.rb "should yield
      // 'Timestamp['2016-09-05T13:00:00.000
      // UTC'] for PTimestampType[Timestamp]" and its siblings.
      {"Timestamp['2016-09-05T13:00:00.000 UTC']",
       "Timestamp['2016-09-05T13:00:00.000000000 UTC']"},
      {"Timestamp[default, '2016-09-05T13:00:00.000 UTC']",
       "Timestamp[default, '2016-09-05T13:00:00.000000000 UTC']"},
      {"Timestamp['2016-09-05T13:00:00.000 UTC', '2016-12-01T00:00:00.000 "
       "UTC']",
       "Timestamp['2016-09-05T13:00:00.000000000 UTC', "
       "'2016-12-01T00:00:00.000000000 UTC']"},
      // p_timestamp_type_spec.rb "can be created from a string": the type of
      // Timestamp('2015-03-01') prints with nine fraction digits.
      {"Timestamp['2015-03-01', '2015-03-01 00:00:00 Z']",
       "Timestamp['2015-03-01T00:00:00.000000000 UTC']"},
      {"Timestamp['2016-08-28 05:00:00 +05:00']",
       "Timestamp['2016-08-28T00:00:00.000000000 UTC']"},
      {"Timestamp[0]", "Timestamp['1970-01-01T00:00:00.000000000 UTC']"},
      {"Timestamp[-0.5]", "Timestamp['1969-12-31T23:59:59.500000000 UTC']"},
      // Years before 1 print as strftime's %Y prints them, and read back.
      {"Timestamp[-62167219200]",
       "Timestamp['0000-01-01T00:00:00.000000000 UTC']"},
      {"Timestamp[-62198755200]",
       "Timestamp['-0001-01-01T00:00:00.000000000 UTC']"},
      {"Timestamp['-0001-01-01']",
       "Timestamp['-0001-01-01T00:00:00.000000000 UTC']"},
      // Beyond the years and days the default formats read here (11 and
      // 12 digits), a bound keeps the number it was written as.
      {"Timestamp[1e300]", "Timestamp[1e300]"},
      {"Timespan[100000000000000000000]", "Timespan[100000000000000000000]"},
  };
  for (const auto& [written, canonical] : kCases) {
    puppet::TypePtr t = T(written);
    EXPECT_EQ(t->text, canonical) << written;
    EXPECT_EQ(T(t->text)->text, t->text) << written;
  }
  // The printed bounds are the same bounds.
  EXPECT_TRUE(puppet::IsAssignable(*T("Timespan[1.5, 2.25]"),
                                   *T("Timespan['0-00:00:01.5', "
                                      "'0-00:00:02.25']")));
  EXPECT_TRUE(puppet::IsAssignable(*T("Timespan['0-00:00:01.5', "
                                      "'0-00:00:02.25']"),
                                   *T("Timespan[1.5, 2.25]")));
}

// p_object_type.rb _assignable?: Object ⊒ every Object type; otherwise
// o or one of its parents must equal t (eql?: name, parent, attributes,
// functions, equality, checks; hashes compared without regard to order).
// p_runtime_type.rb _assignable?: the same runtime, then an open name, the
// same name or pattern (Ruby class ancestry is not known here).
TEST_F(PuppetTest, ObjectAndRuntimeAssignability) {
  const std::string foo =
      "Object[{name => 'Foo', attributes => {a => Integer, b => String}}]";
  const std::string foo_reordered =
      "Object[{attributes => {b => {type => String}, a => Integer}, "
      "name => 'Foo'}]";
  const std::string bar = "Object[{name => 'Bar', parent => " + foo + "}]";
  const std::string baz = "Object[{name => 'Baz', parent => " + bar + "}]";
  EXPECT_TRUE(A(foo, foo_reordered));
  EXPECT_TRUE(A(foo_reordered, foo));
  EXPECT_TRUE(A(foo, bar));
  EXPECT_TRUE(A(foo, baz));
  EXPECT_TRUE(A(bar, baz));
  EXPECT_FALSE(A(bar, foo));
  EXPECT_FALSE(A(baz, bar));
  EXPECT_TRUE(A("Object", baz));
  EXPECT_FALSE(A(baz, "Object"));
  // The same name with another definition is another type.
  EXPECT_FALSE(A(foo, "Object[{name => 'Foo', attributes => {a => Integer}}]"));
  EXPECT_FALSE(A(foo, "Object[{name => 'Foo'}]"));
  EXPECT_TRUE(A("Error", "Error"));
  EXPECT_FALSE(A("Error", "Deferred"));
  EXPECT_FALSE(A(foo, "Runtime[ruby, 'Foo']"));
  // Named Objects print by name; names that would read back as another
  // spelling keep the definition.
  EXPECT_EQ(T(baz)->text, "Baz");
  EXPECT_EQ(T("Object[{name => 'Semver'}]")->text,
            "Object[{'name' => 'Semver'}]");
  Err(foo, "{\"a\": 1, \"b\": \"x\"}", "", "expects Foo, got Hash");
  SyntaxError("Object[{name => 'foo'}]", 16);
  SyntaxError("Object[{name => 'Foo::bar'}]", 16);
  SyntaxError("Object[{name => 1}]", 16);

  EXPECT_TRUE(A("Runtime", "Runtime[ruby, 'Foo']"));
  EXPECT_TRUE(A("Runtime[ruby, 'Foo']", "Runtime['ruby', \"Foo\"]"));
  EXPECT_FALSE(A("Runtime[ruby, 'Foo']", "Runtime[ruby, 'Bar']"));
  EXPECT_FALSE(A("Runtime[ruby, 'Foo']", "Runtime[go, 'Foo']"));
  EXPECT_FALSE(A("Runtime[ruby, 'Foo']", "Runtime"));
  EXPECT_TRUE(A("Runtime[ruby, [/^P::(.*)/, 'R::\\1']]",
                "Runtime[ruby, [/^P::(.*)/, 'R::\\1']]"));
  SyntaxError("Runtime[ruby, /^Foo/]", 14);
  SyntaxError("Runtime[ruby, '']", 14);
}

TEST_F(PuppetTest, TypeReferencesMatchNothing) {
  // An unknown name is a TypeReference (type_parser.rb): it parses and
  // no value is one.
  EXPECT_EQ(T("Nonesuch")->kind, puppet::Kind::kTypeReference);
  Err("Nonesuch", "1", "", "unresolved type reference");
  Err("Array[Strin]", "[\"a\"]", "/0", "Strin");
  Err("Variant[Nonesuch, Integer]", "\"a\"");
  Ok("Variant[Nonesuch, Integer]", "1");
}

// types.rb PIterableType#instance?.
TEST_F(PuppetTest, Iterable) {
  Ok("Iterable", "3");
  Ok("Iterable", "0");
  Ok("Iterable", "\"abc\"");
  Ok("Iterable", "[1]");
  Ok("Iterable", "{\"a\": 1}");
  Err("Iterable", "-1", "", "expects Iterable, got Integer");
  Err("Iterable", "true");
  Err("Iterable", "1.5");
  Err("Iterable", "null");
  // With an element type, Puppet asks whether Iterable[T] is assignable
  // from the value's inferred type (type_calculator.rb infer and
  // common_type), not element by element.
  Ok("Iterable[Integer]", "[1, 2]");
  Ok("Iterable[Integer]", "[1, null]");  // Undef gives way (is_pnil?)
  Err("Iterable[Integer]", "[1, \"a\"]", "",
      "expects Iterable[Integer], got Array");
  // [1, "a"] has ScalarData elements, which Variant[Integer, String] does
  // not take; [true, false] too (Boolean[true] and Boolean[false] meet at
  // ScalarData).
  Err("Iterable[Variant[Integer, String]]", "[1, \"a\"]");
  Err("Iterable[Boolean]", "[true, false]");
  Ok("Iterable[Boolean]", "[true, true]");
  // An integer iterates Integers (PIntegerType#iterable_type), whatever
  // its value: -1 is an Iterable[Integer], 10 no Iterable[Integer[0, 9]].
  Ok("Iterable[Integer]", "-1");
  Err("Iterable[Integer[0, 9]]", "10");
  Ok("Iterable[String[1, 1]]", "\"ab\"");
  Err("Iterable[Enum[a, b]]", "\"ab\"");  // String[1, 1] is no Enum
  Ok("Iterable[Enum[a, b]]", "[\"a\", \"b\", \"a\"]");
  Err("Iterable[Enum[a, b]]", "[\"a\", \"c\"]");
  Ok("Iterable[Tuple[String, Integer]]", "{\"a\": 1}");
  Err("Iterable[Tuple[String, String]]", "{\"a\": 1}", "",
      "expects Iterable[Tuple[String, String]], got Hash");
  Ok("Iterable[Tuple[Enum[a, b], Integer[1, 2]]]", "{\"a\": 1, \"b\": 2}");
  Ok("Iterable[Array[Integer]]", "[[1], [2, 3]]");
}

// semantic_puppet's VersionRange forms, as PSemVerType#_assignable? reads
// them (covered_by? after merge_ranges).
TEST_F(PuppetTest, SemVerRangesNest) {
  EXPECT_TRUE(A("SemVer['1.x']", "SemVer['>=1.2.0 <1.3.0']"));
  EXPECT_TRUE(A("SemVer['1.x']", "SemVer['~1.2']"));
  EXPECT_TRUE(A("SemVer['^1.2.3']", "SemVer['1.4.0 - 1.9.9']"));
  EXPECT_FALSE(A("SemVer['^1.2.3']", "SemVer['1.4.0 - 2.0.0']"));
  EXPECT_TRUE(A("SemVer['^0.2.3']", "SemVer['0.2.5']"));
  EXPECT_FALSE(A("SemVer['^0.2.3']", "SemVer['0.3.0']"));
  EXPECT_TRUE(A("SemVer['>1.2']", "SemVer['1.3.0']"));  // >=1.3.0
  // covered_by? compares the beginnings, not whether they are excluded.
  EXPECT_TRUE(A("SemVer['>1.2.0']", "SemVer['1.2.0']"));
  EXPECT_FALSE(A("SemVer['>1.2.0']", "SemVer['1.1.9']"));
  EXPECT_TRUE(A("SemVer['<=1.2']", "SemVer['1.2.9']"));  // <1.3.0
  EXPECT_FALSE(A("SemVer['<2.0.0']", "SemVer['2.0.0']"));
  EXPECT_TRUE(A("SemVer['<2.0.0']", "SemVer['2.0.0-rc1']"));
  EXPECT_TRUE(A("SemVer['*']", "SemVer['>= 3.0.0']"));
  EXPECT_FALSE(A("SemVer['1.x', '3.x']", "SemVer['1.0.0 - 3.0.0']"));
  EXPECT_TRUE(A("SemVer['1.x', '2.x']", "SemVer['1.0.0 - 2.5.0']"));
  EXPECT_TRUE(A("SemVer", "SemVer['1.x']"));
  EXPECT_FALSE(A("SemVer['1.x']", "SemVer"));
  EXPECT_TRUE(A("SemVer['1.x || 3.x']", "SemVer['1.x || 3.x']"));
  SyntaxError("SemVer['not a range']", 7);
  SyntaxError("SemVer['1.2.3.4']", 7);
}

// Ranges are compared by the versions they cover, not by their spelling:
// VersionRange.parse merges the `||` alternatives of one range
// (AbstractRange#merge: overlapping, adjacent, or a patch apart), and
// PSemVerType merges its parameters (merge_ranges), so equal ranges are
// equal types (assignable both ways) whatever their spelling.
TEST_F(PuppetTest, SemVerRangesCompareByTheirVersions) {
  const auto same = [&](std::string_view a, std::string_view b) {
    EXPECT_TRUE(A(a, b)) << a << " ⊒ " << b;
    EXPECT_TRUE(A(b, a)) << b << " ⊒ " << a;
  };
  same("SemVer['1.x || 2.x']", "SemVer['>=1.0.0 <3.0.0']");
  same("SemVer['1.x || 2.x']", "SemVer['1.x', '2.x']");
  same("SemVer['>=1.0.0 <=1.2.3 || >=1.2.4 <2.0.0']", "SemVer['1.x']");
  same("SemVer['~1.2 || ~1.3']", "SemVer['>=1.2.0 <1.4.0']");
  same("SemVer['^1.2.3']", "SemVer['>= 1.2.3 < 2.0.0']");
  same("SemVer['1.2.3 - 1.4.0']", "SemVer['>=1.2.3 <=1.4.0']");
  same("SemVer['1.x || 3.x']", "SemVer['3.x || 1.x']");
  same("SemVer['1.x || 3.x']", "SemVer['3.x', '1.x']");
  // p_sem_ver_type_spec.rb "range arguments are normalized".
  same("SemVer['>=1.0.0 <2.0.0', '>=1.5.0 <4.0.0']",
       "SemVer['>=1.0.0 <4.0.0']");
  EXPECT_TRUE(A("SemVer['1.x || 3.x']", "SemVer['3.1.0']"));
  EXPECT_TRUE(A("SemVer['1.x || 3.x']", "SemVer['1.2.x || 3.4.x']"));
  EXPECT_FALSE(A("SemVer['1.x || 3.x']", "SemVer['2.0.0']"));
  EXPECT_FALSE(A("SemVer['1.x || 3.x']", "SemVer['1.0.0 - 3.0.0']"));
  EXPECT_FALSE(A("SemVer['1.x']", "SemVer['1.x || 3.x']"));
  // Parameters print as written, or, where PSemVerType merged them, as
  // the merged range (VersionRange.new(begin, end, exclude_end)).
  const std::pair<std::string_view, std::string_view> kPrinted[] = {
      {"SemVer['1.x || 2.x']", "SemVer['1.x || 2.x']"},
      {"SemVer['1.x', '3.x']", "SemVer['1.x', '3.x']"},
      {"SemVer['>=1.0.0 <2.0.0', '>=1.5.0 <4.0.0']",
       "SemVer['>=1.0.0 <4.0.0']"},
      {"SemVer['1.x', '2.x']", "SemVer['>=1.0.0 <3.0.0']"},
      {"SemVer['3.x', '1.x', '2.x']", "SemVer['>=1.0.0 <4.0.0']"},
      {"SemVer['1.2.3', '1.2.3']", "SemVer['1.2.3 - 1.2.3']"},
      {"SemVer['>=2.0.0', '1.x']", "SemVer['>=1.0.0']"},
      {"SemVer['<1.0.0', '0.x']", "SemVer['<1.0.0']"},
      {"SemVer['<=1.2.3', '>=1.0.0']", "SemVer['*']"},
      {"SemVer['1.x || 3.x', '2.x']", "SemVer['1.x || 3.x', '2.x']"},
  };
  for (const auto& [written, canonical] : kPrinted) {
    puppet::TypePtr t = T(written);
    EXPECT_EQ(t->text, canonical) << written;
    EXPECT_EQ(T(t->text)->text, t->text) << written;
    EXPECT_TRUE(A(written, t->text) && A(t->text, written)) << written;
  }
}

// type_calculator_spec.rb "when inferring ground types from data": the
// element type infer gives an array.
TEST_F(PuppetTest, InferredElementTypes) {
  auto element = [&](const std::string& value) {
    json::Arena arena;
    puppet::TypePtr t = puppet::Infer(Parse(value), arena);
    EXPECT_EQ(t->kind, puppet::Kind::kArray) << value;
    return t->elements.at(0)->kind;
  };
  using puppet::Kind;
  // "with integer values translates to PArrayType[PIntegerType]"
  EXPECT_EQ(element("[1, 2]"), Kind::kInteger);
  // "with integer and float values translates to PArrayType[PNumericType]"
  EXPECT_EQ(element("[1, 2.0]"), Kind::kNumeric);
  // "with integer and string values translates to
  // PArrayType[PScalarDataType]"
  EXPECT_EQ(element("[1, \"two\"]"), Kind::kScalarData);
  // "with integer and nil values translates to PArrayType[PIntegerType]"
  EXPECT_EQ(element("[1, null]"), Kind::kInteger);
  // "with integer value, and array of string values, translates to
  // Array[Data]"
  EXPECT_EQ(element("[1, [\"two\"]]"), Kind::kData);
  // "with integer value, and hash of string => string values, translates to
  // Array[Data]"
  EXPECT_EQ(element("[1, {\"two\": \"three\"}]"), Kind::kData);
  // "with arrays of string values translates to
  // PArrayType[PArrayType[PStringType]]" (an Enum of the strings here,
  // as Puppet's common_type of two String values gives)
  EXPECT_EQ(element("[[\"a\", \"b\"], [\"c\"]]"), Kind::kArray);
  // "with array of string values and array of integers translates to
  // PArrayType[PArrayType[PScalarDataType]]"
  json::Arena arena;
  puppet::TypePtr mixed = puppet::Infer(Parse("[[\"a\"], [1]]"), arena);
  EXPECT_EQ(mixed->elements[0]->elements[0]->kind, Kind::kScalarData);
  // The strings of a long array reduce to one Enum in linear time.
  std::string many = "[";
  for (int i = 0; i < 20000; ++i) {
    many += (i > 0 ? ",\"s" : "\"s") + std::to_string(i % 5000) + "\"";
  }
  many += "]";
  puppet::TypePtr e = puppet::Infer(Parse(many), arena);
  ASSERT_EQ(e->elements[0]->kind, Kind::kEnum);
  EXPECT_EQ(e->elements[0]->enum_values.size(), 5000u);
}

// p_init_type.rb PInitType#really_instance? and p_init_type_spec.rb.
TEST_F(PuppetTest, Init) {
  Ok("Init", "null");  // RichData
  Ok("Init", Expand("{\"a\": [1, 2, " + Secret("3") + "]}"));
  Ok("Init[Integer]", "1");
  Ok("Init[Integer]", "\"0x3b\"");
  Ok("Init[Integer]", "\"-0b1111\"");
  Ok("Init[Integer]", "\"0634\"");
  Ok("Init[Integer]", "true");
  Ok("Init[Integer]", "1.5");
  Ok("Init[Integer]", "[\"10\", 16]");
  Ok("Init[Integer]", "{\"from\": \"10\", \"radix\": 16}");
  Err("Init[Integer]", "\"23.14\"", "", "expects Init[Integer], got String");
  Err("Init[Integer]", "[\"10\", 3]");
  Ok("Init[Float]", "\"2e-21\"");
  Ok("Init[Float]", "\"+0b1111\"");
  Ok("Init[Numeric]", "\"-0xba\"");
  Ok("Init[Boolean]", "\"yes\"");
  Ok("Init[Boolean]", "\"N\"");
  Ok("Init[Boolean]", "0");
  Err("Init[Boolean]", "\"maybe\"");
  Ok("Init[String]", "128");
  Ok("Init[String]", "[128]");
  Ok("Init[String]", "[128, \"%x\"]");
  Ok("Init[String]", "[[128, \"%x\"]]");
  Ok("Init[String, '%x']", "128");
  Ok("Init[Integer, 16]", "\"100\"");
  Ok("Init[SemVer]", "\"1.0.0\"");
  Ok("Init[SemVer]", "[1, 0, 0]");
  Err("Init[SemVer]", "\"1.0\"");
  Ok("Init[Binary]", "\"b25lIHR3byB0aHJlZQ==\"");
  Ok("Init[Sensitive[String]]", "\"256\"");
  Ok("Init[Type]", "\"Integer[2,3]\"");
  Ok("Init[Array[Integer]]", "{\"a\": 1}");
  Ok("Init[Hash]", "[[\"a\", 1]]");
  Ok("Init[Timespan]", "3600");
  Ok("Init[Timestamp]", "\"2014-12-01T13:15:00\"");
  SyntaxError("Init[String, 23]", 13);
  SyntaxError("Init[Scalar]", 5);
  SyntaxError("Init[Optional[Integer]]", 5);
  SyntaxError("Init[Init[Integer]]", 5);
}

TEST_F(PuppetTest, RichData) {
  Ok("RichData", Expand("[1, \"a\", null, {\"k\": " + Secret("\"s\"") + "}]"));
  Err("Data", Expand(Secret("\"s\"")));
  Ok("RichDataKey", "\"a\"");
  Ok("RichDataKey", "1.5");
  Err("RichDataKey", "true");
}

TEST_F(PuppetTest, TypeAliases) {
  Result<puppet::AliasesPtr> aliases = puppet::ParseAliases(
      {"type Tree = Hash[String, Variant[String, Tree]]",
       "Port = Integer[1, 65535] # a comment\ntype Ports = Array[Port]"});
  ASSERT_TRUE(aliases.ok()) << aliases.status().message();
  std::unique_ptr<TypeSystem> system = puppet::MakePuppetSystemWith(*aliases);
  json::Arena arena;
  auto check = [&](std::string_view type, const std::string& value) {
    Result<std::shared_ptr<const Type>> t =
        system->Parse(arena.MakeString(type));
    EXPECT_TRUE(t.ok()) << t.status().message();
    return system->Check(**t, Parse(value));
  };
  EXPECT_EQ(check("Tree", "{\"a\": {\"b\": \"c\"}}").outcome, Outcome::kOk);
  Verdict bad = check("Tree", "{\"a\": {\"b\": 1}}");
  EXPECT_EQ(bad.outcome, Outcome::kError);
  EXPECT_EQ(bad.pointer, "/a/b");
  EXPECT_EQ(check("Ports", "[80, 443]").outcome, Outcome::kOk);
  EXPECT_EQ(check("Ports", "[0]").outcome, Outcome::kError);
  EXPECT_EQ(check("Optional[PORT]", "null").outcome, Outcome::kOk);
  EXPECT_EQ(check("Init[Port]", "\"0x50\"").outcome, Outcome::kOk);
  // Without the aliases the names are type references.
  EXPECT_EQ(Check("Port", "80").outcome, Outcome::kError);
  for (std::vector<std::string> bad_defs :
       {std::vector<std::string>{"type A = Variant[A, String]"},
        std::vector<std::string>{"type A = B", "type B = A"},
        std::vector<std::string>{"type A = Integer", "type A = String"},
        std::vector<std::string>{"type a = Integer"},
        std::vector<std::string>{"type A Integer"},
        std::vector<std::string>{"type A = Array["}}) {
    EXPECT_FALSE(puppet::ParseAliases(bad_defs).ok()) << bad_defs[0];
  }
}

}  // namespace
}  // namespace pstate::types
