// The cty language: type-systems reference §5, the cty column of §8 and the
// §9 resolutions that concern cty. Cases were written from the reference
// and go-cty's cty/convert behaviour.
#include "types/cty.h"

#include <gtest/gtest.h>

#include <string>

#include "json/parser.h"

namespace pstate::types {
namespace {

constexpr char kSecretPrefix[] =
    R"({"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","plaintext":)";

// A plaintext secret object holding `inner_json`.
std::string Secret(const std::string& inner_json) {
  std::string quoted = "\"";
  for (char c : inner_json) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  quoted += '"';
  return kSecretPrefix + quoted + "}";
}

class CtyTest : public ::testing::Test {
 protected:
  json::Value ParseJson(const std::string& text) {
    json::Parser parser;
    json::Value v;
    EXPECT_EQ(parser.ParseDocument(text, 0, arena_, &v), json::ParseStatus::kOk)
        << text;
    return v;
  }

  Result<std::shared_ptr<const Type>> ParseType(const std::string& type_json) {
    return system_->Parse(ParseJson(type_json));
  }

  Verdict Check(const std::string& type_json, const std::string& value_json) {
    auto type = ParseType(type_json);
    EXPECT_TRUE(type.ok()) << type.status().message();
    if (!type.ok()) return ErrorVerdict("", "type did not parse");
    return system_->Check(**type, ParseJson(value_json));
  }

