#include "types/pulumi_schema.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "check_helpers.h"
#include "types/schema_set.h"

namespace pstate::types {
namespace {

using testing::Checker;
using testing::Show;

std::string Fixture(const std::string& name) {
  return std::string(PSTATE_FIXTURES_DIR) + "/package-schemas/" + name;
}

class PulumiSchemaTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    set_ = new SchemaSet();
    for (const char* name :
         {"random.schema.json", "tls.schema.json", "command.schema.json",
          "docker-build.schema.json", "synth.schema.json"}) {
      Status s = set_->LoadFile(Fixture(name));
      ASSERT_TRUE(s.ok()) << s.message();
    }
  }
  static void TearDownTestSuite() {
    delete set_;
    set_ = nullptr;
  }

  struct Case {
    const char* type;   // JSON type spec
    const char* value;  // JSON value (SIG/UNK/... shorthands)
    const char* want;   // "ok", "convert <json>", "error <pointer>"
  };

  void RunCases(const std::vector<Case>& cases) {
    Checker checker(System::kPulumiSchema, set_);
    for (const Case& c : cases) {
      Result<Verdict> r = checker.Run(c.type, c.value);
      ASSERT_TRUE(r.ok()) << c.type << ": " << r.status().message();
      std::string want = c.want;
      std::string got(OutcomeName(r->outcome));
      if (r->outcome == Outcome::kConvert) got += " " + r->converted;
      if (r->outcome == Outcome::kError) got += " " + r->pointer;
      if (want == "error") want = "error ";
      EXPECT_EQ(got, want) << c.type << " <- " << c.value << "\n" << Show(r);
    }
  }

  static SchemaSet* set_;
};

SchemaSet* PulumiSchemaTest::set_ = nullptr;

TEST_F(PulumiSchemaTest, Primitives) {
  RunCases({
      {R"({"type":"boolean"})", "true", "ok"},
      {R"({"type":"boolean"})", "\"true\"", "error"},  // §8
      {R"({"type":"string"})", "\"a\"", "ok"},
      {R"({"type":"string"})", "42", "error"},  // §8, §9.5
      {R"({"type":"string"})", "true", "error"},
      {R"({"type":"number"})", "42", "ok"},
      {R"({"type":"number"})", "\"42\"", "error"},  // §8
      {R"({"type":"number"})", "9007199254740993",
       "convert 9007199254740992"},  // §8, §1.3
      {R"({"type":"number"})", "1e400", "error"},
      {R"({"type":"number"})",
       R"({SIG:"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"7ff8000000000001"})",
       "ok"},
      {R"({"type":"string"})",
       R"({SIG:"803fd3297a5875dc03ca845dda5d2a98","value":"/w=="})", "ok"},
      // §8: an asset where a string is expected.
      {R"({"type":"string"})", R"({SIG:ASSET,"text":"x"})", "error"},
      {R"({"type":"string"})", "null", "error"},
  });
}

TEST_F(PulumiSchemaTest, IntegersAreInt32AndIntegral) {
  RunCases({
      {R"({"type":"integer"})", "5", "ok"},
      {R"({"type":"integer"})", "5.0", "ok"},
      {R"({"type":"integer"})", "1e2", "ok"},
      {R"({"type":"integer"})", "5.5", "error"},  // §3.5: no truncation
      {R"({"type":"integer"})", "2147483647", "ok"},
      {R"({"type":"integer"})", "-2147483648", "ok"},
      {R"({"type":"integer"})", "2147483648", "error"},  // §9.1
      {R"({"type":"integer"})", "-2147483649", "error"},
      {R"({"type":"integer"})", "\"5\"", "error"},
      {R"({"type":"integer"})",
       R"({SIG:"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"7ff0000000000000"})",
       "error"},
  });
}

TEST_F(PulumiSchemaTest, ResourceReferenceToStringConverts) {
  RunCases({
      // rpc.go unmarshalOutput: a reference reads as its id, else its URN.
      {R"({"type":"string"})",
       R"({SIG:REF,"urn":"urn:pulumi:s::p::random:index/randomPet:RandomPet::n","id":"i-1"})",
       R"(convert "i-1")"},
      {R"({"type":"string"})",
       R"({SIG:REF,"urn":"urn:pulumi:s::p::c:index:C::n"})",
       R"(convert "urn:pulumi:s::p::c:index:C::n")"},
      {R"({"type":"string"})", R"({SIG:REF,"urn":"u","id":{"V":"legacy"}})",
       R"(convert "legacy")"},
      {R"({"type":"string"})", R"({SIG:REF,"urn":"u","id":{"V":{}}})",
       R"(convert "")"},
  });
}

