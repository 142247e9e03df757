// The package-schema loader (lazy definitions, versions, located errors)
// and CheckResourceAll, the collecting check behind verify --schema.
#include "types/schema_set.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "check_helpers.h"

namespace pstate::types {
namespace {

using testing::Checker;

std::string Fixture(const std::string& name) {
  return std::string(PSTATE_FIXTURES_DIR) + "/" + name;
}

// A small schema: an object type with a required and a secret property, a
// map, an array, an enum, a ref that points nowhere, and one resource.
constexpr char kSchema[] = R"({
  "name": "t",
  "version": "1.2.0",
  "types": {
    "t:index:Conn": {"type": "object",
      "properties": {"host": {"type": "string"},
                     "password": {"type": "string", "secret": true},
                     "mode": {"$ref": "#/types/t:index:Nope"}},
      "required": ["host"]},
    "t:index:Color": {"type": "string", "enum": [{"value": "red"}]}
  },
  "resources": {
    "t:index:Thing": {
      "inputProperties": {
        "size": {"type": "integer"},
        "conn": {"$ref": "#/types/t:index:Conn"},
        "tags": {"type": "object"},
        "colors": {"type": "array", "items": {"$ref": "#/types/t:index:Color"}},
        "token": {"type": "string", "secret": true}
      },
      "requiredInputs": ["size"],
      "properties": {"size": {"type": "integer"}},
      "required": ["size"]
    }
  },
  "provider": {"inputProperties": {"region": {"type": "string"}}}
})";

std::string Issues(const std::vector<SchemaIssue>& issues) {
  std::string out;
  for (const SchemaIssue& i : issues) {
    static const char* kKinds[] = {"type", "required", "unknown", "secret",
                                   "ref"};
    out += std::string(kKinds[static_cast<int>(i.kind)]) + " " + i.pointer +
           " " + i.schema_location + "\n";
  }
  return out;
}

TEST(SchemaLoaderTest, IndexesAndParsesOnFirstUse) {
  SchemaSet set;
  ASSERT_TRUE(set.AddText(kSchema, "t.json").ok());
  const PackageSchema* p = set.FindPackage("t");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->version(), "1.2.0");
  EXPECT_EQ(p->type_count(), 2u);
  EXPECT_EQ(p->resource_count(), 1u);
  const json::Value* thing = p->Resource("t:index:Thing");
  ASSERT_NE(thing, nullptr);
  EXPECT_TRUE(thing->is_object());
  // Parsed once: the same tree the second time.
  EXPECT_EQ(p->Resource("t:index:Thing"), thing);
  EXPECT_EQ(p->Resource("t:index:Nope"), nullptr);
  EXPECT_NE(p->Type("t:index:Color"), nullptr);
  ASSERT_NE(p->Provider(), nullptr);
  // Offsets of definitions are offsets in the file.
  io::LineColumn at = p->Locate(thing->offset);
  EXPECT_EQ(at.line, 13u);
  EXPECT_EQ(at.column, 22u);
}

// The index keeps a hash and a byte range per definition; a token is read
// back from the text to confirm it, escapes decoded, and of a repeated
// token the last definition wins (as Go's decoder keeps).
TEST(SchemaLoaderTest, CompactIndexFindsTokensAsWritten) {
  SchemaSet set;
  ASSERT_TRUE(set.AddText(R"({"name":"p","types":{
      "p:index:A": {"type":"object","description":"first"},
      "p:index:\u0042" : {"type":"object","description":"escaped"},
      "p:index:\"q\"": {"type":"string"},
      "p:index:A":{"type":"object","description":"last"}},
    "resources":{"p:index:R":{"properties":{}}}})",
                          "t.json")
                  .ok());
  const PackageSchema* p = set.FindPackage("p");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->type_count(), 3u);
  ASSERT_NE(p->Type("p:index:A"), nullptr);
  EXPECT_EQ(p->Type("p:index:A")->Find("description")->Str(), "last");
  ASSERT_NE(p->Type("p:index:B"), nullptr);
  EXPECT_EQ(p->Type("p:index:B")->Find("description")->Str(), "escaped");
  EXPECT_NE(p->Type("p:index:\"q\""), nullptr);
  EXPECT_EQ(p->Type("p:index:C"), nullptr);
  EXPECT_NE(p->Resource("p:index:R"), nullptr);
  EXPECT_EQ(p->Resource("p:index:A"), nullptr);
}

