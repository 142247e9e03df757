// verify --schema's handler: which schema a resource is checked against,
// and how the checker's problems become findings.
#include "verify/schema_checks.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "unit/testing/recording_handler.h"
#include "verify/run.h"

namespace pstate::verify {
namespace {

using pstate::testing::ReadText;

constexpr char kSchema15[] = R"({"name": "p", "version": "1.5.0",
  "resources": {"p:index:R": {
    "inputProperties": {"n": {"type": "integer"}},
    "requiredInputs": ["n"],
    "properties": {"n": {"type": "integer"},
                   "key": {"type": "string", "secret": true}},
    "required": ["n", "key"]},
   "p:index:C": {"isComponent": true,
    "inputProperties": {"title": {"type": "string"}},
    "requiredInputs": ["title"]},
   "p:index:NotComponent": {"inputProperties": {"x": {"type": "string"}},
    "requiredInputs": ["x"]}},
  "provider": {"inputProperties": {"region": {"type": "string"}}}})";

// Version 1.6.0 adds the input "m".
constexpr char kSchema16[] = R"({"name": "p", "version": "1.6.0",
  "resources": {"p:index:R": {
    "inputProperties": {"n": {"type": "integer"}, "m": {"type": "string"}},
    "requiredInputs": ["n"]}}})";

std::string Provider(const std::string& name, const std::string& version) {
  return R"({"urn":"urn:pulumi:s::p::pulumi:providers:p::)" + name +
         R"(","custom":true,"id":"id-)" + name +
         R"(","type":"pulumi:providers:p","inputs":{"version":")" + version +
         R"(","region":"eu"}})";
}

std::string Resource(const std::string& type, const std::string& name,
                     const std::string& provider, const std::string& inputs,
                     const std::string& outputs = "{}", bool custom = true) {
  std::string r = R"({"urn":"urn:pulumi:s::p::)" + type + "::" + name +
                  R"(","custom":)" + (custom ? "true" : "false") +
                  R"(,"type":")" + type + R"(","inputs":)" + inputs +
                  R"(,"outputs":)" + outputs;
  if (!provider.empty()) {
    r += R"(,"provider":"urn:pulumi:s::p::pulumi:providers:p::)" + provider +
         "::id-" + provider + "\"";
  }
  return r + "}";
}

std::string State(const std::vector<std::string>& resources) {
  std::string s = R"({"version":3,"deployment":{"resources":[)";
  for (std::size_t i = 0; i < resources.size(); ++i) {
    s += (i ? "," : "") + resources[i];
  }
  return s + "]}}";
}

// "code severity pointer" per finding, in file order.
std::vector<std::string> Check(const types::SchemaSet& set,
                               const std::string& text,
                               SchemaCheckOptions options = {}) {
  SchemaChecks checks(set, options);
  diag::Report report("test.json", 0);
  Status s = ReadText(text, checks, report);
  EXPECT_TRUE(s.ok()) << s.message();
  report.SortByLocation();
  std::vector<std::string> out;
  for (const diag::Finding& f : report.findings()) {
    out.push_back(std::string(f.code_name()) + " " +
                  std::string(diag::SeverityName(f.severity)) + " " +
                  f.pointer);
  }
  return out;
}

class SchemaChecksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(set_.AddText(kSchema15, "p15.json").ok());
  }
  types::SchemaSet set_;
};

TEST_F(SchemaChecksTest, FindingsCarryPointersAndSeverities) {
  std::vector<std::string> got = Check(
      set_, State({Provider("a", "1.5.0"),
                   Resource("p:index:R", "r", "a", R"({"n":"x","z":1})",
                            R"({"n":1,"key":"plain"})"),
                   Resource("p:index:R", "q", "a", "{}", R"({"key":"k"})")}));
  EXPECT_EQ(got, (std::vector<std::string>{
                     "schema-type error /deployment/resources/1/inputs/n",
                     "schema-property-unknown note "
                     "/deployment/resources/1/inputs/z",
                     "schema-secret-plaintext warning "
                     "/deployment/resources/1/outputs/key",
                     "schema-required error /deployment/resources/2/inputs",
                     "schema-required warning /deployment/resources/2/outputs",
                     "schema-secret-plaintext warning "
                     "/deployment/resources/2/outputs/key",
                 }));
}

TEST_F(SchemaChecksTest, ProviderInputsEngineKeysExempt) {
  std::string bad = R"({"urn":"urn:pulumi:s::p::pulumi:providers:p::b",)"
                    R"("custom":true,"id":"x","type":"pulumi:providers:p",)"
                    R"("inputs":{"version":"1.5.0","pluginDownloadURL":"u",)"
                    R"("region":5}})";
  EXPECT_EQ(Check(set_, State({bad})),
            (std::vector<std::string>{
                "schema-type error /deployment/resources/0/inputs/region"}));
}

TEST_F(SchemaChecksTest, PackagesResourcesAndComponents) {
  std::vector<std::string> got = Check(
      set_,
      State({Provider("a", "1.5.0"), Resource("q:index:X", "x1", "", "{}"),
             Resource("q:index:X", "x2", "", "{}"),
             Resource("p:index:Gone", "g", "a", "{}"),
             Resource("p:index:C", "c", "", "{}", "{}", /*custom=*/false),
             Resource("p:index:NotComponent", "d", "", "{}", "{}", false),
             Resource("mine:index:Comp", "m", "", "{}", "{}", false),
             R"({"urn":"urn:pulumi:s::p::pulumi:pulumi:Stack::s",)"
             R"("custom":false,"type":"pulumi:pulumi:Stack"})"}));
  EXPECT_EQ(got, (std::vector<std::string>{
                     // Once per package, at its first resource.
                     "schema-package-missing note /deployment/resources/1/type",
                     "schema-resource-unknown warning "
                     "/deployment/resources/3/type",
                     "schema-required error /deployment/resources/4/inputs",
                 }));
}

