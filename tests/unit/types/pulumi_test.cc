#include "types/pulumi.h"

#include <gtest/gtest.h>

#include "check_helpers.h"

namespace pstate::types {
namespace {

using testing::Checker;
using testing::Show;

struct Case {
  const char* type;   // the type string (not JSON-quoted)
  const char* value;  // JSON (with SIG/UNK/... shorthands)
  const char* want;   // "ok", "convert <json>", "error <pointer>"
};

std::string Quote(std::string_view type) {
  std::string s = "\"";
  for (char c : type) {
    if (c == '"' || c == '\\') s.push_back('\\');
    s.push_back(c);
  }
  return s + "\"";
}

void RunCases(const std::vector<Case>& cases) {
  Checker checker(System::kPulumi);
  for (const Case& c : cases) {
    Result<Verdict> r = checker.Run(Quote(c.type), c.value);
    ASSERT_TRUE(r.ok()) << c.type << ": " << r.status().message();
    std::string want = c.want;
    std::string got(OutcomeName(r->outcome));
    if (r->outcome == Outcome::kConvert) got += " " + r->converted;
    if (r->outcome == Outcome::kError) got += " " + r->pointer;
    if (want == "error") want = "error ";
    EXPECT_EQ(got, want) << c.type << " <- " << c.value << "\n" << Show(r);
  }
}

TEST(PulumiTest, Primitives) {
  RunCases({
      {"Null", "null", "ok"},
      {"Null", "0", "error"},
      {"Bool", "true", "ok"},
      {"Bool", "false", "ok"},
      {"Bool", "\"true\"", "error"},  // §8: no string conversions
      {"Bool", "1", "error"},
      {"Number", "42", "ok"},
      {"Number", "1.5e3", "ok"},
      {"Number", "0.1", "ok"},
      {"Number", "\"42\"", "error"},  // §8
      {"Number", "true", "error"},
      {"Number", "null", "error"},
      {"String", "\"x\"", "ok"},
      {"String", "42", "error"},  // §8
      {"String", "null", "error"},
      {"String", "UNK", "error"},
  });
}

TEST(PulumiTest, BigNumbersRoundThroughFloat64) {
  RunCases({
      // §8: 2^53+1 becomes the nearest double (§9.13).
      {"Number", "9007199254740993", "convert 9007199254740992"},
      {"Number", "9007199254740992", "ok"},
      // 2^70 is held exactly by a float64.
      {"Number", "1180591620717411303424", "ok"},
      {"Number", "1e400", "error"},
      {"Number", "-1e400", "error"},
      {"Array<Number>", "[1,9007199254740993]", "convert [1,9007199254740992]"},
  });
}

TEST(PulumiTest, SpecialFloatsAndByteStrings) {
  RunCases({
      {"Number",
       R"({SIG:"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"7ff0000000000000"})",
       "ok"},
      {"String",
       R"({SIG:"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"7ff0000000000000"})",
       "error"},
      {"String", R"({SIG:"803fd3297a5875dc03ca845dda5d2a98","value":"/w=="})",
       "ok"},
      {"Number", R"({SIG:"803fd3297a5875dc03ca845dda5d2a98","value":"/w=="})",
       "error"},
      {"String", R"({SIG:"803fd3297a5875dc03ca845dda5d2a98","value":"!"})",
       "error"},
  });
}

TEST(PulumiTest, AssetsArchivesAndReferences) {
  RunCases({
      {"Asset", R"({SIG:ASSET,"text":"hi"})", "ok"},
      {"Archive", R"({SIG:ARCHIVE,"assets":{}})", "ok"},
      // An archive is not an asset in the formal system (§2.2).
      {"Asset", R"({SIG:ARCHIVE,"assets":{}})", "error"},
      {"Archive", R"({SIG:ASSET,"text":"hi"})", "error"},
      // §8: an asset where a string is expected.
      {"String", R"({SIG:ASSET,"text":"hi"})", "error"},
      {"Asset", R"({SIG:ASSET,"text":5})", "error"},
      {"ResourceReference", R"({SIG:REF,"urn":"urn:pulumi:s::p::t::n"})", "ok"},
      {"ResourceReference", R"({SIG:REF})", "error"},
      {"String", R"({SIG:REF,"urn":"u","id":"i"})", "error"},
      {"Map<String>", R"({SIG:ASSET,"text":"hi"})", "error"},
      // OutputValue signatures never appear in a state.
      {"Map<String>", R"({SIG:"d0e6a833031e9bbcd3f4e8bde6ca49a4"})", "error"},
  });
}