TEST(SchemaLoaderTest, RealSchemasLoadLazily) {
  SchemaSet set;
  for (const char* name : {"package-schemas/random.schema.json",
                           "package-schemas/docker-build.schema.json",
                           "schemas/tls.schema.json.gz"}) {
    Status s = set.LoadFile(Fixture(name));
    ASSERT_TRUE(s.ok()) << s.message();
  }
  EXPECT_EQ(set.FindPackage("random")->resource_count(), 10u);
  EXPECT_NE(set.FindType("docker-build:index:Platform"), nullptr);
  EXPECT_NE(set.FindResource("tls:index/privateKey:PrivateKey"), nullptr);
  EXPECT_NE(set.FindProvider("tls"), nullptr);
}

TEST(SchemaLoaderTest, ErrorsNameTheFileAndPlace) {
  struct Bad {
    const char* text;
    Errc code;
    const char* message;
  } bad[] = {
      {"", Errc::kSyntax, "s.json:1:1: not valid JSON: the file is empty"},
      {"{\n  \"name\": \"x\",\n  \"types\": {,}\n}", Errc::kSyntax,
       "s.json:3:13: not valid JSON: expected a string key"},
      {"{\"name\": \"x\", \"resources\": {\"a\": [1,]}}", Errc::kSyntax,
       "s.json:1:37: not valid JSON:"},
      {"{\"name\": \"x\"} {}", Errc::kSyntax,
       "s.json:1:15: not valid JSON: unexpected '{' after the JSON document"},
      {"[1, 2]", Errc::kFormat,
       "s.json:1:1: not a package schema: the document is array"},
      {"{\"version\": \"1\"}", Errc::kFormat,
       "s.json:1:1: not a package schema: no non-empty string \"name\""},
      {"{\"name\": \"\"}", Errc::kFormat,
       "s.json:1:10: not a package schema: no non-empty string \"name\""},
      {"{\"name\": \"x\",\n \"types\": [1]}", Errc::kFormat,
       "s.json:2:11: not a package schema: \"types\" must be an object"},
  };
  for (const Bad& b : bad) {
    SchemaSet set;
    Status s = set.AddText(b.text, "s.json");
    ASSERT_FALSE(s.ok()) << b.text;
    EXPECT_EQ(s.code(), b.code) << b.text;
    EXPECT_EQ(s.message().rfind(b.message, 0), 0u) << b.text << "\n"
                                                   << s.message();
  }
  SchemaSet set;
  Status s = set.LoadFile(Fixture("schemas/broken/not-json.json"));
  EXPECT_EQ(s.code(), Errc::kSyntax);
  EXPECT_NE(s.message().find("not-json.json:4:42: not valid JSON"),
            std::string::npos)
      << s.message();
}

TEST(SchemaLoaderTest, SeveralVersionsNewestFirst) {
  SchemaSet set;
  ASSERT_TRUE(
      set.LoadFile(Fixture("schemas/versions/random-4.15.0.schema.json")).ok());
  ASSERT_TRUE(
      set.LoadFile(Fixture("schemas/versions/random-4.16.0.schema.json")).ok());
  // The same version again is refused; another version is fine.
  Status again =
      set.LoadFile(Fixture("schemas/versions/random-4.15.0.schema.json"));
  EXPECT_EQ(again.code(), Errc::kInvalidArgument);
  EXPECT_EQ(set.size(), 2u);
  EXPECT_EQ(set.FindPackage("random")->version(), "4.16.0");
  bool exact = false;
  EXPECT_EQ(set.FindPackage("random", "4.15.0", &exact)->version(), "4.15.0");
  EXPECT_TRUE(exact);
  EXPECT_EQ(set.FindPackage("random", "v4.15.0", &exact)->version(), "4.15.0");
  EXPECT_TRUE(exact);
  EXPECT_EQ(set.FindPackage("random", "4.17.0", &exact)->version(), "4.16.0");
  EXPECT_FALSE(exact);
  EXPECT_EQ(set.FindPackage("nope", "1.0.0", &exact), nullptr);
  std::vector<const PackageSchema*> versions = set.Versions("random");
  ASSERT_EQ(versions.size(), 2u);
  EXPECT_EQ(versions[1]->version(), "4.15.0");
  // Lookups by token go to the newest.
  const json::Value* pw =
      set.FindResource("random:index/randomPassword:RandomPassword");
  ASSERT_NE(pw, nullptr);
  EXPECT_NE(pw->Find("inputProperties")->Find("numeric"), nullptr);
}

