// The PCL type language: syntax (§4.1), the type of a state value (§4.2),
// conversion kinds (§4.3), results (§4.4), assignability (§4.5),
// unification (§4.7), secrets and promises (§4.8), the pcl column of §8 and
// §9.2, §9.6, §9.8, §9.11.
#include "types/pcl.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "json/parser.h"

namespace pstate::types {
namespace {

using pcl::ConversionKind;
using pcl::TypePtr;

constexpr std::string_view kSig = "\"4dabf18193072939515e22adb298388d\"";
constexpr std::string_view kUnknown =
    "\"04da6b54-80e4-46f7-96ec-b56ff0331ba9\"";

// "SIG" in test texts stands for the signature key.
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

class PclTest : public ::testing::Test {
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

  TypePtr T(std::string_view text) {
    Result<TypePtr> t = pcl::ParseType(text);
    EXPECT_TRUE(t.ok()) << text << ": " << t.status().message();
    return t.ok() ? *t : pcl::Primitive(pcl::Kind::kAny);
  }

  TypePtr V(const std::string& value) { return pcl::TypeOfValue(Parse(value)); }

  Verdict Check(std::string_view type, const std::string& value) {
    const json::Value& v = Parse(value);
    json::Arena spec_arena;
    Result<std::shared_ptr<const Type>> t =
        system_->Parse(spec_arena.MakeString(type));
    EXPECT_TRUE(t.ok()) << type << ": " << t.status().message();
    if (!t.ok()) return ErrorVerdict("", "type did not parse");
    return system_->Check(**t, v);
  }

  void ExpectOk(std::string_view type, const std::string& value) {
    Verdict r = Check(type, value);
    EXPECT_EQ(r.outcome, Outcome::kOk)
        << type << " <- " << value << ": " << r.message << r.converted;
  }
  void ExpectConvert(std::string_view type, const std::string& value,
                     const std::string& converted) {
    Verdict r = Check(type, value);
    EXPECT_EQ(r.outcome, Outcome::kConvert)
        << type << " <- " << value << ": " << r.message;
    EXPECT_EQ(r.converted, Expand(converted)) << type << " <- " << value;
  }
  void ExpectError(std::string_view type, const std::string& value,
                   std::string_view pointer = "",
                   std::string_view message_part = "") {
    Verdict r = Check(type, value);
    EXPECT_EQ(r.outcome, Outcome::kError)
        << type << " <- " << value << ": " << r.converted;
    EXPECT_EQ(r.pointer, pointer) << type << " <- " << value;
    EXPECT_NE(r.message.find(message_part), std::string::npos)
        << type << " <- " << value << ": " << r.message;
  }
  void ExpectSyntaxError(std::string_view type, std::size_t offset) {
    Result<TypePtr> t = pcl::ParseType(type);
    ASSERT_FALSE(t.ok()) << type;
    EXPECT_EQ(t.status().code(), Errc::kSyntax);
    std::string where = "at offset " + std::to_string(offset) + " ";
    EXPECT_NE(t.status().message().find(where), std::string::npos)
        << type << ": " << t.status().message();
  }
  ConversionKind Kind(std::string_view dest, const TypePtr& src) {
    return pcl::ConversionFrom(*T(dest), *src);
  }