  void ExpectOk(const std::string& type, const std::string& value) {
    Verdict v = Check(type, value);
    EXPECT_EQ(v.outcome, Outcome::kOk)
        << type << " <- " << value << ": " << OutcomeName(v.outcome) << " "
        << v.converted << v.message;
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
  void ExpectTypeError(const std::string& type, const std::string& message) {
    auto t = ParseType(type);
    ASSERT_FALSE(t.ok()) << type;
    EXPECT_EQ(t.status().code(), Errc::kSyntax);
    EXPECT_NE(t.status().message().find(message), std::string::npos)
        << t.status().message();
  }

  json::Arena arena_;
  std::unique_ptr<TypeSystem> system_ = MakeCtySystem();
};

// ---- §5.2 the JSON type encoding ------------------------------------------

TEST_F(CtyTest, JsonTypePrimitivesAndDynamic) {
  ExpectOk(R"("string")", R"("a")");
  ExpectOk(R"("number")", "1");
  ExpectOk(R"("bool")", "true");
  ExpectOk(R"("dynamic")", R"({"a":[1,"x"]})");
}

TEST_F(CtyTest, JsonTypeCollectionsAndStructures) {
  ExpectOk(R"(["list","string"])", R"(["a"])");
  ExpectOk(R"(["map","number"])", R"({"a":1})");
  ExpectOk(R"(["set","bool"])", "[false,true]");
  ExpectOk(R"(["tuple",["string","number"]])", R"(["a",1])");
  ExpectOk(R"(["object",{"a":"string","b":["list","number"]}])",
           R"({"a":"x","b":[1]})");
  ExpectConvert(R"(["object",{"a":"string","b":"number"},["b"]])",
                R"({"a":"x"})", R"({"a":"x","b":null})");
}

TEST_F(CtyTest, JsonTypeErrorsSayWhere) {
  ExpectTypeError(R"("strin")",
                  "at / of the type: invalid primitive type name");
  ExpectTypeError(R"(["list"])", "at / of the type");
  ExpectTypeError(R"(["list","string","x"])",
                  "at /2 of the type: unexpected extra data");
  ExpectTypeError(R"(["map","nope"])", "at /1 of the type: invalid primitive");
  ExpectTypeError(R"(["frob","string"])",
                  "at /0 of the type: invalid complex type kind name");
  ExpectTypeError(R"(["object",{"a":"string"},["b"]])", "at /2/0 of the type");
  ExpectTypeError(R"(["object",{"a":["tuple",["x"]]}])", "at /1/a/1/0");
  ExpectTypeError("5", "invalid type description");
  ExpectTypeError("[]", "invalid complex type kind name");
  ExpectTypeError(R"(["object",{"a":"string"},["a"],1])",
                  "at /3 of the type: unexpected extra data");
}

TEST_F(CtyTest, JsonTypeGivenAsText) {
  // The command line passes the type as text; JSON inside a string works.
  ExpectOk(R"("[\"list\",\"string\"]")", R"(["a"])");
  ExpectTypeError(R"("[\"list\",")", "of the type");
}

TEST_F(CtyTest, TypeStringIsCanonical) {
  json::Arena arena;
  cty::TypeBuilder tb(arena);
  auto t = cty::ParseJsonType(
      ParseJson(R"(["object",{"b":"number","a":["tuple",["string"]]},["b"]])"),
      tb);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(cty::TypeString(*t),
            "object({a=tuple([string]),b=optional(number)})");
  EXPECT_EQ(cty::FriendlyName(
                tb.Collection(cty::Kind::kList, cty::DynamicType()), true),
            "list of any single type");
}

// ---- §5.3 state JSON to cty values -----------------------------------------

TEST_F(CtyTest, ArraysAreTuplesObjectsAreObjects) {
  ExpectOk(R"(["tuple",["string","bool"]])", R"(["a",true])");
  ExpectError(R"(["tuple",["string","bool"]])", R"(["a",1])", "/1",
              "bool required, but have number");
}

TEST_F(CtyTest, DuplicateKeysMustKeepTheirType) {
  ExpectError(R"("dynamic")", R"({"a":1,"a":"x"})", "/a",
              "duplicate \"a\" property");
  // Same type: the last one wins, as Go's decoder does.
  ExpectOk(R"(["object",{"a":"number"}])", R"({"a":1,"a":2})");
}

TEST_F(CtyTest, UnknownSentinelFitsEveryType) {
  const std::string unknown = R"("04da6b54-80e4-46f7-96ec-b56ff0331ba9")";
  for (const char* type :
       {R"("string")", R"("number")", R"(["list","string"])",
        R"(["object",{"a":"string"}])", R"(["tuple",["bool"]])"}) {
    ExpectOk(type, unknown);
  }
  ExpectOk(R"(["object",{"a":"number"}])",
           R"({"a":"04da6b54-80e4-46f7-96ec-b56ff0331ba9"})");
  // Other RPC sentinels are plain strings in a state (§1.2).
  ExpectError(R"("bool")", R"("1c4a061d-b8a3-4b6c-92a9-8a7b5d7a0e5b")", "",
              "a bool is required");
}

TEST_F(CtyTest, AssetsArchivesAndReferencesArePlainObjects) {
  const std::string asset =
      R"({"4dabf18193072939515e22adb298388d":"c44067f5952c0a294b673a41bacd8c17","hash":"x","text":"hi"})";
  ExpectError(R"("string")", asset, "", "string required, but have object");
  ExpectOk(R"(["map","string"])", asset);
  const std::string ref =
      R"({"4dabf18193072939515e22adb298388d":"5cf8f73096256a8f31e491e813e4eb8e","urn":"urn:pulumi:s::p::t::n"})";
  // The signature key is an attribute like any other, so it is dropped.
  ExpectConvert(R"(["object",{"urn":"string"}])", ref,
                R"({"urn":"urn:pulumi:s::p::t::n"})");
}

TEST_F(CtyTest, SpecialFloatsAreInfiniteNumbers) {
  const std::string inf =
      R"({"4dabf18193072939515e22adb298388d":"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"7ff0000000000000"})";
  const std::string neg_inf =
      R"({"4dabf18193072939515e22adb298388d":"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"fff0000000000000"})";
  const std::string nan =
      R"({"4dabf18193072939515e22adb298388d":"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"7ff8000000000001"})";
  ExpectOk(R"("number")", inf);
  ExpectConvert(R"("string")", inf, R"("+Inf")");
  ExpectConvert(R"(["set","number"])", "[" + inf + ",1," + neg_inf + ",1]",
                "[" + neg_inf + ",1," + inf + "]");
  ExpectError(R"("number")", nan, "", "NaN is not a valid cty number");
}