TEST(PulumiTest, Collections) {
  RunCases({
      {"Array<String>", "[]", "ok"},
      {"Array<String>", "[\"a\",\"b\"]", "ok"},
      {"Array<String>", "[\"a\",null]", "error /1"},  // §8 null in array
      {"Array<String>", "{}", "error"},
      {"Map<Number>", "{\"a\":1,\"b\":2}", "ok"},
      {"Map<Number>", "{\"a\":1,\"b\":\"2\"}", "error /b"},
      {"Map<Number>", "[]", "error"},
      {"Tuple<String, Number>", "[\"a\",1]", "ok"},
      {"Tuple<String, Number>", "[\"a\"]", "error"},  // §8 wrong length
      {"Tuple<String, Number>", "[\"a\",1,2]", "error"},
      {"Tuple<String, Number>", "[1,\"a\"]", "error /0"},
      {"Tuple<>", "[]", "ok"},
  });
}

TEST(PulumiTest, ObjectsAreClosedAndMissingIsNull) {
  RunCases({
      {R"(Object<"a", String, "b", Number>)", R"({"a":"x","b":1})", "ok"},
      // §8: an extra key is an error (§9.7).
      {R"(Object<"a", String>)", R"({"a":"x","c":1})", "error /c"},
      // §8: a required attribute missing.
      {R"(Object<"a", String, "b", Number>)", R"({"a":"x"})", "error /b"},
      // A missing key counts as Null.
      {R"(Object<"a", String, "b", Union<Number, Null>>)", R"({"a":"x"})",
       "ok"},
      {R"(Object<"a", String, "b", Null>)", R"({"a":"x","b":null})", "ok"},
      {"Object<>", "{}", "ok"},
      {"Object<>", "{\"a\":1}", "error /a"},
      {R"(Object<"a/b", String>)", R"({"a/b":1})", "error /a~1b"},
      {R"(Object<"n", Number>)", R"({"n":9007199254740993})",
       R"(convert {"n":9007199254740992})"},
  });
}

TEST(PulumiTest, UnionsAndEnums) {
  RunCases({
      {"Union<String, Number>", "1", "ok"},
      {"Union<String, Number>", "\"a\"", "ok"},
      {"Union<String, Number>", "true", "error"},
      {"Union<Number>", "9007199254740993", "convert 9007199254740992"},
      // An unchanged member wins over an earlier converting one.
      {"Union<Number, Null>", "null", "ok"},
      {R"(Enum<String, "a", "b">)", "\"a\"", "ok"},
      {R"(Enum<String, "a", "b">)", "\"A\"", "error"},
      {R"(Enum<String, "a", "b">)", "1", "error"},
      {"Enum<Number, 1, 2.5>", "1.0", "ok"},
      {"Enum<Number, 1, 2.5>", "25e-1", "ok"},
      {"Enum<Number, 1, 2.5>", "3", "error"},
      {"Enum<Bool, true>", "true", "ok"},
      {"Enum<Bool, true>", "false", "error"},
  });
}

TEST(PulumiTest, UnknownsOnlyUnderOutputOrInput) {
  RunCases({
      {"Output<String>", "UNK", "ok"},
      {"Input<String>", "UNK", "ok"},
      {"Input<String>", "\"a\"", "ok"},
      {"Promise<String>", "UNK", "error"},
      {"Promise<String>", "\"a\"", "ok"},
      {"Array<String>", "UNK", "error"},
      // §2.4 consequences.
      {"Output<Array<String>>", R"(["a",UNK])", "error /1"},
      {"outputShape(Array<String>)", R"(["a",UNK])", "ok"},
      {"Union<String, Output<Number>>", "UNK", "ok"},
      // Other RPC sentinels are plain strings in a state (§1.2).
      {"Output<Bool>", "\"1c4a061d-8072-4f0a-a4cb-0ff528b18fe7\"", "error"},
  });
}

