#include "pstate/pstate.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "unit/testing/temp_dir.h"

namespace pstate {
namespace {

std::string Fixture(const std::string& name) {
  return std::string(PSTATE_FIXTURES_DIR) + "/states/" + name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

State OpenOrDie(const std::string& path) {
  Result<State> state = State::Open(path);
  EXPECT_TRUE(state.ok()) << state.status().message();
  return std::move(state).value();
}

TEST(ApiTest, VersionIsTheProjectVersion) {
  EXPECT_EQ(std::string(Version()).find('.') != std::string::npos, true);
}

TEST(ApiTest, OpenFailsForAMissingFile) {
  Result<State> state = State::Open(Fixture("valid/no-such-file.json"));
  ASSERT_FALSE(state.ok());
  EXPECT_EQ(state.status().code(), Errc::kNotFound);
}

TEST(ApiTest, VerifyAValidState) {
  State state = OpenOrDie(Fixture("valid/minimal.json"));
  EXPECT_EQ(state.name(), Fixture("valid/minimal.json"));
  Result<Findings> findings = Verify(state);
  ASSERT_TRUE(findings.ok()) << findings.status().message();
  EXPECT_TRUE(findings->findings.empty());
  EXPECT_EQ(findings->errors, 0u);
  EXPECT_EQ(findings->resources, 1u);
  EXPECT_FALSE(findings->unreadable);
}

TEST(ApiTest, VerifyFindingsAreRecords) {
  State state = OpenOrDie(Fixture("invalid/036-dependency-missing.json"));
  Result<Findings> findings = Verify(state);
  ASSERT_TRUE(findings.ok());
  ASSERT_GE(findings->findings.size(), 1u);
  const Finding& f = findings->findings[0];
  EXPECT_EQ(f.code, "dependency-missing");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.line, 7u);
  EXPECT_EQ(f.column, 120u);
  EXPECT_EQ(f.pointer, "/deployment/resources/1/dependencies/0");
  EXPECT_EQ(f.urn, "urn:pulumi:dev::proj::my:mod:Thing::t");
  EXPECT_FALSE(f.fingerprint.empty());
  EXPECT_EQ(findings->errors + findings->warnings + findings->notes,
            findings->findings.size());
}

TEST(ApiTest, VerifyKeepsMaxFindingsAndCountsAll) {
  State state = OpenOrDie(Fixture("invalid/036-dependency-missing.json"));
  VerifyConfig config;
  config.max_findings = 1;
  Result<Findings> findings = Verify(state, config);
  ASSERT_TRUE(findings.ok());
  EXPECT_EQ(findings->findings.size(), 1u);
  std::uint64_t all = findings->errors + findings->warnings + findings->notes;
  EXPECT_GE(all, 2u);
  EXPECT_EQ(findings->omitted, all - 1);
}

TEST(ApiTest, AnUnreadableStateIsAFinding) {
  State state = OpenOrDie(Fixture("invalid/002-truncated.json"));
  Result<Findings> findings = Verify(state);
  ASSERT_TRUE(findings.ok());
  EXPECT_TRUE(findings->unreadable);
  ASSERT_FALSE(findings->findings.empty());
}

TEST(ApiTest, BytesAreNamedByTheirOwnName) {
  OpenOptions options;
  options.name = "bytes.json";
  Result<State> state = State::FromBytes(
      ReadFile(Fixture("invalid/036-dependency-missing.json")), options);
  ASSERT_TRUE(state.ok()) << state.status().message();
  Result<Findings> findings = Verify(*state);
  ASSERT_TRUE(findings.ok());
  EXPECT_EQ(findings->file, "bytes.json");
  EXPECT_EQ(findings->findings.at(0).code, "dependency-missing");
  // A failure that names the input names it by the state's name.
  Result<State> broken = State::FromBytes("{\"version\": 3,", options);
  ASSERT_TRUE(broken.ok());
  Result<StatsResult> stats = Stats(*broken);
  ASSERT_FALSE(stats.ok());
  EXPECT_NE(stats.status().message().find("bytes.json"), std::string::npos)
      << stats.status().message();
  EXPECT_EQ(stats.status().message().find("pstate-state-"), std::string::npos)
      << stats.status().message();
}

TEST(ApiTest, CompressedBytesAreRecognized) {
  Result<State> state =
      State::FromBytes(ReadFile(Fixture("valid/full-export.json.gz")));
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(state->name(), "<memory>");
  Result<Findings> findings = Verify(*state);
  ASSERT_TRUE(findings.ok());
  EXPECT_FALSE(findings->unreadable);
  EXPECT_GT(findings->resources, 0u);
}

TEST(ApiTest, InputLimitsApply) {
  OpenOptions options;
  options.limits.max_decoded_bytes = 16;
  Result<State> state =
      State::Open(Fixture("valid/full-export.json.gz"), options);
  ASSERT_TRUE(state.ok());
  Result<Findings> findings = Verify(*state);
  ASSERT_TRUE(findings.ok());
  EXPECT_TRUE(findings->unreadable);
  // The limits are the call's only: the next state reads with defaults.
  Result<Findings> again =
      Verify(OpenOrDie(Fixture("valid/full-export.json.gz")));
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->unreadable);
}

TEST(ApiTest, ScanAValidState) {
  Result<ScanResult> result =
      Scan(OpenOrDie(Fixture("valid/full-export.json")));
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_FALSE(result->findings.unreadable);
}

TEST(ApiTest, DiffOfAStateWithItselfIsEmpty) {
  State state = OpenOrDie(Fixture("valid/full-export.json"));
  Result<DiffResult> diff = Diff(state, state);
  ASSERT_TRUE(diff.ok()) << diff.status().message();
  EXPECT_TRUE(diff->same());
  EXPECT_GT(diff->summary.unchanged, 0u);
}

TEST(ApiTest, DiffReportsAddedResources) {
  Result<DiffResult> diff = Diff(OpenOrDie(Fixture("valid/minimal.json")),
                                 OpenOrDie(Fixture("valid/full-export.json")));
  ASSERT_TRUE(diff.ok()) << diff.status().message();
  EXPECT_FALSE(diff->same());
  EXPECT_EQ(diff->resources.size(),
            diff->summary.added + diff->summary.removed +
                diff->summary.changed + diff->summary.renamed +
                diff->summary.order_only + diff->summary.order_broken);
}

TEST(ApiTest, ListAndStats) {
  State state = OpenOrDie(Fixture("valid/full-export.json"));
  Result<std::vector<ResourceRow>> rows = List(state);
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_FALSE(rows->empty());
  EXPECT_EQ((*rows)[0].index, 0u);
  Result<StatsResult> stats = Stats(state);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->resources.count, rows->size());