TEST_F(CtyTest, ByteStringsArePlainObjects) {
  ExpectError(
      R"("string")",
      R"({"4dabf18193072939515e22adb298388d":"803fd3297a5875dc03ca845dda5d2a98","value":"/w=="})",
      "", "string required, but have object");
}

TEST_F(CtyTest, MalformedSignaturesAreErrors) {
  ExpectError(
      R"("dynamic")",
      R"({"x":{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270"}})",
      "/x", "malformed secret");
  ExpectError(
      R"("dynamic")",
      R"({"4dabf18193072939515e22adb298388d":"d0e6a833031e9bbcd3f4e8bde6ca49a4"})",
      "", "");
}

// ---- §5.4.1 primitive conversions ------------------------------------------

TEST_F(CtyTest, StringToNumberParsesLikeBigParseFloat) {
  ExpectConvert(R"("number")", R"("42")", "42");
  ExpectConvert(R"("number")", R"("1e3")", "1000");
  ExpectConvert(R"("number")", R"("1E3")", "1000");
  ExpectConvert(R"("number")", R"("1e-3")", "0.001");
  ExpectConvert(R"("number")", R"("+5")", "5");
  ExpectConvert(R"("number")", R"(".5")", "0.5");
  ExpectConvert(R"("number")", R"("5.")", "5");
  ExpectConvert(R"("number")", R"("0001")", "1");
  ExpectConvert(R"("number")", R"("1p3")", "8");
  ExpectConvert(R"("number")", R"("1p-1")", "0.5");
  ExpectConvert(R"("number")", R"("-0")", "-0");
  ExpectConvert(R"("number")", R"("12345678901234567890123")",
                "12345678901234567890123");
}

TEST_F(CtyTest, StringToNumberRejectsWhatGoRejects) {
  for (const char* bad : {R"(" 1")", R"("1 ")", R"("0x10")", R"("0b101")",
                          R"("1_000")", R"("")", R"("NaN")", R"("Infinity")",
                          R"("hello")", R"("1e")", R"("--1")", R"(".")"}) {
    ExpectError(R"("number")", bad, "", "a number is required");
  }
}

TEST_F(CtyTest, InfinityIsANumberWrittenAsASpecialFloat) {
  ExpectConvert(
      R"("number")", R"("Inf")",
      R"({"4dabf18193072939515e22adb298388d":"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"7ff0000000000000"})");
  ExpectConvert(
      R"("number")", R"("-inf")",
      R"({"4dabf18193072939515e22adb298388d":"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"fff0000000000000"})");
}

TEST_F(CtyTest, NumberToStringIsPlainDecimal) {
  ExpectConvert(R"("string")", "42", R"("42")");
  ExpectConvert(R"("string")", "1e3", R"("1000")");
  ExpectConvert(R"("string")", "1e-7", R"("0.0000001")");
  ExpectConvert(R"("string")", "1.50", R"("1.5")");
  ExpectConvert(R"("string")", "-0", R"("-0")");
  ExpectConvert(R"("string")", "9007199254740993", R"("9007199254740993")");
}

TEST_F(CtyTest, BoolToStringAndBack) {
  ExpectConvert(R"("string")", "true", R"("true")");
  ExpectConvert(R"("string")", "false", R"("false")");
  ExpectConvert(R"("bool")", R"("true")", "true");
  ExpectConvert(R"("bool")", R"("1")", "true");
  ExpectConvert(R"("bool")", R"("false")", "false");
  ExpectConvert(R"("bool")", R"("0")", "false");
  ExpectError(R"("bool")", R"("TRUE")", "",
              "a bool is required; to convert from string, use lowercase "
              "\"true\"");
  ExpectError(R"("bool")", R"("False")", "", "use lowercase \"false\"");
  ExpectError(R"("bool")", R"("yes")", "", "a bool is required");
}