TEST(PulumiTest, SecretsAreOutputMetadata) {
  RunCases({
      {"Output<String>", R"({SIG:SECRET,"plaintext":"\"s\""})", "ok"},
      {"Output<String>", R"({SIG:SECRET,"ciphertext":"AAAA"})", "ok"},
      {"Output<Number>", R"({SIG:SECRET,"plaintext":"\"s\""})", "error"},
      // §8: a secret where a plain T is expected.
      {"String", R"({SIG:SECRET,"plaintext":"\"s\""})", "error"},
      {"Promise<String>", R"({SIG:SECRET,"plaintext":"\"s\""})", "error"},
      {"Input<Array<String>>", R"([{SIG:SECRET,"plaintext":"\"a\""}])",
       "error /0"},
      {"inputShape(Array<String>)", R"([{SIG:SECRET,"plaintext":"\"a\""}])",
       "ok"},
      {"Output<String>", R"({SIG:SECRET})", "error"},
      // A converted secret stays a secret.
      {"Output<Number>", R"({SIG:SECRET,"plaintext":"9007199254740993"})",
       R"(convert {"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","plaintext":"9007199254740992"})"},
      // Inside a secret, object keys are hidden in pointers.
      {R"(Output<Map<Number>>)", R"({SIG:SECRET,"plaintext":"{\"k\":\"v\"}"})",
       "error /*"},
  });
}

TEST(PulumiTest, ShapeFunctions) {
  RunCases({
      {"plainShape(Array<Output<String>>)", R"(["a"])", "ok"},
      {"plainShape(Array<Output<String>>)", R"([UNK])", "error /0"},
      {"plainShape(Output<Array<Output<String>>>)", R"([UNK])", "ok"},
      {"inputShape(String)", "UNK", "ok"},
      {"inputShape(Promise<String>)", "UNK", "ok"},
      {R"(outputShape(Object<"a", String>))", R"({"a":UNK})", "ok"},
      {R"(plainShape(Object<"a", Output<String>>))", R"({"a":UNK})",
       "error /a"},
      {"plainShape(Union<Output<String>, Number>)", "UNK", "error"},
  });
}

TEST(PulumiTest, SecretPlaintextNeverInMessages) {
  Checker checker(System::kPulumi);
  Result<Verdict> r = checker.Run("\"Output<Number>\"",
                                  R"({SIG:SECRET,"plaintext":"\"hunter2\""})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, Outcome::kError);
  EXPECT_EQ(r->message.find("hunter2"), std::string::npos) << r->message;
  EXPECT_NE(r->message.find("inside a secret"), std::string::npos);
}

TEST(PulumiTest, ParseErrorsSayWhere) {
  Checker checker(System::kPulumi);
  struct Bad {
    const char* type;
    const char* message;
  } bad[] = {
      {"Strin", "at offset 0 of the type: unknown type name 'Strin'"},
      {"Array<String", "at offset 12 of the type: expected '>'"},
      {"Array<>", "at offset 6 of the type: expected a type"},
      {"Map<String> x", "at offset 12 of the type: unexpected text after"},
      {R"(Object<"a", String, "a", Number>)",
       "at offset 20 of the type: object key repeats"},
      {"Object<a, String>", "at offset 7 of the type: expected a JSON"},
      {"Enum<String>", "at offset 11 of the type: expected ','"},
      {"Enum<String, null>", "at offset 13 of the type: expected a JSON"},
      {"Union<>", "at offset 6 of the type: expected a type"},
      {"", "at offset 0 of the type: expected a type"},
  };
  for (const Bad& b : bad) {
    Result<Verdict> r = checker.Run(Quote(b.type), "null");
    ASSERT_FALSE(r.ok()) << b.type;
    EXPECT_EQ(r.status().code(), Errc::kSyntax);
    EXPECT_EQ(r.status().message().rfind(b.message, 0), 0u)
        << b.type << ": " << r.status().message();
  }
  Result<Verdict> not_string = checker.Run("{}", "null");
  EXPECT_FALSE(not_string.ok());
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "Array<";
  EXPECT_FALSE(checker.Run(Quote(deep), "null").ok());
}

TEST(PulumiTest, WhitespaceAndEscapes) {
  RunCases({
      {" Array < String > ", R"(["a"])", "ok"},
      {R"(Object<"\u0061", String>)", R"({"a":"x"})", "ok"},
      {R"(Enum<String, "\u00e9">)", R"("é")", "ok"},
  });
}

TEST(PulumiTest, TypesAreCachedByText) {
  Checker checker(System::kPulumi);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(checker.Run("\"Array<String>\"", "[]").ok());
    ASSERT_FALSE(checker.Run("\"Array<\"", "[]").ok());
  }
  EXPECT_EQ(checker.cache().parsed(), 2u);
}

}  // namespace
}  // namespace pstate::types