TEST_F(PulumiSchemaTest, ArraysAndMaps) {
  RunCases({
      {R"({"type":"array","items":{"type":"string"}})", R"(["a","b"])", "ok"},
      // §8, §9.3: null in an array of strings.
      {R"({"type":"array","items":{"type":"string"}})", R"(["a",null])",
       "error /1"},
      {R"({"type":"array","items":{"type":"number"}})", "[1,9007199254740993]",
       "convert [1,9007199254740992]"},
      {R"({"type":"object","additionalProperties":{"type":"integer"}})",
       R"({"a":1,"b":2})", "ok"},
      {R"({"type":"object","additionalProperties":{"type":"integer"}})",
       R"({"a":1,"b":"2"})", "error /b"},
      // The element type defaults to string; "properties" is ignored.
      {R"({"type":"object"})", R"({"a":"x"})", "ok"},
      {R"({"type":"object"})", R"({"a":1})", "error /a"},
      {R"({"type":"object","properties":{"a":{"type":"integer"}}})",
       R"({"a":1})", "error /a"},
      {R"({"type":"object"})", R"({"a":null})", "error /a"},
      {R"({"type":"object"})", R"({SIG:ASSET,"text":"x"})", "error"},
      {R"({"type":"object"})", "[]", "error"},
  });
}