TEST_F(CtyTest, NoConversionBetweenNumberAndBool) {
  ExpectError(R"("bool")", "1", "", "bool required, but have number");
  ExpectError(R"("number")", "true", "", "number required, but have bool");
}

TEST_F(CtyTest, BigNumbersAreExact) {
  ExpectOk(R"("number")", "9007199254740993");
  ExpectOk(R"("number")", "1e400");
  ExpectConvert(R"(["set","number"])",
                "[9007199254740993,9007199254740992,9007199254740993]",
                "[9007199254740992,9007199254740993]");
}

// ---- §5.4.2 collections -----------------------------------------------------

TEST_F(CtyTest, LongMixedListsUnifyQuickly) {
  // Unification compares every pair of distinct element types; repeated
  // types must not make it quadratic in the length.
  std::string value = "[";
  std::string converted = "[";
  for (int i = 0; i < 20000; ++i) {
    if (i > 0) {
      value += ',';
      converted += ',';
    }
    value += i % 2 ? "\"a\"" : "1";
    converted += i % 2 ? "\"a\"" : "\"1\"";
  }
  value += ']';
  converted += ']';
  ExpectConvert(R"(["list","dynamic"])", value, converted);
}

TEST_F(CtyTest, TupleToListConvertsEachElement) {
  ExpectOk(R"(["list","string"])", R"(["a","b"])");
  ExpectOk(R"(["list","string"])", "[]");
  ExpectConvert(R"(["list","string"])", R"([1,"a"])", R"(["1","a"])");
  ExpectError(R"(["list","number"])", R"([1,"x"])", "/1",
              "a number is required");
  ExpectError(R"(["list","number"])", R"([1,{}])", "/1",
              "number required, but have object");
}

TEST_F(CtyTest, ListOfDynamicNeedsOneElementType) {
  ExpectConvert(R"(["list","dynamic"])", R"([1,"a"])", R"(["1","a"])");
  ExpectOk(R"(["list","dynamic"])", "[1,2]");
  ExpectOk(R"(["list","dynamic"])", "[null,1]");
  ExpectError(R"(["list","dynamic"])", R"([1,{"a":1}])", "",
              "all list elements must have the same type");
  ExpectError(R"(["list","dynamic"])", "[1,true]", "",
              "all list elements must have the same type");
  ExpectConvert(R"(["list","dynamic"])", R"([{"a":1},{"a":"x"}])",
                R"([{"a":"1"},{"a":"x"}])");
}

TEST_F(CtyTest, SetsAreDeduplicatedAndOrdered) {
  ExpectConvert(R"(["set","string"])", R"(["b","a","b"])", R"(["a","b"])");
  ExpectConvert(R"(["set","number"])", R"(["1",1])", "[1]");
  ExpectConvert(R"(["set","number"])", "[3,1,2,3]", "[1,2,3]");
  ExpectConvert(R"(["set","number"])", "[10,9,1.5,9]", "[1.5,9,10]");
  ExpectConvert(R"(["set","number"])", "[1,1.0]", "[1]");
  ExpectConvert(R"(["set","bool"])", "[true,false,true]", "[false,true]");
  // Strings compare bytewise: uppercase before lowercase.
  ExpectConvert(R"(["set","string"])", R"(["a","B","a"])", R"(["B","a"])");
  // Non-null before null; known before unknown.
  ExpectConvert(R"(["set","string"])", R"([null,"a","a"])", R"(["a",null])");
  ExpectConvert(R"(["set","string"])",
                R"(["04da6b54-80e4-46f7-96ec-b56ff0331ba9","a","a"])",
                R"(["a","04da6b54-80e4-46f7-96ec-b56ff0331ba9"])");
  // Converted elements make a converted set, written in cty's order.
  ExpectConvert(R"(["set","string"])", R"([2,1])", R"(["1","2"])");
  ExpectOk(R"(["set","string"])", "[]");
}