  ListConfig one;
  one.limit = 1;
  Result<std::vector<ResourceRow>> first = List(state, one);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->size(), 1u);

  ListConfig stacks;
  stacks.type = "pulumi:pulumi:Stack";
  Result<std::vector<ResourceRow>> stack = List(state, stacks);
  ASSERT_TRUE(stack.ok());
  for (const ResourceRow& row : *stack) {
    EXPECT_EQ(row.type, "pulumi:pulumi:Stack");
  }
}

TEST(ApiTest, TreeHoldsEveryResourceOnce) {
  State state = OpenOrDie(Fixture("valid/full-export.json"));
  Result<TreeResult> tree = Tree(state);
  ASSERT_TRUE(tree.ok()) << tree.status().message();
  Result<std::vector<ResourceRow>> rows = List(state);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(tree->nodes.size(), rows->size());
  std::vector<int> seen(tree->nodes.size(), 0);
  std::vector<std::uint32_t> unvisited = tree->roots;
  while (!unvisited.empty()) {
    std::uint32_t i = unvisited.back();
    unvisited.pop_back();
    ++seen.at(i);
    for (std::uint32_t c : tree->nodes[i].children) unvisited.push_back(c);
  }
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i], 1) << tree->nodes[i].urn;
    EXPECT_EQ(tree->nodes[i].urn, (*rows)[i].urn);
  }
}

TEST(ApiTest, ShowDescribesOneResource) {
  State state = OpenOrDie(Fixture("valid/full-export.json"));
  ShowConfig config;
  config.urn = "urn:pulumi:dev::proj::my:mod:Comp$aws:s3:Bucket::b";
  Result<ShowResult> shown = Show(state, config);
  ASSERT_TRUE(shown.ok()) << shown.status().message();
  EXPECT_EQ(shown->row.type, "aws:s3:Bucket");
  EXPECT_EQ(shown->row.id, "b-1");
  EXPECT_EQ(shown->copies, 1u);
  EXPECT_EQ(shown->dependencies,
            std::vector<std::string>{"urn:pulumi:dev::proj::my:mod:Comp::c"});
  ASSERT_EQ(shown->property_dependencies.count("acl"), 1u);
  ASSERT_TRUE(shown->inputs.has_value());
  EXPECT_NE(shown->inputs->find("\"acl\":\"private\""), std::string::npos);
  // The secret output is masked: its ciphertext is not the value shown.
  ASSERT_TRUE(shown->outputs.has_value());
  EXPECT_NE(shown->outputs->find("[secret]"), std::string::npos);
  EXPECT_EQ(shown->outputs->find("v1:F+6ZduKKd8G0"), std::string::npos);

  // The component the bucket names as parent and dependency.
  config.urn = "urn:pulumi:dev::proj::my:mod:Comp::c";
  shown = Show(state, config);
  ASSERT_TRUE(shown.ok()) << shown.status().message();
  bool via_parent = false;
  for (const Dependent& d : shown->dependents) {
    if (d.via == "parent" && d.urn.ends_with("Bucket::b")) via_parent = true;
  }
  EXPECT_TRUE(via_parent);

  config.urn.clear();
  config.index = 1;
  shown = Show(state, config);
  ASSERT_TRUE(shown.ok());
  EXPECT_EQ(shown->row.index, 1u);

  config.urn = "urn:pulumi:dev::proj::no:such:Type::x";
  shown = Show(state, config);
  ASSERT_FALSE(shown.ok());
  EXPECT_EQ(shown.status().code(), Errc::kNotFound);
}