  json::Arena arena_;
  std::unique_ptr<TypeSystem> system_ = MakePclSystem();
};

// --- §4.1 syntax -----------------------------------------------------------

TEST_F(PclTest, ParsesEveryConstructor) {
  EXPECT_EQ(T("string")->text, "string");
  EXPECT_EQ(T("list( number )")->text, "list(number)");
  EXPECT_EQ(T("set(int)")->text, "set(int)");
  EXPECT_EQ(T("map(bool)")->text, "map(bool)");
  EXPECT_EQ(T("object({b = int, a: string})")->text,
            "object({a = string, b = int})");
  EXPECT_EQ(T("object({})")->text, "object({})");
  EXPECT_EQ(T("tuple([string, int])")->text, "tuple([string, int])");
  EXPECT_EQ(T("tuple([])")->text, "tuple([])");
  EXPECT_EQ(T("output(list(string))")->text, "output(list(string))");
  EXPECT_EQ(T("promise(int)")->text, "promise(int)");
  EXPECT_EQ(T("Asset")->text, "Asset");
  EXPECT_EQ(T("Archive")->text, "Archive");
  EXPECT_EQ(T("none")->text, "none");
  EXPECT_EQ(T("any")->text, "any");
  EXPECT_EQ(T("enum(string: \"a\", \"b\")")->text,
            "enum(string: \"a\", \"b\")");
  EXPECT_EQ(T("enum(int: 1, 2)")->kind, pcl::Kind::kEnum);
  EXPECT_EQ(T("object({\"x-y\" = string})")->properties[0].first, "x-y");
  EXPECT_EQ(T("object({\n  a = string,\n  b = int,\n})")->properties.size(),
            2u);
}

TEST_F(PclTest, UnionsAreFlattenedSortedAndDeduplicated) {
  EXPECT_EQ(T("union(string, number)")->text, "union(number, string)");
  EXPECT_EQ(T("union(string, union(bool, string))")->text,
            "union(bool, string)");
  EXPECT_EQ(T("union(int)")->text, "int");  // a union of one type
  EXPECT_EQ(T("optional(string)")->text, "union(none, string)");
  EXPECT_TRUE(pcl::Equal(*T("optional(int)"), *T("union(none, int)")));
}

TEST_F(PclTest, OutputsResolveEventualsInside) {
  EXPECT_EQ(T("output(output(string))")->text, "output(string)");
  EXPECT_EQ(T("output(list(promise(int)))")->text, "output(list(int))");
  EXPECT_EQ(T("promise(promise(int))")->text, "promise(int)");
}

TEST_F(PclTest, SyntaxErrorsSayWhere) {
  ExpectSyntaxError("strin", 0);
  ExpectSyntaxError("list(string", 11);
  ExpectSyntaxError("list(strng)", 5);
  ExpectSyntaxError("object({a = string, a = int})", 20);
  ExpectSyntaxError("object({a string})", 10);
  ExpectSyntaxError("tuple(string)", 6);
  ExpectSyntaxError("string extra", 7);
  ExpectSyntaxError("", 0);
  ExpectSyntaxError("enum(string: 1)", 13);
  ExpectSyntaxError("enum(list(string): \"a\")", 5);
  ExpectSyntaxError("enum(string: \"a)", 13);
  ExpectSyntaxError("union()", 6);
  // Through the TypeSystem: a non-string spec and a located error.
  json::Arena arena;
  json::Value number;
  Result<std::shared_ptr<const Type>> t = system_->Parse(number);
  EXPECT_FALSE(t.ok());
  t = system_->Parse(arena.MakeString("map(int"));
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), Errc::kSyntax);
  EXPECT_NE(t.status().message().find("at offset 7"), std::string::npos);
}

// --- §4.2 the type of a state value ----------------------------------------

TEST_F(PclTest, TypeOfValue) {
  EXPECT_EQ(V("null")->text, "none");
  EXPECT_EQ(V("true")->elements[0]->text, "bool");
  EXPECT_EQ(V("42")->elements[0]->text, "int");
  EXPECT_EQ(V("1.0")->elements[0]->text, "int");  // exact integer
  EXPECT_EQ(V("1e3")->elements[0]->text, "int");
  EXPECT_EQ(V("2147483647")->elements[0]->text, "int");
  EXPECT_EQ(V("-2147483648")->elements[0]->text, "int");
  EXPECT_EQ(V("2147483648")->elements[0]->text, "number");
  EXPECT_EQ(V("1.5")->elements[0]->text, "number");
  EXPECT_EQ(V("\"s\"")->elements[0]->text, "string");
  EXPECT_EQ(V("[1, \"a\"]")->kind, pcl::Kind::kTuple);
  EXPECT_EQ(V("{\"a\": 1}")->kind, pcl::Kind::kObject);
  EXPECT_EQ(
      V("{SIG:\"c44067f5952c0a294b673a41bacd8c17\",\"text\":\"x\"}")->text,
      "Asset");
  EXPECT_EQ(V("{SIG:\"0def7320c3a5731c473e5ecbe6d01bc7\",\"assets\":{}}")->text,
            "Archive");
  TypePtr secret = V(Secret("\"x\""));
  ASSERT_EQ(secret->kind, pcl::Kind::kOutput);
  EXPECT_EQ(secret->elements[0]->elements[0]->text, "string");
  EXPECT_EQ(V(std::string(kUnknown))->text, "any");
  EXPECT_EQ(V("{SIG:\"d0e6a833031e9bbcd3f4e8bde6ca49a4\"}"), nullptr);
}

// --- §4.3 conversion kinds ---------------------------------------------------