TEST(SchemaLoaderTest, CompareVersions) {
  EXPECT_LT(CompareVersions("4.9.0", "4.10.0"), 0);
  EXPECT_GT(CompareVersions("v5.0.0", "4.99.99"), 0);
  EXPECT_EQ(CompareVersions("v1.2.3", "1.2.3+build.7"), 0);
  EXPECT_LT(CompareVersions("1.0.0-alpha", "1.0.0"), 0);
  EXPECT_LT(CompareVersions("1.0.0-alpha.2", "1.0.0-alpha.10"), 0);
  EXPECT_LT(CompareVersions("1.0.0-2", "1.0.0-alpha"), 0);
  EXPECT_LT(CompareVersions("1.0.0-alpha", "1.0.0-alpha.1"), 0);
  EXPECT_LT(CompareVersions("", "0.0.1"), 0);
  EXPECT_LT(CompareVersions("latest", "0.0.1"), 0);
}

class CheckAllTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(set_.AddText(kSchema, "t.json").ok());
    package_ = set_.FindPackage("t");
  }
  std::vector<SchemaIssue> Inputs(std::string_view value,
                                  const CheckOptions& options = {}) {
    return set_.CheckResourceAll(
        *package_, *package_->Resource("t:index:Thing"), "t:index:Thing",
        ResourceSide::kInputs, checker_.Json(value), options);
  }
  SchemaSet set_;
  const PackageSchema* package_ = nullptr;
  Checker checker_{System::kPulumiSchema, nullptr};
};

TEST_F(CheckAllTest, EveryProblemAtItsDeepestPlace) {
  std::vector<SchemaIssue> issues =
      Inputs(R"({"size":"9","tags":{"a":1,"b":"x","c":[]},)"
             R"("colors":["red","blue",7],"conn":{"port":1}})");
  EXPECT_EQ(Issues(issues),
            "type /size #/resources/t:index:Thing/inputProperties/size\n"
            "required /conn #/types/t:index:Conn/properties/host\n"
            "unknown /conn/port #/types/t:index:Conn\n"
            "type /tags/a #/resources/t:index:Thing/inputProperties/tags/"
            "additionalProperties\n"
            "type /tags/c #/resources/t:index:Thing/inputProperties/tags/"
            "additionalProperties\n"
            "type /colors/1 #/types/t:index:Color\n"
            "type /colors/2 #/types/t:index:Color\n");
  EXPECT_EQ(issues[1].message, "missing required property \"host\"");
}

TEST_F(CheckAllTest, RequiredAbsentOrNull) {
  EXPECT_EQ(Issues(Inputs("{}")),
            "required  #/resources/t:index:Thing/inputProperties/size\n");
  EXPECT_EQ(Issues(Inputs(R"({"size":null})")),
            "required /size #/resources/t:index:Thing/inputProperties/size\n");
}

TEST_F(CheckAllTest, PulumiKeysExemptAndOptionsHonoured) {
  CheckOptions options;
  options.exempt_top_level = {"id"};
  EXPECT_EQ(Issues(Inputs(R"({"size":1,"__defaults":[],"id":"x",)"
                          R"("conn":{"host":"h","__defaults":[],"id":1}})",
                          options)),
            "unknown /conn/id #/types/t:index:Conn\n");
  options.unknown_properties = false;
  EXPECT_EQ(Issues(Inputs(R"({"size":1,"extra":2})", options)), "");
  // Only the secret notes (scan --schema).
  CheckOptions secrets;
  secrets.types = false;
  secrets.unknown_properties = false;
  EXPECT_EQ(Issues(Inputs(R"({"size":"x","token":"t","extra":1})", secrets)),
            "secret /token #/resources/t:index:Thing/inputProperties/token\n");
}