TEST_F(CtyTest, ASetInAnotherOrderIsUnchanged) {
  // A set's order means nothing (§0: set results compare without regard to
  // order), so a set with no duplicates and no changed element is ok.
  ExpectOk(R"(["set","number"])", "[1,2,3]");
  ExpectOk(R"(["set","number"])", "[3,1,2]");
  ExpectOk(R"(["set","string"])", R"(["b","a"])");
  ExpectOk(R"(["set","bool"])", "[true,false]");
  ExpectOk(R"(["set","string"])", R"([null,"a"])");
}

TEST_F(CtyTest, SetsOfObjectsOrderByCtyHashText) {
  // Objects order by their set-hash text (`<"x";>` vs `<"y";>`).
  ExpectConvert(R"(["set",["object",{"a":"string"}]])",
                R"([{"a":"y"},{"a":"x"},{"a":"y"}])",
                R"([{"a":"x"},{"a":"y"}])");
  ExpectConvert(R"(["set",["list","number"]])", "[[2],[10],[2]]", "[[10],[2]]");
}

TEST_F(CtyTest, ObjectToMap) {
  ExpectOk(R"(["map","string"])", R"({"a":"x"})");
  ExpectOk(R"(["map","string"])", "{}");
  ExpectConvert(R"(["map","string"])", R"({"a":1,"b":"x"})",
                R"({"a":"1","b":"x"})");
  ExpectError(R"(["map","number"])", R"({"a":1,"b":[]})", "/b",
              "number required, but have tuple");
  ExpectConvert(R"(["map","dynamic"])", R"({"a":{"x":1},"b":{"y":"z"}})",
                R"({"a":{"x":"1"},"b":{"y":"z"}})");
  ExpectError(R"(["map","dynamic"])", R"({"a":1,"b":[1]})", "",
              "all map elements must have the same type");
}

TEST_F(CtyTest, NoConversionBetweenKinds) {
  ExpectError(R"(["list","string"])", R"({"a":"x"})", "",
              "list of string required");
  ExpectError(R"(["map","string"])", R"(["x"])", "", "map of string required");
  ExpectError(R"(["list","string"])", R"("x")", "", "list of string required");
  ExpectError(R"("string")", R"(["x"])", "", "string required");
  ExpectError(R"(["object",{"a":"string"}])", R"(["x"])", "",
              "object required");
}

// ---- §5.4.3 objects and tuples
// -----------------------------------------------

TEST_F(CtyTest, ExtraAttributesAreDropped) {
  ExpectConvert(R"(["object",{"a":"string"}])", R"({"a":"x","b":1})",
                R"({"a":"x"})");
}

TEST_F(CtyTest, MissingAttributes) {
  ExpectError(R"(["object",{"a":"string"}])", "{}", "",
              "attribute \"a\" is required");
  ExpectError(R"(["object",{"a":"string","b":"string"}])", "{}", "",
              "attributes \"a\" and \"b\" are required");
  ExpectError(R"(["object",{"a":"string","b":"string","c":"bool"}])", "{}", "",
              "attributes \"a\", \"b\", and \"c\" are required");
  ExpectConvert(R"(["object",{"a":"string"},["a"]])", "{}", R"({"a":null})");
  ExpectOk(R"(["object",{"a":"string"},["a"]])", R"({"a":"x"})");
}

TEST_F(CtyTest, NestedFailuresPointAtTheDeepestPlace) {
  ExpectError(R"(["object",{"o":["object",{"x":"bool"}]}])", R"({"o":{"x":1}})",
              "/o/x", "bool required, but have number");
  ExpectError(R"(["list",["object",{"n":"number"}]])",
              R"([{"n":1},{"n":"two"}])", "/1/n", "a number is required");
  ExpectError(R"(["map",["list","bool"]])", R"({"k":["true","maybe"]})", "/k/1",
              "a bool is required");
}