TEST_F(SchemaChecksTest, VersionChosenByTheProvider) {
  ASSERT_TRUE(set_.AddText(kSchema16, "p16.json").ok());
  std::vector<std::string> got = Check(
      set_, State({Provider("a", "1.5.0"), Provider("b", "1.6.0"),
                   Provider("c", "1.7.0"),
                   Resource("p:index:R", "r1", "a", R"({"n":1,"m":"x"})",
                            R"({"n":1,"key":{)"
                            R"("4dabf18193072939515e22adb298388d":)"
                            R"("1b47061264138c4ac30d75fd1eb44270",)"
                            R"("ciphertext":"v1:AAAA:BBBB"}})"),
                   Resource("p:index:R", "r2", "b", R"({"n":1,"m":"x"})"),
                   Resource("p:index:R", "r3", "c", R"({"n":1,"m":"x"})"),
                   Resource("p:index:R", "r4", "c", R"({"n":1,"m":"x"})")}));
  EXPECT_EQ(got,
            (std::vector<std::string>{
                // 1.5.0 has no "m"; 1.6.0 has; 1.7.0 falls back to 1.6.0
                // with one note, at the provider that asked for it.
                "schema-version-mismatch note /deployment/resources/2/type",
                "schema-property-unknown note /deployment/resources/3/inputs/m",
            }));
}

TEST_F(SchemaChecksTest, SecretsOnly) {
  SchemaCheckOptions options;
  options.secrets_only = true;
  std::vector<std::string> got =
      Check(set_,
            State({Provider("a", "9.9.9"), Resource("q:index:X", "x", "", "{}"),
                   Resource("p:index:R", "r", "a", R"({"n":"x","z":1})",
                            R"({"key":"plain"})")}),
            options);
  EXPECT_EQ(got,
            (std::vector<std::string>{"schema-secret-plaintext warning "
                                      "/deployment/resources/2/outputs/key"}));
}

TEST_F(SchemaChecksTest, PendingOperationsResources) {
  // Their resources are checked too, with pointers into
  // pending_operations; absent or empty outputs there are not checked.
  std::string state =
      R"({"version":3,"deployment":{"resources":[)" + Provider("a", "1.5.0") +
      R"(],"pending_operations":[{"type":"creating","resource":)" +
      Resource("p:index:R", "c", "a", R"({"n":"x"})") +
      R"(},{"type":"deleting","resource":)" +
      Resource("p:index:R", "d", "a", R"({"n":1})", R"({"n":1})") + "}]}}";
  EXPECT_EQ(Check(set_, state),
            (std::vector<std::string>{
                "schema-type error "
                "/deployment/pending_operations/0/resource/inputs/n",
                "schema-required warning "
                "/deployment/pending_operations/1/resource/outputs",
            }));
}

TEST(LoadSchemasTest, FilesAndDirectories) {
  std::string fixtures = PSTATE_FIXTURES_DIR;
  types::SchemaSet set;
  Status s = LoadSchemas({fixtures + "/schemas/comp.schema.json"},
                         {fixtures + "/schemas/versions"}, &set);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(set.size(), 3u);
  EXPECT_EQ(set.Versions("random").size(), 2u);
  types::SchemaSet other;
  Status missing = LoadSchemas({}, {fixtures + "/schemas/nope"}, &other);
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("schemas/nope"), std::string::npos);
}

// Memory and work follow the types the state uses (the security review's
// S8): a schema of thousands of types and resources, a state using two
// resource types that refer to one object type each; only those four
// definitions are ever parsed.
TEST(SchemaChecksMemoryTest, ParsesOnlyTheDefinitionsTheStateUses) {
  constexpr int kCount = 4000;
  std::string schema = R"({"name": "p", "version": "1.0.0", "types": {)";
  for (int i = 0; i < kCount; ++i) {
    const std::string n = std::to_string(i);
    schema += (i ? "," : "") + std::string(R"("p:index:T)") + n +
              R"(": {"type": "object", "properties": {"v)" + n +
              R"(": {"type": "string"}}})";
  }
  schema += R"(}, "resources": {)";
  for (int i = 0; i < kCount; ++i) {
    const std::string n = std::to_string(i);
    schema += (i ? "," : "") + std::string(R"("p:index:R)") + n +
              R"(": {"inputProperties": {"t": {"$ref": "#/types/p:index:T)" +
              n + R"("}}, "properties": {}})";
  }
  schema += "}}";
  types::SchemaSet set;
  ASSERT_TRUE(set.AddText(schema, "big.json").ok());
  const types::PackageSchema* p = set.FindPackage("p");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->type_count(), static_cast<std::size_t>(kCount));
  EXPECT_EQ(p->parsed_definitions(), 0u);
  std::vector<std::string> resources;
  for (int i = 0; i < 50; ++i) {
    const std::string which = i % 2 ? "R7" : "R3999";
    const std::string type = which == "R7" ? "T7" : "T3999";
    const std::string field = which == "R7" ? "v7" : "v3999";
    resources.push_back(Resource("p:index:" + which, "r" + std::to_string(i),
                                 "", R"({"t": {")" + field + R"(": "x"}})"));
  }
  // One value of the wrong type, to show the definitions are checked.
  resources.push_back(Resource("p:index:R7", "bad", "", R"({"t": {"v7": 1}})"));
  EXPECT_EQ(Check(set, State(resources)),
            std::vector<std::string>{
                "schema-type error /deployment/resources/50/inputs/t/v7"});
  EXPECT_EQ(p->parsed_definitions(), 4u);
}

}  // namespace
}  // namespace pstate::verify