TEST_F(CheckAllTest, SecretsUnknownsAndCiphertexts) {
  // A secret is looked through; plaintext where the schema says secret is
  // noted; a ciphertext-only secret and the unknown value pass.
  std::vector<SchemaIssue> issues = Inputs(
      R"({"size":{SIG:SECRET,"plaintext":"\"nine\""},"token":"t",)"
      R"("conn":{SIG:SECRET,"plaintext":"{\"host\":5,\"password\":\"p\"}"},)"
      R"("colors":UNK,"tags":{SIG:SECRET,"ciphertext":"v1:AAAA:BBBB"}})");
  EXPECT_EQ(Issues(issues),
            "type /size #/resources/t:index:Thing/inputProperties/size\n"
            "type /conn/* #/types/t:index:Conn/properties/host\n"
            "secret /token #/resources/t:index:Thing/inputProperties/token\n");
  EXPECT_EQ(issues[0].message,
            "inside a secret: expected an integer, got a "
            "string");
  // Nothing of the plaintext shows.
  for (const SchemaIssue& i : issues) {
    EXPECT_EQ(i.message.find("nine"), std::string::npos);
  }
}

TEST_F(CheckAllTest, DanglingRefsPassAndAreReported) {
  std::vector<SchemaIssue> issues =
      Inputs(R"({"size":1,"conn":{"host":"h","mode":{"any":"thing"}}})");
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].kind, SchemaIssue::Kind::kDanglingRef);
  EXPECT_EQ(issues[0].ref, "#/types/t:index:Nope");
  EXPECT_EQ(issues[0].pointer, "/conn/mode");
  EXPECT_EQ(issues[0].package, package_);
  io::LineColumn at = package_->Locate(issues[0].schema_offset);
  EXPECT_EQ(at.line, 8u);
  EXPECT_EQ(issues[0].schema_location, "#/types/t:index:Conn/properties/mode");
}

TEST_F(CheckAllTest, CacheKeptAcrossChecks) {
  // One cache for many resources (what verify does): the same issues as
  // fresh checks, nothing carried over from one check to the next.
  SchemaCache cache(set_);
  const json::Value& def = *package_->Resource("t:index:Thing");
  const char* values[] = {
      R"({"size":"9","tags":{"a":1},"conn":{"port":1}})",
      R"({"size":1})",
      R"({"size":{SIG:SECRET,"plaintext":"\"nine\""},"colors":["red",7]})",
      R"({"size":1,"conn":{"host":"h","mode":{"any":"thing"}}})",
      "{}",
  };
  for (int round = 0; round < 2; ++round) {
    for (const char* text : values) {
      std::vector<SchemaIssue> issues;
      set_.CheckResourceAll(*package_, def, "t:index:Thing",
                            ResourceSide::kInputs, checker_.Json(text), {},
                            cache, &issues);
      EXPECT_EQ(Issues(issues), Issues(Inputs(text))) << text;
    }
  }
}

TEST_F(CheckAllTest, MalformedSignaturesLeftToVerify) {
  // A secret whose plaintext is not JSON is verify's own finding
  // (secret-plaintext-invalid), not a schema-type one as well.
  EXPECT_EQ(Issues(Inputs(R"({"size":{SIG:SECRET,"plaintext":"{no"}})")), "");
}

TEST_F(CheckAllTest, ProviderInputs) {
  const json::Value* provider = package_->Provider();
  ASSERT_NE(provider, nullptr);
  CheckOptions options;
  options.exempt_top_level = {"version"};
  std::vector<SchemaIssue> issues = set_.CheckResourceAll(
      *package_, *provider, "pulumi:providers:t", ResourceSide::kInputs,
      checker_.Json(R"({"region":1,"version":"1.2.0"})"), options);
  EXPECT_EQ(Issues(issues), "type /region #/provider/inputProperties/region\n");
}

}  // namespace
}  // namespace pstate::types