TEST_F(CtyTest, TupleLengthMustMatch) {
  ExpectConvert(R"(["tuple",["string","string"]])", R"([1,"a"])",
                R"(["1","a"])");
  ExpectError(R"(["tuple",["number","number"]])", "[1]", "",
              "2 elements are required, but got 1");
  ExpectError(R"(["tuple",["number"]])", "[1,2]", "",
              "1 elements are required, but got 2");
}

// ---- §5.4.4 nulls, unknowns, marks
// -------------------------------------------

TEST_F(CtyTest, NullsAreAllowedEverywhere) {
  ExpectOk(R"("string")", "null");
  ExpectOk(R"(["list","string"])", "null");
  ExpectOk(R"(["list","string"])", R"(["a",null])");
  ExpectOk(R"(["object",{"a":"number"}])", R"({"a":null})");
}

TEST_F(CtyTest, SecretsKeepTheirMark) {
  ExpectOk(R"("string")", Secret(R"("x")"));
  ExpectConvert(R"("number")", Secret(R"("42")"), Secret("42"));
  ExpectOk(R"(["list","string"])", "[\"a\"," + Secret(R"("b")") + "]");
  ExpectConvert(R"(["list","string"])", "[" + Secret("1") + "]",
                "[" + Secret(R"("1")") + "]");
  ExpectConvert(R"(["object",{"a":"string"}])", Secret(R"({"a":"x","b":1})"),
                Secret(R"({"a":"x"})"));
}

TEST_F(CtyTest, SetElementsGiveTheirMarkToTheSet) {
  // cty.SetVal cannot hold marked elements: the whole set is marked.
  ExpectConvert(R"(["set","string"])", "[\"b\"," + Secret(R"("a")") + "]",
                Secret(R"(["a","b"])"));
}

TEST_F(CtyTest, CiphertextOnlySecretsAreUnknownContent) {
  const std::string cipher =
      R"({"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","ciphertext":"djE6abc"})";
  ExpectOk(R"("number")", cipher);
  ExpectOk(R"(["object",{"a":"string"}])", cipher);
  ExpectOk(R"(["list","string"])", "[" + cipher + "]");
}

TEST_F(CtyTest, ErrorsInsideSecretsDoNotShowThePlaintext) {
  Verdict v =
      Check(R"(["object",{"pw":"number"}])", Secret(R"({"pw":"hunter2"})"));
  EXPECT_EQ(v.outcome, Outcome::kError);
  EXPECT_EQ(v.message.find("hunter2"), std::string::npos) << v.message;
  EXPECT_EQ(v.pointer, "/*");
  EXPECT_EQ(v.message, "inside a secret: a number is required");

  // The casing hint would describe the secret text.
  v = Check(R"("bool")", Secret(R"("TRUE")"));
  EXPECT_EQ(v.outcome, Outcome::kError);
  EXPECT_EQ(v.message, "inside a secret: a bool is required");

  v = Check(R"(["map","number"])", Secret(R"({"token":"abc"})"));
  EXPECT_EQ(v.outcome, Outcome::kError);
  EXPECT_EQ(v.pointer, "/*");
  EXPECT_EQ(v.message.find("token"), std::string::npos);
  EXPECT_EQ(v.message.find("abc"), std::string::npos);
}

// ---- §5.6 conformance, unification, and the engine API ---------------------