TEST_F(PclTest, GenericRules) {
  EXPECT_EQ(Kind("string", T("string")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("any", T("list(int)")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("string", T("any")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("list(int)", T("any")), ConversionKind::kUnsafe);
  // A source union: safe if all members are, unsafe if some convert.
  EXPECT_EQ(Kind("string", T("union(int, bool)")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("number", T("union(int, string)")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("number", T("union(int, list(int))")),
            ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("number", T("union(list(int), Asset)")),
            ConversionKind::kNone);
  // A ConstType source uses its type (except for enums).
  EXPECT_EQ(Kind("number", V("5")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("int", V("5.5")), ConversionKind::kUnsafe);
}

TEST_F(PclTest, OpaqueTable) {
  EXPECT_EQ(Kind("number", T("int")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("number", T("string")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("int", T("number")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("int", T("string")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("bool", T("string")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("bool", T("number")), ConversionKind::kNone);
  EXPECT_EQ(Kind("bool", T("int")), ConversionKind::kNone);
  EXPECT_EQ(Kind("number", T("bool")), ConversionKind::kNone);
  EXPECT_EQ(Kind("int", T("bool")), ConversionKind::kNone);
  EXPECT_EQ(Kind("string", T("bool")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("string", T("number")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("string", T("int")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("string", T("none")), ConversionKind::kNone);
  EXPECT_EQ(Kind("string", T("Asset")), ConversionKind::kNone);
  EXPECT_EQ(Kind("Asset", T("Archive")), ConversionKind::kNone);
  EXPECT_EQ(Kind("Asset", T("Asset")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("none", T("string")), ConversionKind::kNone);
  EXPECT_EQ(Kind("none", T("none")), ConversionKind::kSafe);
}

TEST_F(PclTest, CollectionTable) {
  EXPECT_EQ(Kind("list(number)", T("list(int)")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("list(int)", T("set(string)")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("list(string)", V("[1, true]")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("list(int)", V("[1, \"2\"]")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("list(int)", V("[1, null]")), ConversionKind::kNone);
  EXPECT_EQ(Kind("list(int)", V("[]")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("set(int)", T("set(int)")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("set(int)", T("list(int)")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("set(int)", V("[1, 2]")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("set(int)", V("[[1]]")), ConversionKind::kNone);
  EXPECT_EQ(Kind("map(string)", T("map(int)")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("map(string)", V("{\"a\": 1}")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("map(int)", V("{\"a\": \"1\"}")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("map(int)", V("[1]")), ConversionKind::kNone);
}

TEST_F(PclTest, ObjectAndTupleTable) {
  // Missing properties count as none; extra ones are ignored.
  EXPECT_EQ(Kind("object({a = int})", V("{\"a\": 1, \"b\": 2}")),
            ConversionKind::kSafe);
  EXPECT_EQ(Kind("object({a = int})", V("{\"b\": 2}")), ConversionKind::kNone);
  EXPECT_EQ(Kind("object({a = optional(int)})", V("{}")),
            ConversionKind::kSafe);
  EXPECT_EQ(Kind("object({a = int})", T("map(int)")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("object({a = int})", T("map(list(int))")),
            ConversionKind::kNone);
  EXPECT_EQ(Kind("tuple([int, string])", V("[1, 2]")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("tuple([int, string])", V("[1]")), ConversionKind::kNone);
  EXPECT_EQ(Kind("tuple([int])", V("[1, 2]")), ConversionKind::kNone);
  EXPECT_EQ(Kind("tuple([int, int])", T("list(int)")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("tuple([int])", T("set(string)")), ConversionKind::kUnsafe);
}

TEST_F(PclTest, UnionOutputPromiseEnumConstTable) {
  EXPECT_EQ(Kind("union(int, string)", T("string")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("union(int, bool)", T("string")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("union(Asset, bool)", T("number")), ConversionKind::kNone);
  EXPECT_EQ(Kind("output(int)", T("output(int)")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("output(int)", T("promise(string)")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("output(number)", T("int")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("promise(int)", T("promise(int)")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("promise(int)", T("int")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("promise(int)", T("output(int)")), ConversionKind::kNone);
  EXPECT_EQ(Kind("int", T("output(int)")), ConversionKind::kNone);
  EXPECT_EQ(Kind("list(int)", T("output(list(int))")), ConversionKind::kNone);
  // Enums: a literal of another type that is a member converts safely; a
  // literal of the enum's own type is Unsafe (§9.6).
  EXPECT_EQ(Kind("enum(number: 1, 2)", V("1")), ConversionKind::kSafe);
  EXPECT_EQ(Kind("enum(string: \"a\")", V("\"a\"")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("enum(string: \"a\")", V("\"b\"")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("enum(string: \"1\")", V("1")), ConversionKind::kUnsafe);
  EXPECT_EQ(Kind("enum(int: 1)", V("[1]")), ConversionKind::kNone);
  // ConstType destinations: Unsafe when the underlying type converts.
  TypePtr c = pcl::ConstOf(T("string"), {pcl::Literal::Kind::kString, "x"});
  EXPECT_EQ(pcl::ConversionFrom(*c, *T("int")), ConversionKind::kUnsafe);
  EXPECT_EQ(pcl::ConversionFrom(*c, *T("list(int)")), ConversionKind::kNone);
  EXPECT_EQ(pcl::ConversionFrom(*c, *c), ConversionKind::kSafe);
}

// --- §4.4 results
// --------------------------------------------------------------

TEST_F(PclTest, Primitives) {
  ExpectOk("string", "\"x\"");
  ExpectConvert("string", "5", "\"5\"");
  ExpectConvert("string", "1e3", "\"1000\"");
  ExpectConvert("string", "1e-7", "\"0.0000001\"");
  ExpectConvert("string", "1.50", "\"1.5\"");
  ExpectConvert("string", "true", "\"true\"");
  ExpectError("string", "null", "", "cannot convert null to string");
  ExpectError("string", "[1]", "", "cannot convert a tuple to string");
  ExpectOk("number", "1.5");
  ExpectOk("number", "42");
  ExpectConvert("number", "\"42\"", "42");
  ExpectConvert("number", "\"1e3\"", "1000");
  ExpectConvert("number", "\"+5\"", "5");
  ExpectConvert("number", "\".5\"", "0.5");
  ExpectConvert("number", "\"5.\"", "5");
  ExpectConvert("number", "\"0001\"", "1");
  ExpectConvert("number", "\"1p3\"", "8");
  ExpectConvert("number", "\"Inf\"",
                "{SIG:\"8ad145fe-0d11-4827-bfd7-1abcbf086f5c\","
                "\"value\":\"7ff0000000000000\"}");
  ExpectError("number", "\" 1\"", "", "a number is required");
  ExpectError("number", "\"0x10\"", "", "a number is required");
  ExpectError("number", "\"1_000\"", "", "a number is required");
  ExpectError("number", "\"NaN\"", "", "a number is required");
  ExpectError("number", "\"\"", "", "a number is required");
  ExpectError("number", "true", "", "cannot convert a bool to number");
  ExpectError("int", "false", "", "cannot convert a bool to int");
  ExpectError("number", "{}", "", "cannot convert an object to number");
  ExpectOk("bool", "false");
  ExpectConvert("bool", "\"true\"", "true");
  ExpectConvert("bool", "\"1\"", "true");
  ExpectConvert("bool", "\"0\"", "false");
  ExpectError("bool", "\"True\"", "", "use lowercase \"true\"");
  ExpectError("bool", "\"yes\"", "", "a bool is required");
  ExpectError("bool", "1", "", "cannot convert a number to bool");
  ExpectOk("none", "null");
  ExpectError("none", "0", "", "cannot convert a number to none");
}

TEST_F(PclTest, IntIsInt32AndIntegral) {
  ExpectOk("int", "42");
  ExpectOk("int", "1.0");
  ExpectOk("int", "2147483647");
  ExpectOk("int", "-2147483648");
  ExpectError("int", "2147483648", "", "32-bit");
  ExpectError("int", "1.5", "", "fraction");
  ExpectConvert("int", "\"42\"", "42");
  ExpectConvert("int", "\"4.2e1\"", "42");
  ExpectError("int", "\"4.5\"", "", "fraction");
  ExpectError("int", "\"3000000000\"", "", "32-bit");
  ExpectError("int", "\"x\"", "", "a number is required");
}

TEST_F(PclTest, BigNumbersAreExact) {
  // §8: 2^53+1 is ok (arbitrary precision), and keeps its digits.
  ExpectOk("number", "9007199254740993");
  ExpectConvert("string", "9007199254740993", "\"9007199254740993\"");
  ExpectConvert("number", "\"9007199254740993\"", "9007199254740993");
  ExpectOk("number", "1e400");
  ExpectError("int", "9007199254740993", "", "32-bit");
}

TEST_F(PclTest, Collections) {
  ExpectOk("list(string)", "[\"a\", \"b\"]");
  ExpectOk("list(string)", "[]");
  ExpectConvert("list(string)", "[1, \"a\"]", "[\"1\",\"a\"]");
  ExpectError("list(string)", "[\"a\", null]", "/1", "null");  // §8
  ExpectError("list(int)", "[1, \"x\"]", "/1", "a number is required");
  ExpectError("list(int)", "{}", "", "cannot convert an object");
  ExpectOk("map(int)", "{\"a\": 1}");
  ExpectConvert("map(int)", "{\"a\": \"1\", \"b\": 2}", "{\"a\":1,\"b\":2}");
  ExpectError("map(int)", "{\"a~/b\": \"x\"}", "/a~0~1b");
  ExpectError("map(int)", "[1]", "", "cannot convert a tuple");
}

TEST_F(PclTest, SetsDeduplicateAndOrder) {
  ExpectOk("set(string)", "[\"b\", \"a\"]");  // no change: order is free
  ExpectConvert("set(string)", "[\"b\", \"a\", \"b\"]", "[\"a\",\"b\"]");
  ExpectConvert("set(number)", "[\"1\", 1]", "[1]");
  ExpectConvert("set(number)", "[3, 1, \"2\"]", "[1,2,3]");
  ExpectConvert("set(number)", "[1, 1.0]", "[1]");
  ExpectConvert("set(bool)", "[true, \"false\"]", "[false,true]");
  ExpectError("set(int)", "[1, \"a\"]", "/1", "a number is required");
}

TEST_F(PclTest, ObjectsAreOpen) {
  // §8 / §9.2: an extra key is ignored, and the value is ok unchanged.
  ExpectOk("object({a = string})", "{\"a\": \"x\", \"extra\": 1}");
  ExpectConvert("object({a = string})", "{\"a\": 5, \"extra\": 1}",
                "{\"a\":\"5\",\"extra\":1}");
  // §8: a required attribute missing is an error.
  ExpectError("object({a = string, b = int})", "{\"a\": \"x\"}", "",
              "no property \"b\"");
  ExpectOk("object({a = string, b = optional(int)})", "{\"a\": \"x\"}");
  ExpectOk("object({a = optional(int)})", "{\"a\": null}");
  ExpectError("object({a = int})", "{\"a\": null}", "/a", "null");
  ExpectError("object({a = int})", "[]", "", "cannot convert a tuple");
  ExpectError("object({a = object({b = int})})", "{\"a\": {\"b\": \"q\"}}",
              "/a/b", "a number is required");
  // A resource reference is read as its stored object.
  ExpectOk("object({urn = string})",
           "{SIG:\"5cf8f73096256a8f31e491e813e4eb8e\",\"urn\":\"u\"}");
}

TEST_F(PclTest, Tuples) {
  ExpectOk("tuple([string, int])", "[\"a\", 1]");
  ExpectConvert("tuple([string, int])", "[1, \"2\"]", "[\"1\",2]");
  ExpectError("tuple([string, int])", "[\"a\"]", "",
              "a tuple of 2 elements is required, but the value has 1");
  ExpectError("tuple([string])", "[\"a\", \"b\"]", "", "tuple of 1");
  ExpectError("tuple([int])", "[null]", "/0");
}

TEST_F(PclTest, UnionsPreferUnchangedThenFirst) {
  ExpectOk("union(int, string)", "5");
  ExpectOk("union(int, string)", "\"x\"");
  ExpectOk("optional(string)", "null");
  ExpectOk("optional(string)", "\"a\"");
  ExpectConvert("optional(string)", "3", "\"3\"");
  // "1": bool comes before number in the sorted union.
  ExpectConvert("union(number, bool)", "\"1\"", "true");
  ExpectConvert("union(number, bool)", "\"2\"", "2");
  ExpectError("union(number, bool)", "[]", "", "cannot convert a tuple");
  // One real member: its own (deeper) error.
  ExpectError("optional(list(int))", "[\"x\"]", "/0", "a number is required");
}

TEST_F(PclTest, Enums) {
  ExpectOk("enum(string: \"red\", \"blue\")", "\"red\"");
  ExpectError("enum(string: \"red\", \"blue\")", "\"green\"", "",
              "\"green\" is not a member of enum(string: \"red\", \"blue\")");
  ExpectOk("enum(number: 1, 2.5)", "2.5");
  ExpectOk("enum(number: 1, 2.5)", "1.0");  // by value
  ExpectConvert("enum(number: 1, 2)", "\"2\"", "2");
  ExpectConvert("enum(string: \"1\")", "1", "\"1\"");
  ExpectError("enum(int: 1, 2)", "3", "", "not a member");
  ExpectError("enum(string: \"a\")", "[]", "", "cannot convert a tuple");
  ExpectOk("enum(bool: true)", "true");
  ExpectError("enum(bool: true)", "false", "", "not a member");
  ExpectOk("enum(string: \"a\")", std::string(kUnknown));
}

TEST_F(PclTest, AssetsAndArchives) {
  const std::string asset =
      "{SIG:\"c44067f5952c0a294b673a41bacd8c17\",\"text\":\"hi\"}";
  const std::string archive =
      "{SIG:\"0def7320c3a5731c473e5ecbe6d01bc7\",\"assets\":{}}";
  ExpectOk("Asset", asset);
  ExpectOk("Archive", archive);
  ExpectOk("union(Archive, Asset)", asset);
  ExpectError("Archive", asset, "", "cannot convert an Asset to Archive");
  ExpectError("string", asset, "", "cannot convert an Asset");  // §8
  ExpectError("map(string)", asset, "", "cannot convert an Asset");
  ExpectError("Asset", "\"path\"", "", "cannot convert a string to Asset");
}

TEST_F(PclTest, UnknownsAreOkEverywhere) {  // §1.4, §9.11
  for (std::string_view t : {"string", "int", "none", "list(int)",
                             "object({a = int})", "promise(int)", "Asset"}) {
    ExpectOk(t, std::string(kUnknown));
  }
  ExpectOk("list(int)", "[1, " + std::string(kUnknown) + "]");
  ExpectOk("object({a = int})", "{\"a\": " + std::string(kUnknown) + "}");
  // Other RPC sentinels are plain strings (§1.2).
  ExpectError("bool", "\"1c4a061d-8072-4f0a-a4cb-0ff528b18fe7\"", "",
              "a bool is required");
}

// --- §4.8 secrets and promises ----------------------------------------------

TEST_F(PclTest, SecretsAreOutputs) {
  ExpectOk("output(string)", Secret("\"x\""));
  ExpectOk("any", Secret("\"x\""));
  ExpectOk("union(output(string), string)", Secret("\"x\""));
  // §8: a secret where a plain T is expected is an error.
  ExpectError("string", Secret("\"x\""), "", "use output(string)");
  ExpectOk("list(output(string))", "[" + Secret("\"x\"") + "]");
  ExpectError("list(string)", "[" + Secret("\"x\"") + "]", "/0",
              "use output(string)");
  ExpectOk("list(output(string))", "[\"a\"]");  // plain values are lifted
  ExpectError("promise(string)", Secret("\"x\""), "", "does not accept");
  ExpectOk("promise(string)", "\"x\"");
  ExpectOk("output(string)", "\"x\"");
  // A converted secret stays a secret.
  ExpectConvert("output(string)", Secret("5"),
                "{SIG:\"1b47061264138c4ac30d75fd1eb44270\","
                "\"plaintext\":\"\\\"5\\\"\"}");
  ExpectConvert("map(output(int))", "{\"a\":" + Secret("\"7\"") + "}",
                "{\"a\":{SIG:\"1b47061264138c4ac30d75fd1eb44270\","
                "\"plaintext\":\"7\"}}");
  // §9.8: ciphertext only is accepted where a secret is allowed.
  const std::string cipher =
      "{SIG:\"1b47061264138c4ac30d75fd1eb44270\",\"ciphertext\":\"v1:x\"}";
  ExpectOk("output(int)", cipher);
  ExpectError("int", cipher, "", "secret");
}

TEST_F(PclTest, ErrorsInsideSecretsDoNotQuoteThePlaintext) {
  Verdict r = Check("output(enum(string: \"a\"))", Secret("\"hunter2\""));
  EXPECT_EQ(r.outcome, Outcome::kError);
  EXPECT_EQ(r.message.find("hunter2"), std::string::npos) << r.message;
  r = Check("output(object({a = object({b = int})}))",
            Secret("{\"a\":{\"b\":\"hunter2\"}}"));
  EXPECT_EQ(r.outcome, Outcome::kError);
  EXPECT_EQ(r.message.find("hunter2"), std::string::npos) << r.message;
  EXPECT_EQ(r.pointer, "/*/*");  // keys inside a secret are hidden
  r = Check("output(list(int))", Secret("[1,\"hunter2\"]"));
  EXPECT_EQ(r.pointer, "/1");
  EXPECT_EQ(r.message.find("hunter2"), std::string::npos);
}

TEST_F(PclTest, MalformedSignaturesAreErrors) {
  ExpectError("any", "{SIG:\"d0e6a833031e9bbcd3f4e8bde6ca49a4\"}", "",
              "unrecognized signature");
  ExpectError("list(any)", "[1, {SIG:\"1b47061264138c4ac30d75fd1eb44270\"}]",
              "/1");
  ExpectError("any", "{\"a\": [{SIG:\"bogus\"}]}", "/a/0");
}

TEST_F(PclTest, SpecialFloatsAndByteStrings) {
  const std::string inf =
      "{SIG:\"8ad145fe-0d11-4827-bfd7-1abcbf086f5c\","
      "\"value\":\"7ff0000000000000\"}";
  const std::string nan =
      "{SIG:\"8ad145fe-0d11-4827-bfd7-1abcbf086f5c\","
      "\"value\":\"7ff8000000000001\"}";
  const std::string bytes =
      "{SIG:\"803fd3297a5875dc03ca845dda5d2a98\",\"value\":\"/w==\"}";
  ExpectOk("number", inf);
  ExpectConvert("string", inf, "\"+Inf\"");
  ExpectError("int", inf, "", "infinity");
  ExpectError("number", nan, "", "NaN");
  ExpectOk("any", nan);
  ExpectOk("string", bytes);
  ExpectError("number", bytes, "", "a number is required");
  ExpectError("bool", bytes, "", "a bool is required");
}

TEST_F(PclTest, AnyStillRejectsMalformedInsideSecrets) {
  ExpectOk("any", Secret("{\"a\":[1,2]}"));
  Verdict r = Check("any", Secret(Expand("{\"k\":{SIG:\"bogus\"}}")));
  EXPECT_EQ(r.outcome, Outcome::kError);
  EXPECT_EQ(r.pointer, "/*");
  EXPECT_NE(r.message.find("inside a secret"), std::string::npos);
}

// --- §4.5 assignability
// -------------------------------------------------------

TEST_F(PclTest, Assignability) {
  auto A = [&](std::string_view d, const TypePtr& s) {
    return pcl::AssignableFrom(*T(d), *s);
  };
  EXPECT_TRUE(A("any", T("list(int)")));
  EXPECT_TRUE(A("int", V("5")));        // const uses its type
  EXPECT_FALSE(A("number", T("int")));  // stricter than conversion
  EXPECT_FALSE(A("string", T("int")));
  EXPECT_TRUE(A("list(int)", T("list(int)")));
  EXPECT_TRUE(A("list(int)", V("[1, 2]")));
  EXPECT_FALSE(A("list(int)", V("[1, \"a\"]")));
  EXPECT_TRUE(A("set(int)", T("set(int)")));
  EXPECT_FALSE(A("set(int)", T("list(int)")));
  EXPECT_TRUE(A("map(int)", V("{\"a\": 1}")));
  EXPECT_TRUE(A("object({a = int})", V("{\"a\": 1, \"b\": \"x\"}")));
  EXPECT_FALSE(A("object({a = int})", V("{}")));
  EXPECT_TRUE(A("object({a = optional(int)})", V("{}")));
  EXPECT_TRUE(A("tuple([int, optional(int)])", V("[1]")));
  EXPECT_FALSE(A("tuple([int, int])", V("[1]")));
  EXPECT_TRUE(A("union(int, string)", T("string")));
  EXPECT_TRUE(A("output(int)", T("output(int)")));
  EXPECT_TRUE(A("output(int)", T("promise(int)")));
  EXPECT_TRUE(A("output(int)", T("int")));
  EXPECT_TRUE(A("promise(int)", T("int")));
  EXPECT_FALSE(A("promise(int)", T("output(int)")));
  EXPECT_TRUE(A("Asset", T("Asset")));
  EXPECT_FALSE(A("Asset", T("Archive")));
  EXPECT_TRUE(A("enum(int: 1)", T("enum(int: 1)")));
  EXPECT_FALSE(A("enum(int: 1)", T("int")));
}

// --- §4.7 unification
// ---------------------------------------------------------

TEST_F(PclTest, Unification) {
  auto U = [&](std::string_view a, std::string_view b) {
    return pcl::Unify(T(a), T(b));
  };
  pcl::Unified u = U("string", "string");
  EXPECT_EQ(u.type->text, "string");
  EXPECT_EQ(u.kind, ConversionKind::kSafe);
  u = U("any", "int");
  EXPECT_EQ(u.type->text, "int");
  EXPECT_EQ(u.kind, ConversionKind::kUnsafe);
  u = U("int", "number");  // number <- int is Safe, int <- number Unsafe
  EXPECT_EQ(u.type->text, "number");
  EXPECT_EQ(u.kind, ConversionKind::kSafe);
  u = U("string", "int");
  EXPECT_EQ(u.type->text, "string");
  u = U("list(int)", "Asset");  // no conversion either way
  EXPECT_EQ(u.type->text, "union(Asset, list(int))");
  EXPECT_EQ(u.kind, ConversionKind::kSafe);
  u = U("bool", "number");  // no conversion either way: a union
  EXPECT_EQ(u.type->text, "union(bool, number)");
  u = U("int", "enum(int: 1)");  // None vs Unsafe: the unsafe direction wins
  EXPECT_EQ(u.type->text, "enum(int: 1)");
  EXPECT_EQ(u.kind, ConversionKind::kUnsafe);
  // Objects: keys on one side only become optional.
  u = pcl::Unify(V("{\"a\": 1}"), V("{\"b\": \"x\"}"));
  EXPECT_EQ(u.type->kind, pcl::Kind::kObject);
  ASSERT_EQ(u.type->properties.size(), 2u);
  EXPECT_EQ(u.type->properties[0].second->kind, pcl::Kind::kUnion);
  // set + list -> list; list + tuple -> list; object + map -> map.
  EXPECT_EQ(U("set(string)", "list(string)").type->kind, pcl::Kind::kList);
  EXPECT_EQ(U("set(int)", "set(int)").type->text, "set(int)");
  EXPECT_EQ(pcl::Unify(T("list(int)"), V("[1, 2]")).type->text, "list(int)");
  EXPECT_EQ(pcl::Unify(T("map(int)"), V("{\"a\": 1}")).type->text, "map(int)");
  // Tuples of different lengths: extra positions become optional.
  u = pcl::Unify(T("tuple([int, string])"), T("tuple([int])"));
  EXPECT_EQ(u.type->text, "tuple([int, union(none, string)])");
  // Enums unify with nothing but themselves.
  EXPECT_EQ(U("enum(int: 1)", "enum(int: 1)").kind, ConversionKind::kSafe);
  EXPECT_EQ(U("enum(int: 1)", "list(int)").type->kind, pcl::Kind::kUnion);
}

TEST_F(PclTest, UnifyTypesKeepsSafeAndUnsafeAnswers) {
  std::vector<TypePtr> types = {T("int"), T("number")};
  auto [safe, unsafe] = pcl::UnifyTypes(types);
  EXPECT_EQ(safe->text, "number");
  EXPECT_EQ(unsafe->text, "number");
  types = {T("int"), T("enum(int: 1)")};
  std::tie(safe, unsafe) = pcl::UnifyTypes(types);
  EXPECT_EQ(safe->text, "union(enum(int: 1), int)");
  EXPECT_EQ(unsafe->text, "enum(int: 1)");
  std::tie(safe, unsafe) = pcl::UnifyTypes({});
  EXPECT_EQ(safe->text, "none");
}

// --- §8, the pcl column, in one place ---------------------------------------

TEST_F(PclTest, SideBySideColumn) {
  ExpectConvert("number", "\"42\"", "42");
  ExpectConvert("string", "42", "\"42\"");
  ExpectConvert("bool", "\"true\"", "true");
  ExpectOk("object({a = int})", "{\"a\": 1, \"b\": 2}");
  ExpectError("object({a = int, b = int})", "{\"a\": 1}");
  ExpectError("list(string)", "[\"a\", null]", "/1");
  ExpectConvert("set(string)", "[\"a\", \"a\"]", "[\"a\"]");
  ExpectError("tuple([int, int])", "[1]");
  ExpectOk("number", "9007199254740993");
  ExpectError("string", Secret("\"s\""));
  ExpectOk("string", std::string(kUnknown));
  ExpectError("string",
              "{SIG:\"c44067f5952c0a294b673a41bacd8c17\",\"text\":\"x\"}");
}

}  // namespace
}  // namespace pstate::types