TEST_F(PulumiSchemaTest, BuiltIns) {
  RunCases({
      {R"({"$ref":"pulumi.json#/Any"})", "null", "ok"},
      {R"({"$ref":"pulumi.json#/Any"})", R"({SIG:ASSET,"text":"x"})", "ok"},
      {R"({"$ref":"pulumi.json#/Json"})", R"({"a":[1,true]})", "ok"},
      {R"({"$ref":"pulumi.json#/Asset"})", R"({SIG:ASSET,"text":"x"})", "ok"},
      // Asset accepts an archive (PCL's AssetOrArchive).
      {R"({"$ref":"pulumi.json#/Asset"})", R"({SIG:ARCHIVE,"assets":{}})",
       "ok"},
      {R"({"$ref":"pulumi.json#/Archive"})", R"({SIG:ARCHIVE,"path":"p"})",
       "ok"},
      {R"({"$ref":"pulumi.json#/Archive"})", R"({SIG:ASSET,"text":"x"})",
       "error"},
      {R"({"$ref":"pulumi.json#/Asset"})", R"("text")", "error"},
      {R"({"$ref":"pulumi.json#/AnyResource"})", R"({SIG:REF,"urn":"u"})",
       "ok"},
  });
}

TEST_F(PulumiSchemaTest, UnknownsSecretsAndPlain) {
  RunCases({
      {R"({"type":"string"})", "UNK", "ok"},  // §8 unknown
      {R"({"type":"array","items":{"type":"integer"}})", "[UNK]", "ok"},
      {R"({"type":"string","plain":true})", "UNK", "error"},
      // §8: a secret where a plain T is expected is transparent.
      {R"({"type":"string"})", R"({SIG:SECRET,"plaintext":"\"s\""})", "ok"},
      {R"({"type":"string"})", R"({SIG:SECRET,"ciphertext":"AAAA"})", "ok"},
      {R"({"type":"integer"})", R"({SIG:SECRET,"plaintext":"\"s\""})", "error"},
      {R"({"type":"number"})", R"({SIG:SECRET,"plaintext":"9007199254740993"})",
       R"(convert {"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","plaintext":"9007199254740992"})"},
      {R"({"type":"object","additionalProperties":{"type":"integer"}})",
       R"({SIG:SECRET,"plaintext":"{\"key\":\"v\"}"})", "error /*"},
      {R"({"type":"string"})", R"({SIG:SECRET})", "error"},
  });
}

TEST_F(PulumiSchemaTest, ObjectTypes) {
  RunCases({
      // command:remote:Connection: host is required; extra keys ignored.
      {R"({"$ref":"#/types/command:remote:Connection"})",
       R"({"host":"h","port":22,"extra":1})", "ok"},  // §8, §9.2
      {R"({"$ref":"#/types/command:remote:Connection"})", R"({"port":22})",
       "error /host"},  // §8 missing required
      {R"({"$ref":"#/types/command:remote:Connection"})", R"({"host":null})",
       "error /host"},
      {R"({"$ref":"#/types/command:remote:Connection"})",
       R"({"host":"h","port":null})", "ok"},  // optional: null is fine
      {R"({"$ref":"#/types/command:remote:Connection"})",
       R"({"host":"h","dialErrorLimit":1.5})", "error /dialErrorLimit"},
      // Nested object types.
      {R"({"$ref":"#/types/command:remote:Connection"})",
       R"({"host":"h","proxy":{"host":"p","port":"22"}})", "error /proxy/port"},
      // tls: a type without "type": "object" and no required list.
      {R"({"$ref":"#/types/tls:index/CertRequestSubject:CertRequestSubject"})",
       "{}", "ok"},
      {R"({"$ref":"#/types/command:remote:Connection"})", "[]", "error"},
      {R"({"$ref":"#/types/command:remote:Connection"})", "null", "error"},
      // A secret required property, as providers write them.
      {R"({"$ref":"#/types/command:remote:Connection"})",
       R"({"host":{SIG:SECRET,"plaintext":"\"h\""}})", "ok"},
  });
}

TEST_F(PulumiSchemaTest, Enums) {
  RunCases({
      {R"({"$ref":"#/types/command:local:Logging"})", R"("stdout")", "ok"},
      // §9.4: strict membership, case-sensitive.
      {R"({"$ref":"#/types/command:local:Logging"})", R"("STDOUT")", "error"},
      {R"({"$ref":"#/types/command:local:Logging"})", "1", "error"},
      {R"({"$ref":"#/types/synth:index:Size"})", "10", "ok"},
      {R"({"$ref":"#/types/synth:index:Size"})", "10.0", "ok"},
      {R"({"$ref":"#/types/synth:index:Size"})", "3", "error"},
      {R"({"$ref":"#/types/synth:index:Size"})", "\"10\"", "error"},
      {R"({"$ref":"#/types/synth:index:Weight"})", "1.5", "ok"},
      {R"({"$ref":"#/types/synth:index:Weight"})", "2.0", "ok"},
      {R"({"$ref":"#/types/synth:index:Weight"})", "3", "error"},
      {R"({"$ref":"#/types/synth:index:Flag"})", "true", "ok"},
      {R"({"$ref":"#/types/synth:index:Flag"})", "false", "error"},
      {R"({"$ref":"#/types/docker-build:index:Platform"})", R"("linux/amd64")",
       "ok"},
      // A #/types/ entry that is neither object nor enum: its "type".
      {R"({"$ref":"#/types/synth:index:Tag"})", R"("x")", "ok"},
      {R"({"$ref":"#/types/synth:index:Tag"})", "1", "error"},
  });
}

TEST_F(PulumiSchemaTest, UnionsDiscriminatorsAndConst) {
  const char* pet = R"({"$ref":"#/types/synth:index:Pet"})";
  RunCases({
      {pet, R"({"name":"rex","animal":{"kind":"dog","good":true}})", "ok"},
      {pet, R"({"name":"rex","animal":{"kind":"cat","lives":9}})", "ok"},
      {pet, R"({"name":"rex","animal":{"kind":"cat","lives":"9"}})",
       "error /animal/lives"},
      {pet, R"({"name":"rex","animal":{"kind":"cow"}})", "error /animal/kind"},
      {pet, R"({"name":"rex","animal":{"good":true}})", "error /animal/kind"},
      {pet, R"({"name":"rex","animal":{"kind":1}})", "error /animal/kind"},
      {pet, R"({"name":"rex","animal":"dog"})", "error /animal"},
      // Without a mapping: the members are tried; const picks one.
      {pet, R"({"name":"rex","anyAnimal":{"kind":"dog"}})", "ok"},
      {pet, R"({"name":"rex","anyAnimal":{"kind":"cow"}})", "error /anyAnimal"},
      {pet, R"({"name":"rex","version":2})", "ok"},
      {pet, R"({"name":"rex","version":2.0})", "ok"},
      {pet, R"({"name":"rex","version":3})", "error /version"},
      // plain property: no unknowns.
      {pet, R"({"name":UNK})", "error /name"},
      {pet, R"({"name":"rex","size":UNK})", "ok"},
      {R"({"oneOf":[{"type":"string"},{"type":"number"}]})", "1", "ok"},
      {R"({"oneOf":[{"type":"string"},{"type":"number"}]})", "\"a\"", "ok"},
      {R"({"oneOf":[{"type":"string"},{"type":"number"}]})", "true", "error"},
      {R"({"oneOf":[{"type":"number"},{"type":"string"}]})", "9007199254740993",
       "convert 9007199254740992"},
      {R"({"oneOf":[{"type":"string"},{"type":"integer"}]})", "null", "error"},
      {R"({"type":"string","const":"a"})", "\"a\"", "ok"},
      {R"({"type":"string","const":"a"})", "\"b\"", "error"},
  });
}

TEST_F(PulumiSchemaTest, ResourcesAsTypes) {
  RunCases({
      {R"({"$ref":"#/resources/synth:index:Owner"})",
       R"({SIG:REF,"urn":"urn:pulumi:s::p::synth:index:Owner::o","id":"1"})",
       "ok"},
      {R"({"$ref":"#/resources/synth:index:Owner"})",
       R"({SIG:REF,"urn":"urn:pulumi:s::p::parent$synth:index:Owner::o"})",
       "ok"},
      {R"({"$ref":"#/resources/synth:index:Owner"})",
       R"({SIG:REF,"urn":"urn:pulumi:s::p::synth:index:Other::o"})", "error"},
      {R"({"type":"object","additionalProperties":{"$ref":"#/resources/synth:index:Owner"}})",
       R"({"a":{"name":"x"}})", "error /a"},
      {R"({"$ref":"/synth/v0.0.1/schema.json#/provider"})",
       R"({SIG:REF,"urn":"urn:pulumi:s::p::pulumi:providers:synth::default"})",
       "ok"},
  });
}

TEST_F(PulumiSchemaTest, RandomPasswordOutputs) {
  // The shape of a real RandomPassword's outputs (pulumi-random's recorded
  // TestProviderUpgrade state): id and __meta bookkeeping, and two
  // secret-wrapped required outputs.
  const char* outputs =
      R"({"id":"none","__meta":"{\"schema_version\":\"3\"}",)"
      R"("bcryptHash":{SIG:SECRET,"plaintext":"\"$2a$10$abc\""},)"
      R"("length":16,"lower":true,"minLower":0,"minNumeric":0,)"
      R"("minSpecial":0,"minUpper":0,"number":true,"numeric":true,)"
      R"("result":{SIG:SECRET,"plaintext":"\"xyzxyzxyzxyzxyzx\""},)"
      R"("special":true,"upper":true})";
  RunCases({
      {R"({"$ref":"#/resources/random:index/randomPassword:RandomPassword"})",
       outputs, "ok"},
      {R"({"$ref":"#/resources/random:index/randomPassword:RandomPassword"})",
       R"({"length":16})", "error /bcryptHash"},
  });
  json::Arena arena;
  Checker checker(System::kPulumiSchema, set_);
  Verdict v =
      set_->CheckResource("random:index/randomPassword:RandomPassword",
                          ResourceSide::kOutputs, checker.Json(outputs));
  EXPECT_EQ(v.outcome, Outcome::kOk) << v.message;
  Verdict in = set_->CheckResource("random:index/randomPassword:RandomPassword",
                                   ResourceSide::kInputs,
                                   checker.Json(R"({"special":true})"));
  EXPECT_EQ(in.outcome, Outcome::kError);
  EXPECT_EQ(in.pointer, "/length");
  Verdict prov =
      set_->CheckResource("pulumi:providers:synth", ResourceSide::kInputs,
                          checker.Json(R"({"region":"x"})"));
  EXPECT_EQ(prov.outcome, Outcome::kOk) << prov.message;
  Verdict missing = set_->CheckResource("nope:index:X", ResourceSide::kInputs,
                                        checker.Json("{}"));
  EXPECT_EQ(missing.outcome, Outcome::kError);
}

TEST_F(PulumiSchemaTest, CheckReportsDeepestPointer) {
  Checker checker(System::kPulumiSchema, set_);
  Verdict v = set_->Check(
      checker.Json(
          R"({"type":"array","items":{"$ref":"#/types/command:remote:Connection"}})"),
      checker.Json(R"([{"host":"a"},{"host":"b","proxy":{"host":5}}])"));
  EXPECT_EQ(v.outcome, Outcome::kError);
  EXPECT_EQ(v.pointer, "/1/proxy/host");
}

TEST_F(PulumiSchemaTest, SecretPlaintextNeverInMessages) {
  Checker checker(System::kPulumiSchema, set_);
  Result<Verdict> r = checker.Run(R"({"type":"integer"})",
                                  R"({SIG:SECRET,"plaintext":"\"hunter2\""})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, Outcome::kError);
  EXPECT_EQ(r->message.find("hunter2"), std::string::npos);
  EXPECT_NE(r->message.find("inside a secret"), std::string::npos);
}

TEST_F(PulumiSchemaTest, TypesThatDoNotParse) {
  Checker checker(System::kPulumiSchema, set_);
  struct Bad {
    const char* type;
    const char* message;
  } bad[] = {
      {R"({"type":"strin"})", "at /type of the type: unknown type 'strin'"},
      {R"({"type":"array"})", "at / of the type: an array type needs"},
      {R"({"type":"array","items":{"type":5}})",
       "at /items/type of the type: type must be a string"},
      {R"({})", "at / of the type: a type spec needs"},
      {R"([])", "at / of the type: a type spec is a JSON object"},
      {R"({"oneOf":[{"type":"string"}]})", "at /oneOf of the type"},
      {R"({"$ref":"#/types/nope:index:X"})",
       "at /$ref of the type: no loaded package schema is named 'nope'"},
      {R"({"$ref":"#/types/synth:index:Nope"})",
       "at /$ref of the type: package schema 'synth' has no type"},
      {R"({"$ref":"#/resources/synth:index:Nope"})",
       "at /$ref of the type: package schema 'synth' has no resource"},
      {R"({"$ref":"pulumi.json#/Nope"})",
       "at /$ref of the type: unknown built-in type"},
      {R"({"type":"object","additionalProperties":{"$ref":5}})",
       "at /additionalProperties/$ref of the type"},
      {R"({"type":"string","plain":"yes"})", "at /plain of the type"},
      {R"("not json")", "at offset 1 of the type"},
      // A bare #/provider is ambiguous with several packages loaded.
      {R"({"$ref":"#/provider"})", "at /$ref of the type: #/provider needs"},
  };
  for (const Bad& b : bad) {
    Result<Verdict> r = checker.Run(b.type, "null");
    ASSERT_FALSE(r.ok()) << b.type;
    EXPECT_EQ(r.status().code(), Errc::kSyntax);
    EXPECT_EQ(r.status().message().rfind(b.message, 0), 0u)
        << b.type << ": " << r.status().message();
  }
  // A spec given as a string holding JSON (the command line's --type).
  EXPECT_TRUE(checker.Run(R"("{\"type\":\"string\"}")", "\"a\"").ok());
}

TEST(SchemaSetTest, LoadsGzipAndIndexesByName) {
  SchemaSet set;
  ASSERT_TRUE(set.LoadFile(Fixture("random-gz.schema.json.gz")).ok());
  EXPECT_NE(set.FindPackage("random"), nullptr);
  EXPECT_NE(set.FindResource("random:index/randomPet:RandomPet"), nullptr);
  EXPECT_EQ(set.FindResource("random:index/nope:Nope"), nullptr);
  EXPECT_NE(set.FindProvider("random"), nullptr);
  EXPECT_EQ(set.OnlyPackage(), set.FindPackage("random"));
  // The same package twice is refused.
  Status again = set.LoadFile(Fixture("random.schema.json"));
  EXPECT_EQ(again.code(), Errc::kInvalidArgument);
  EXPECT_EQ(set.LoadFile(Fixture("missing.json")).code(), Errc::kNotFound);
  EXPECT_EQ(set.AddText("{", "t").code(), Errc::kSyntax);
  EXPECT_EQ(set.AddText("{\"x\":1}", "t").code(), Errc::kFormat);
  ASSERT_TRUE(set.LoadFile(Fixture("tls.schema.json")).ok());
  EXPECT_NE(set.FindType("tls:index/CertRequestSubject:CertRequestSubject"),
            nullptr);
  EXPECT_EQ(set.OnlyPackage(), nullptr);
}

TEST(SchemaSetTest, NoSchemasLoaded) {
  Checker checker(System::kPulumiSchema, nullptr);
  EXPECT_TRUE(checker.Run(R"({"type":"string"})", "\"a\"").ok());
  Result<Verdict> r = checker.Run(R"({"$ref":"#/types/random:index:X"})", "1");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("load it with --schema"),
            std::string::npos);
}

}  // namespace
}  // namespace pstate::types