TEST_F(CtyTest, ConformanceIsEqualityWithDynamicAsWildcard) {
  json::Arena arena;
  cty::TypeBuilder tb(arena);
  auto parse = [&](const std::string& text) {
    auto t = cty::ParseJsonType(ParseJson(text), tb);
    EXPECT_TRUE(t.ok()) << text;
    return t.ok() ? *t : cty::DynamicType();
  };
  EXPECT_TRUE(cty::TestConformance(parse(R"(["list","string"])"),
                                   parse(R"(["list","dynamic"])"))
                  .empty());
  EXPECT_TRUE(cty::TestConformance(parse(R"("number")"), parse(R"("dynamic")"))
                  .empty());
  auto errs =
      cty::TestConformance(parse(R"(["object",{"a":"string","x":"bool"}])"),
                           parse(R"(["object",{"a":"number","b":"bool"}])"));
  ASSERT_EQ(errs.size(), 3u);
  EXPECT_EQ(errs[0].message, "unsupported attribute \"x\"");
  EXPECT_EQ(errs[1].message, "missing required attribute \"b\"");
  EXPECT_EQ(errs[2].pointer, "/a");
  EXPECT_EQ(errs[2].message, "number required, but received string");
  errs = cty::TestConformance(parse(R"(["tuple",["string"]])"),
                              parse(R"(["tuple",["string","string"]])"));
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0].message, "2 elements are required, but got 1");
  errs = cty::TestConformance(parse(R"(["map","string"])"),
                              parse(R"(["map","number"])"));
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0].pointer, "/*");
  // Conformance is not conversion: a tuple does not conform to a list.
  EXPECT_FALSE(cty::TestConformance(parse(R"(["tuple",["string"]])"),
                                    parse(R"(["list","string"])"))
                   .empty());
}

TEST_F(CtyTest, UnifyPrefersStringAndFailsWithoutACommonType) {
  json::Arena arena;
  cty::Converter conv(arena);
  const cty::Type* num_str[] = {cty::NumberType(), cty::StringType()};
  EXPECT_EQ(conv.Unify(num_str, true), cty::StringType());
  const cty::Type* num_bool[] = {cty::NumberType(), cty::BoolType()};
  EXPECT_EQ(conv.Unify(num_bool, true), nullptr);
  EXPECT_EQ(conv.Unify({}, true), nullptr);
  const cty::Type* with_dyn[] = {cty::DynamicType(), cty::NumberType()};
  EXPECT_EQ(conv.Unify(with_dyn, true), cty::NumberType());
  auto& tb = conv.types();
  const cty::Attr ax[] = {{"x", cty::NumberType(), false}};
  const cty::Attr ay[] = {{"y", cty::StringType(), false}};
  const cty::Type* objs[] = {tb.Object(ax), tb.Object(ay)};
  const cty::Type* u = conv.Unify(objs, true);
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(cty::TypeString(u), "map(string)");
}

TEST_F(CtyTest, ListAndSetNeverConvertToTuple) {
  // §9.9: go-cty's docs chart says "unsafe", its code has no conversion.
  json::Arena arena;
  cty::Converter conv(arena);
  auto& tb = conv.types();
  const cty::Type* list = tb.Collection(cty::Kind::kList, cty::StringType());
  const cty::Type* set = tb.Collection(cty::Kind::kSet, cty::StringType());
  const cty::Type* one[] = {cty::StringType()};
  const cty::Type* tuple = tb.Tuple(one);
  EXPECT_FALSE(conv.HasConversion(list, tuple, true));
  EXPECT_FALSE(conv.HasConversion(set, tuple, true));
  // list -> set needs unsafe mode; set -> list and tuple -> set do not.
  EXPECT_FALSE(conv.HasConversion(list, set, false));
  EXPECT_TRUE(conv.HasConversion(list, set, true));
  EXPECT_TRUE(conv.HasConversion(set, list, false));
  EXPECT_TRUE(conv.HasConversion(tuple, set, false));
  // string -> number is unsafe; number -> string is safe.
  EXPECT_FALSE(conv.HasConversion(cty::StringType(), cty::NumberType(), false));
  EXPECT_TRUE(conv.HasConversion(cty::StringType(), cty::NumberType(), true));
  EXPECT_TRUE(conv.HasConversion(cty::NumberType(), cty::StringType(), false));
  // map -> object is unsafe only.
  const cty::Attr a[] = {{"a", cty::StringType(), false}};
  const cty::Type* map = tb.Collection(cty::Kind::kMap, cty::StringType());
  EXPECT_FALSE(conv.HasConversion(map, tb.Object(a), false));
  EXPECT_TRUE(conv.HasConversion(map, tb.Object(a), true));
}