TEST(ApiTest, NormalizeCheck) {
  NormalizeConfig config;
  config.check = true;
  Result<NormalizeResult> result =
      Normalize(OpenOrDie(Fixture("valid/minimal.json")), config);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->layout, Layout::kExport);
}

TEST(ApiTest, NormalizeWritesTheOutput) {
  testing::TempDir dir;
  NormalizeConfig config;
  config.output = dir.File("out.json");
  config.layout = Layout::kDiy;
  Result<NormalizeResult> result =
      Normalize(OpenOrDie(Fixture("valid/minimal.json")), config);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->layout, Layout::kDiy);
  std::string out = ReadFile(config.output);
  EXPECT_EQ(out.find('\n'), std::string::npos);  // compact
  EXPECT_NE(out.find("pulumi:pulumi:Stack"), std::string::npos);
}

TEST(ApiTest, NormalizeInPlaceNeedsAFile) {
  Result<State> state = State::FromBytes("{}");
  ASSERT_TRUE(state.ok());
  NormalizeConfig config;
  config.in_place = true;
  Result<NormalizeResult> result = Normalize(*state, config);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), Errc::kInvalidArgument);
}

TEST(ApiTest, ConvertToACheckpoint) {
  testing::TempDir dir;
  ConvertConfig config;
  config.output = dir.File("out.json");
  config.to = ConvertTarget::kCheckpoint;
  Result<ConvertResult> result =
      Convert(OpenOrDie(Fixture("valid/minimal.json")), config);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->stack, "organization/proj/dev");
  Result<StatsResult> stats = Stats(OpenOrDie(config.output));
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  EXPECT_EQ(stats->envelope, "checkpoint");
}

TEST(ApiTest, RedactCountsWhatItReplaced) {
  testing::TempDir dir;
  RedactConfig config;
  config.output = dir.File("out.json");
  Result<RedactResult> result =
      Redact(OpenOrDie(Fixture("valid/full-export.json")), config);
  ASSERT_TRUE(result.ok()) << result.status().message();
  Result<Findings> findings = Verify(OpenOrDie(config.output));
  ASSERT_TRUE(findings.ok());
  EXPECT_FALSE(findings->unreadable);
}

TEST(ApiTest, TypecheckVerdicts) {
  TypecheckConfig config;
  config.language = TypeLanguage::kPulumi;
  config.type = "Number";
  Result<TypeVerdict> ok = Typecheck("1", config);
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->outcome, TypeOutcome::kOk);
  Result<TypeVerdict> bad = Typecheck("\"a\"", config);
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(bad->outcome, TypeOutcome::kError);
  EXPECT_FALSE(bad->message.empty());
  Result<TypeVerdict> not_json = Typecheck("{", config);
  ASSERT_FALSE(not_json.ok());
  EXPECT_EQ(not_json.status().code(), Errc::kSyntax);
}

TEST(ApiTest, TypecheckAValueInAState) {
  TypecheckConfig config;
  config.language = TypeLanguage::kPulumi;
  config.type = "String";
  State state = OpenOrDie(Fixture("valid/minimal.json"));
  Result<TypeVerdict> verdict =
      TypecheckPointer(state, "/deployment/resources/0/type", config);
  ASSERT_TRUE(verdict.ok()) << verdict.status().message();
  EXPECT_EQ(verdict->outcome, TypeOutcome::kOk);
  Result<TypeVerdict> missing = TypecheckOutput(state, "nothing", config);
  ASSERT_FALSE(missing.ok());
}

TEST(ApiTest, LoadSchemasFailsForAMissingFile) {
  Result<Schemas> schemas = Schemas::Load({"/no/such/schema.json"});
  ASSERT_FALSE(schemas.ok());
}

}  // namespace
}  // namespace pstate
