// The Terraform language: type-systems reference §6 (grammar, assignment
// with defaults, documented conversions), the terraform column of §8 and
// the §9 resolutions that concern it.
#include "types/terraform.h"

#include <gtest/gtest.h>

#include <string>

#include "json/parser.h"

namespace pstate::types {
namespace {

std::string Secret(const std::string& inner_json) {
  std::string quoted = "\"";
  for (char c : inner_json) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  quoted += '"';
  return R"({"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","plaintext":)" +
         quoted + "}";
}

class TerraformTest : public ::testing::Test {
 protected:
  json::Value ParseJson(const std::string& text) {
    json::Parser parser;
    json::Value v;
    EXPECT_EQ(parser.ParseDocument(text, 0, arena_, &v), json::ParseStatus::kOk)
        << text;
    return v;
  }

  Result<std::shared_ptr<const Type>> ParseType(const std::string& type) {
    return system_->Parse(arena_.MakeString(type));
  }

  Verdict Check(const std::string& type, const std::string& value_json) {
    auto t = ParseType(type);
    EXPECT_TRUE(t.ok()) << type << ": " << t.status().message();
    if (!t.ok()) return ErrorVerdict("", "type did not parse");
    return system_->Check(**t, ParseJson(value_json));
  }

  void ExpectOk(const std::string& type, const std::string& value) {
    Verdict v = Check(type, value);
    EXPECT_EQ(v.outcome, Outcome::kOk)
        << type << " <- " << value << ": " << v.converted << v.message;
  }
  void ExpectConvert(const std::string& type, const std::string& value,
                     const std::string& converted) {
    Verdict v = Check(type, value);
    EXPECT_EQ(v.outcome, Outcome::kConvert)
        << type << " <- " << value << ": " << v.message;
    EXPECT_EQ(v.converted, converted) << type << " <- " << value;
  }
  void ExpectError(const std::string& type, const std::string& value,
                   const std::string& pointer, const std::string& message) {
    Verdict v = Check(type, value);
    EXPECT_EQ(v.outcome, Outcome::kError)
        << type << " <- " << value << ": " << v.converted;
    EXPECT_EQ(v.pointer, pointer) << type << " <- " << value;
    EXPECT_NE(v.message.find(message), std::string::npos)
        << type << " <- " << value << ": " << v.message;
  }
  void ExpectTypeError(const std::string& type, std::size_t offset,
                       const std::string& message) {
    auto t = ParseType(type);
    ASSERT_FALSE(t.ok()) << type;
    EXPECT_EQ(t.status().code(), Errc::kSyntax);
    std::string want = "at offset " + std::to_string(offset) + " of the type";
    EXPECT_NE(t.status().message().find(want), std::string::npos)
        << type << ": " << t.status().message();
    EXPECT_NE(t.status().message().find(message), std::string::npos)
        << type << ": " << t.status().message();
  }
  std::string Canonical(const std::string& type) {
    auto p = terraform::ParseConstraint(type);
    EXPECT_TRUE(p.ok()) << type << ": " << p.status().message();
    return p.ok() ? p->canonical : "";
  }