TEST_F(CtyTest, ListValuesConvertToSetsAndMapsToObjects) {
  json::Arena arena;
  cty::Converter conv(arena);
  auto& tb = conv.types();
  cty::Val elems[] = {conv.MakeString("b"), conv.MakeString("a"),
                      conv.MakeString("b")};
  cty::Val list;
  list.type = tb.Collection(cty::Kind::kList, cty::StringType());
  list.count = 3;
  list.elems = elems;
  cty::Val out;
  cty::Failure failure;
  ASSERT_TRUE(conv.Convert(
      list, tb.Collection(cty::Kind::kSet, cty::StringType()), &out, &failure));
  std::string json;
  cty::WriteStateJson(out, &json);
  EXPECT_EQ(json, R"(["a","b"])");

  std::string_view keys[] = {"a", "z"};
  cty::Val vals[] = {conv.MakeString("1"), conv.MakeString("2")};
  cty::Val map;
  map.type = tb.Collection(cty::Kind::kMap, cty::StringType());
  map.count = 2;
  map.elems = vals;
  map.keys = keys;
  const cty::Attr attrs[] = {{"a", cty::NumberType(), false},
                             {"b", cty::NumberType(), true}};
  ASSERT_TRUE(conv.Convert(map, tb.Object(attrs), &out, &failure));
  json.clear();
  cty::WriteStateJson(out, &json);
  EXPECT_EQ(json, R"({"a":1,"b":null})");
  const cty::Attr required[] = {{"c", cty::StringType(), false}};
  EXPECT_FALSE(conv.Convert(map, tb.Object(required), &out, &failure));
  EXPECT_NE(failure.message.find("map has no element for required attribute"),
            std::string::npos);
}

TEST_F(CtyTest, NumberTextHelpers) {
  std::string s;
  EXPECT_TRUE(cty::NumberToString("1.5e2", &s));
  EXPECT_EQ(s, "150");
  s.clear();
  EXPECT_FALSE(cty::NumberToString("1e1000000", &s));
  int inf = 0;
  EXPECT_TRUE(cty::ParseNumberString("-Inf", &s, &inf));
  EXPECT_EQ(inf, -1);
  EXPECT_FALSE(cty::ParseNumberString("INF", &s, &inf));
}

// ---- §8 the cty column
// --------------------------------------------------------

TEST_F(CtyTest, SideBySideTableRows) {
  ExpectConvert(R"("number")", R"("42")", "42");
  ExpectConvert(R"("string")", "42", R"("42")");
  ExpectConvert(R"("bool")", R"("true")", "true");
  ExpectConvert(R"(["object",{"a":"number"}])", R"({"a":1,"extra":2})",
                R"({"a":1})");
  ExpectError(R"(["object",{"a":"number"}])", R"({})", "",
              "attribute \"a\" is required");
  ExpectOk(R"(["list","string"])", R"(["a",null])");
  ExpectConvert(R"(["set","string"])", R"(["a","a"])", R"(["a"])");
  ExpectError(R"(["tuple",["string"]])", R"(["a","b"])", "",
              "1 elements are required");
  ExpectOk(R"("number")", "9007199254740993");
  ExpectOk(R"("string")", Secret(R"("s")"));
  ExpectOk(R"("string")", R"("04da6b54-80e4-46f7-96ec-b56ff0331ba9")");
  ExpectError(
      R"("string")",
      R"({"4dabf18193072939515e22adb298388d":"c44067f5952c0a294b673a41bacd8c17","text":"x"})",
      "", "string required");
}

}  // namespace
}  // namespace pstate::types