  json::Arena arena_;
  std::unique_ptr<TypeSystem> system_ = MakeTerraformSystem();
};

// ---- §6.1 grammar
// ------------------------------------------------------------

TEST_F(TerraformTest, PrimitivesAndConstructors) {
  EXPECT_EQ(Canonical("string"), "string");
  EXPECT_EQ(Canonical("number"), "number");
  EXPECT_EQ(Canonical("bool"), "bool");
  EXPECT_EQ(Canonical("any"), "any");
  EXPECT_EQ(Canonical("list(string)"), "list(string)");
  EXPECT_EQ(Canonical("set(number)"), "set(number)");
  EXPECT_EQ(Canonical("map(list(any))"), "map(list(any))");
  EXPECT_EQ(Canonical("tuple([string, number])"), "tuple([string,number])");
  EXPECT_EQ(Canonical("tuple([])"), "tuple([])");
  EXPECT_EQ(Canonical("object({})"), "object({})");
}

TEST_F(TerraformTest, ObjectsSortAttributesAndAcceptColons) {
  EXPECT_EQ(Canonical("object({b=number, a=string})"),
            "object({a=string,b=number})");
  EXPECT_EQ(Canonical("object({a: string, b: bool})"),
            "object({a=string,b=bool})");
  EXPECT_EQ(Canonical("object({a=string,b=optional(number, 3)})"),
            "object({a=string,b=optional(number)})");
}

TEST_F(TerraformTest, WhitespaceNewlinesAndComments) {
  EXPECT_EQ(Canonical("  list(\n  string\n)  "), "list(string)");
  EXPECT_EQ(Canonical("object({\n  a = string\n  b = number # note\n})"),
            "object({a=string,b=number})");
  EXPECT_EQ(Canonical("object({ /* c */ a = string, })"), "object({a=string})");
  EXPECT_EQ(Canonical("tuple([\n string,\n number,\n])"),
            "tuple([string,number])");
  EXPECT_EQ(Canonical("list(string,)"), "list(string)");
}

TEST_F(TerraformTest, GrammarErrorsSayTheOffset) {
  ExpectTypeError("strin", 0, "\"strin\" is not a valid type specification");
  ExpectTypeError("list", 0, "requires one argument");
  ExpectTypeError("map", 0, "requires one argument");
  ExpectTypeError("list(string, number)", 13, "requires one argument");
  ExpectTypeError("list()", 4, "requires one argument");
  ExpectTypeError("string()", 6, "does not expect arguments");
  ExpectTypeError("any(string)", 3, "does not expect arguments");
  ExpectTypeError("frob(string)", 0, "not a valid type constructor");
  ExpectTypeError("object", 0, "object type constructor requires");
  ExpectTypeError("tuple(string)", 6, "requires a list of element types");
  ExpectTypeError("object([string])", 7, "requires a map");
  ExpectTypeError(R"(object({"a" = string}))", 8,
                  "keys must be attribute names");
  ExpectTypeError("object({a = string, a = number})", 20, "must be unique");
  ExpectTypeError("list(optional(string))", 5,
                  "valid only as a modifier for object type attributes");
  ExpectTypeError("optional(string)", 0, "valid only as a modifier");
  ExpectTypeError("object({a = optional()})", 20,
                  "requires the attribute type");
  ExpectTypeError("object({a = optional(string, \"x\", \"y\")})", 20,
                  "at most two arguments");
  ExpectTypeError("list(string", 0, "no closing parenthesis");
  ExpectTypeError("string string", 7, "extra characters");
  ExpectTypeError("\"string\"", 0, "a type specification is either");
  ExpectTypeError("", 0, "a type expression is required");
  ExpectTypeError("list(string) + 1", 13, "operators are not supported");
  ExpectTypeError("object({a = string b = number})", 19, "newline or comma");
}

TEST_F(TerraformTest, HclTypeexprCases) {
  // Cases of hashicorp/hcl ext/typeexpr/get_type_test.go, checked here.
  EXPECT_EQ(Canonical("list(object({}))"), "list(object({}))");
  EXPECT_EQ(Canonical("list(map(tuple([])))"), "list(map(tuple([])))");
  EXPECT_EQ(Canonical("object({name=string,meta=optional(any)})"),
            "object({meta=optional(any),name=string})");
  ExpectTypeError("object({name=nope})", 13,
                  "\"nope\" is not a valid type specification");
  ExpectTypeError("tuple([nope])", 7, "\"nope\" is not a valid type");
  ExpectTypeError("list(\"string\")", 5, "a type specification is either");
  ExpectTypeError("object()", 6, "object type constructor requires one");
  ExpectTypeError("tuple()", 5, "tuple type constructor requires one");
  ExpectTypeError("shwoop(string)", 0,
                  "\"shwoop\" is not a valid type "
                  "constructor");
  ExpectTypeError("optional", 0, "\"optional\" is not a valid type");
  ExpectTypeError("bool()", 4, "does not expect arguments");
  ExpectTypeError("a.b", 0, "a type specification is either");
  // true, false and null are literals in HCL, not keywords.
  ExpectTypeError("list(null)", 5, "a type specification is either");
}

TEST_F(TerraformTest, DefaultsAreConvertedWhenParsed) {
  EXPECT_TRUE(terraform::ParseConstraint("object({a=optional(string, 5)})")
                  ->has_defaults);
  ExpectConvert("object({a=optional(string, 5)})", "{}", R"({"a":"5"})");
  ExpectTypeError("object({a = optional(number, \"x\")})", 29,
                  "invalid default value for optional attribute");
  ExpectTypeError("object({a = optional(number, var.x)})", 29,
                  "variables may not be used");
  ExpectTypeError("object({a = optional(number, max(1, 2))})", 29,
                  "functions may not be called");
  ExpectTypeError("object({a = optional(string, \"${x}\")})", 30,
                  "interpolation");
}

TEST_F(TerraformTest, TypeMustBeAString) {
  auto t = system_->Parse(ParseJson(R"(["list","string"])"));
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("a string"), std::string::npos);
}

// ---- §6.2 assignment: defaults, then conversion ----------------------------

TEST_F(TerraformTest, MissingOrNullOptionalAttributesTakeTheDefault) {
  const std::string type = "object({a=string, b=optional(number, 3)})";
  ExpectConvert(type, R"({"a":"x"})", R"({"a":"x","b":3})");
  ExpectConvert(type, R"({"a":"x","b":null})", R"({"a":"x","b":3})");
  ExpectOk(type, R"({"a":"x","b":7})");
  ExpectConvert(type, R"({"a":"x","b":"7"})", R"({"a":"x","b":7})");
  ExpectError(type, R"({"b":1})", "", "attribute \"a\" is required");
  ExpectConvert("object({a=optional(string)})", "{}", R"({"a":null})");
}

TEST_F(TerraformTest, NoDefaultsForNullsAndUnknowns) {
  const std::string type = "object({b=optional(number, 3)})";
  ExpectOk(type, "null");
  ExpectOk(type, R"("04da6b54-80e4-46f7-96ec-b56ff0331ba9")");
}

TEST_F(TerraformTest, NestedDefaults) {
  ExpectConvert(
      "object({ a = optional(object({ b = optional(number, 5) }), {}) })", "{}",
      R"({"a":{"b":5}})");
  ExpectConvert("map(object({ a = string, b = optional(number, 5) }))",
                R"({"k":{"a":"x"},"l":{"a":"y","b":1}})",
                R"({"k":{"a":"x","b":5},"l":{"a":"y","b":1}})");
  ExpectConvert("list(object({ a = string, b = optional(number, 5) }))",
                R"([{"a":"x"},{"a":"y","b":2}])",
                R"([{"a":"x","b":5},{"a":"y","b":2}])");
  ExpectConvert("set(object({ a = string, b = optional(number, 5) }))",
                R"([{"a":"y"},{"a":"x"}])",
                R"([{"a":"x","b":5},{"a":"y","b":5}])");
  ExpectConvert(
      "tuple([string, bool, object({ a = string, b = optional(number, 5) })])",
      R"(["s",true,{"a":"x"}])", R"(["s",true,{"a":"x","b":5}])");
  ExpectConvert(
      "object({ list = optional(list(object({ required = string, optional = "
      "optional(string, \"optional\") })), [{ required = \"required\" }])})",
      "{}", R"({"list":[{"optional":"optional","required":"required"}]})");
  ExpectConvert(
      "object({ list = optional(list(object({ required = string, optional = "
      "optional(string) })), [])})",
      "{}", R"({"list":[]})");
}

TEST_F(TerraformTest, DefaultListsAreFilledAndUnifiedAgain) {
  // The default is converted to list(object) when parsed; applying it fills
  // the elements' own defaults and the list is unified again.
  ExpectConvert(
      "object({ l = optional(list(object({ a = optional(string, \"x\"), "
      "b = optional(number) })), [{ b = 1 }, { a = \"y\" }]) })",
      "{}", R"({"l":[{"a":"x","b":1},{"a":"y","b":null}]})");
}

TEST_F(TerraformTest, DefaultsReachIntoSecrets) {
  ExpectConvert("list(object({ a = string, b = optional(number, 5) }))",
                "[" + Secret(R"({"a":"x"})") + "]",
                "[" + Secret(R"({"a":"x","b":5})") + "]");
  // A present value inside a secret is kept.
  ExpectOk("object({ b = optional(number, 5) })", Secret(R"({"b":1})"));
}

TEST_F(TerraformTest, DefaultsOfDifferentTypesAreConvertedToTheAttribute) {
  ExpectConvert(
      "object({ a = optional(string, \"hello\"), b = optional(number, "
      "-2.5) })",
      "{}", R"({"a":"hello","b":-2.5})");
  ExpectConvert("object({ flag = optional(bool, !false) })", "{}",
                R"({"flag":true})");
}

TEST_F(TerraformTest, ConversionsAreCtys) {
  ExpectConvert("number", R"("42")", "42");
  ExpectConvert("string", "42", R"("42")");
  ExpectConvert("bool", R"("true")", "true");
  ExpectConvert("list(string)", R"([1,"a"])", R"(["1","a"])");
  ExpectConvert("set(string)", R"(["b","a","b"])", R"(["a","b"])");
  ExpectConvert("map(string)", R"({"a":1})", R"({"a":"1"})");
  ExpectConvert("object({a=string})", R"({"a":"x","extra":1})", R"({"a":"x"})");
  ExpectError("list(string)", R"("x")", "", "list of string required");
  ExpectError("tuple([string])", R"(["a","b"])", "",
              "1 elements are required, but got 2");
}

TEST_F(TerraformTest, AnyAcceptsAsIsButCollectionsOfAnyNeedOneType) {
  ExpectOk("any", R"({"a":[1,"x"]})");
  ExpectConvert("list(any)", R"([1,"a"])", R"(["1","a"])");
  ExpectError("list(any)", R"([1,{"a":1}])", "",
              "all list elements must have the same type");
  ExpectConvert("map(any)", R"({"a":{"x":1},"b":{"y":"z"}})",
                R"({"a":{"x":"1"},"b":{"y":"z"}})");
}

TEST_F(TerraformTest, SecretsStaySecret) {
  ExpectConvert("number", Secret(R"("42")"), Secret("42"));
  ExpectConvert("object({a=string, b=optional(number, 3)})",
                Secret(R"({"a":"x"})"), Secret(R"({"a":"x","b":3})"));
  Verdict v = Check("object({pw=number})", Secret(R"({"pw":"hunter2"})"));
  EXPECT_EQ(v.outcome, Outcome::kError);
  EXPECT_EQ(v.message.find("hunter2"), std::string::npos);
  EXPECT_EQ(v.pointer, "/*");
}

// ---- §8 the terraform column ------------------------------------------------

TEST_F(TerraformTest, SideBySideTableRows) {
  ExpectConvert("number", R"("42")", "42");
  ExpectConvert("string", "42", R"("42")");
  ExpectConvert("bool", R"("true")", "true");
  ExpectConvert("object({a=number})", R"({"a":1,"b":2})", R"({"a":1})");
  ExpectError("object({a=number})", "{}", "", "attribute \"a\" is required");
  ExpectConvert("object({a=optional(number, 1)})", "{}", R"({"a":1})");
  ExpectOk("list(string)", R"(["a",null])");
  ExpectConvert("set(string)", R"(["a","a"])", R"(["a"])");
  ExpectError("tuple([string])", "[]", "", "1 elements are required");
  ExpectOk("number", "9007199254740993");
  ExpectOk("string", Secret(R"("s")"));
  ExpectOk("list(string)", R"("04da6b54-80e4-46f7-96ec-b56ff0331ba9")");
  ExpectError(
      "string",
      R"({"4dabf18193072939515e22adb298388d":"c44067f5952c0a294b673a41bacd8c17","text":"x"})",
      "", "string required");
}

}  // namespace
}  // namespace pstate::types
