#include "pstate/pstate.h"

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

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

TEST(ApiTest, InputNameIsTheNameAStateIsOpenedUnder) {
  EXPECT_EQ(InputName("-"), "<stdin>");
  EXPECT_EQ(InputName(Fixture("valid/minimal.json")),
            Fixture("valid/minimal.json"));
  EXPECT_EQ(OpenOrDie(Fixture("valid/minimal.json")).name(),
            InputName(Fixture("valid/minimal.json")));
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
  EXPECT_EQ(f.code, FindingCode::kDependencyMissing);
  EXPECT_EQ(f.code_name(), "dependency-missing");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.line, 7u);
  EXPECT_EQ(f.column, 120u);
  EXPECT_EQ(f.pointer, "/deployment/resources/1/dependencies/0");
  EXPECT_EQ(f.urn, "urn:pulumi:dev::proj::my:mod:Thing::t");
  EXPECT_FALSE(f.fingerprint.empty());
  EXPECT_EQ(findings->errors + findings->warnings + findings->notes,
            findings->findings.size());
}

TEST(ApiTest, FindingCodesHaveStableNames) {
  ASSERT_GT(FindingCodeCount(), 0u);
  for (std::size_t i = 0; i < FindingCodeCount(); ++i) {
    const auto code = static_cast<FindingCode>(i);
    std::optional<FindingCode> named = FindingCodeNamed(CodeName(code));
    ASSERT_TRUE(named.has_value()) << CodeName(code);
    EXPECT_EQ(*named, code);
  }
  EXPECT_EQ(CodeName(FindingCode::kUrnMalformed), "urn-malformed");
  EXPECT_FALSE(FindingCodeNamed("no-such-code").has_value());
}

TEST(ApiTest, VerifyCountsFindingsByCode) {
  State state = OpenOrDie(Fixture("invalid/036-dependency-missing.json"));
  Result<Findings> findings = Verify(state);
  ASSERT_TRUE(findings.ok());
  ASSERT_EQ(findings->by_code.size(), FindingCodeCount());
  std::uint64_t by_code = 0;
  for (std::uint64_t n : findings->by_code) by_code += n;
  EXPECT_EQ(by_code, findings->errors + findings->warnings + findings->notes);
  EXPECT_GE(
      findings
          ->by_code[static_cast<std::size_t>(FindingCode::kDependencyMissing)],
      1u);
  EXPECT_EQ(findings->suppressed, 0u);
  // In file order, each with its arrival order.
  for (std::size_t i = 1; i < findings->findings.size(); ++i) {
    EXPECT_LE(findings->findings[i - 1].line, findings->findings[i].line);
  }
}

TEST(ApiTest, VerifyAppliesTheFindingFilter) {
  State state = OpenOrDie(Fixture("invalid/036-dependency-missing.json"));
  Result<Findings> all = Verify(state);
  ASSERT_TRUE(all.ok());
  ASSERT_FALSE(all->findings.empty());
  const std::uint64_t counted = all->errors + all->warnings + all->notes;

  VerifyConfig skip;
  skip.filter.skip.insert(FindingCode::kDependencyMissing);
  Result<Findings> skipped = Verify(state, skip);
  ASSERT_TRUE(skipped.ok());
  const std::uint64_t missing =
      all->by_code[static_cast<std::size_t>(FindingCode::kDependencyMissing)];
  EXPECT_EQ(skipped->suppressed, missing);
  EXPECT_EQ(skipped->errors + skipped->warnings + skipped->notes,
            counted - missing);
  for (const Finding& f : skipped->findings) {
    EXPECT_NE(f.code, FindingCode::kDependencyMissing);
  }

  // A baseline of the first run's fingerprints: nothing new counts.
  VerifyConfig baseline;
  for (const Finding& f : all->findings) {
    baseline.filter.fingerprints.insert(f.fingerprint);
  }
  baseline.max_findings = 1;
  Result<Findings> none = Verify(state, baseline);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->findings.empty());
  EXPECT_EQ(none->errors + none->warnings + none->notes, 0u);
  EXPECT_EQ(none->suppressed, counted);
  EXPECT_EQ(none->omitted, 0u);

  // The same through FilterFindings on the first run's result.
  FindingFilter missing_only;
  missing_only.only.insert(FindingCode::kDependencyMissing);
  Findings only = FilterFindings(*all, missing_only, 1);
  EXPECT_EQ(only.errors + only.warnings + only.notes, missing);
  EXPECT_EQ(only.suppressed, counted - missing);
  EXPECT_EQ(only.findings.size(), 1u);
  EXPECT_EQ(only.omitted, missing - 1);
  EXPECT_EQ(only.file, all->file);
}

TEST(ApiTest, BaselinesAndIgnoreFilesGiveFingerprints) {
  const std::string fp(32, 'a');
  Result<std::vector<std::string>> ignore =
      ParseIgnoreFile(fp + "  # accepted\n\n# a comment\n", ".pstateignore");
  ASSERT_TRUE(ignore.ok()) << ignore.status().message();
  EXPECT_EQ(*ignore, std::vector<std::string>{fp});
  Result<std::vector<std::string>> bad = ParseIgnoreFile("nope\n", "ig");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("ig:1"), std::string::npos)
      << bad.status().message();

  Result<std::vector<std::string>> baseline = ParseBaseline(
      "{\"file\":\"a\",\"findings\":[{\"fingerprint\":\"" + fp + "\"}]}\n",
      "base.jsonl");
  ASSERT_TRUE(baseline.ok()) << baseline.status().message();
  EXPECT_EQ(*baseline, std::vector<std::string>{fp});
  EXPECT_FALSE(ParseBaseline("[1]\n", "b").ok());
  EXPECT_EQ(SeverityName(Severity::kWarning), "warning");
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
  EXPECT_EQ(findings->findings.at(0).code_name(), "dependency-missing");
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

// One key shared by the calls of a run gives equal fingerprints; several
// threads give the same findings.
TEST(ApiTest, ScanWithASharedKeyAndThreads) {
  const std::string leaks =
      std::string(PSTATE_FIXTURES_DIR) + "/scan/leaks.json";
  ScanConfig config;
  config.key = FingerprintKey::Random();
  Result<ScanResult> one = Scan(OpenOrDie(leaks), config);
  ASSERT_TRUE(one.ok()) << one.status().message();
  ASSERT_FALSE(one->findings.findings.empty());
  config.jobs = 2;
  Result<ScanResult> two = Scan(OpenOrDie(leaks), config);
  ASSERT_TRUE(two.ok()) << two.status().message();
  ASSERT_EQ(one->findings.findings.size(), two->findings.findings.size());
  for (std::size_t i = 0; i < one->findings.findings.size(); ++i) {
    EXPECT_EQ(one->findings.findings[i].fingerprint,
              two->findings.findings[i].fingerprint);
  }
  config.jobs = 0;
  EXPECT_FALSE(Scan(OpenOrDie(leaks), config).ok());
}

TEST(ApiTest, ScanUnopenedIsAnUnreadableInput) {
  const std::string path = Fixture("valid/no-such-file.json");
  Result<State> state = State::Open(path);
  ASSERT_FALSE(state.ok());
  ScanResult result = ScanUnopened(path, state.status());
  EXPECT_TRUE(result.findings.unreadable);
  EXPECT_EQ(result.findings.file, path);
  ASSERT_EQ(result.findings.findings.size(), 1U);
  const Finding& f = result.findings.findings[0];
  EXPECT_EQ(f.code, FindingCode::kIoError);
  EXPECT_EQ(f.message, state.status().message());
  EXPECT_FALSE(f.fingerprint.empty());
  EXPECT_EQ(result.findings.errors, 1U);
}

TEST(ApiTest, PassphraseFromInputsTrimsFilesAsGoDoes) {
  testing::TempDir dir;
  const std::string file = dir.File("phrase.txt");
  std::ofstream(file) << "  open sesame \r\n";
  PassphraseInputs inputs;
  inputs.env_file = file;
  Result<std::string> from_env_file = PassphraseResolve(inputs);
  ASSERT_TRUE(from_env_file.ok()) << from_env_file.status().message();
  EXPECT_EQ(*from_env_file, "open sesame");
  inputs.passphrase = " verbatim ";  // the variable wins over its file
  EXPECT_EQ(*PassphraseResolve(inputs), " verbatim ");
  inputs.file = file;  // an explicit file wins over both
  PassphraseSource source = PassphraseFromInputs(inputs);
  EXPECT_EQ(*source(), "open sesame");
  Result<std::string> none = PassphraseResolve(PassphraseInputs{});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), Errc::kInvalidArgument);
  EXPECT_NE(none.status().message().find(kPassphraseEnv), std::string::npos);
  EXPECT_NE(none.status().message().find(kPassphraseFileEnv),
            std::string::npos);
  PassphraseInputs missing;
  missing.file = dir.File("absent.txt");
  Result<std::string> unread = PassphraseFromInputs(missing)();
  ASSERT_FALSE(unread.ok());
  EXPECT_NE(unread.status().message().find("absent.txt"), std::string::npos);
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
  ASSERT_EQ(tree->size(), rows->size());
  std::vector<int> seen(tree->size(), 0);
  std::vector<std::uint32_t> unvisited = tree->roots();
  while (!unvisited.empty()) {
    std::uint32_t i = unvisited.back();
    unvisited.pop_back();
    ++seen.at(i);
    for (std::uint32_t c : tree->children(i)) unvisited.push_back(c);
  }
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i], 1) << tree->node(i).urn();
    EXPECT_EQ(tree->node(i).urn(), (*rows)[i].urn);
  }
  // Copies share the tree: nodes stay valid while any copy lives.
  TreeResult copy = *tree;
  tree = Status(Errc::kIo, "gone");
  ASSERT_GT(copy.size(), 0u);
  EXPECT_EQ(copy.node(0).urn(), (*rows)[0].urn);
  EXPECT_EQ(TreeResult().size(), 0u);
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
  bool acl = false;
  for (const ValueMember& m : shown->inputs->members) {
    acl = acl || (m.key == "acl" && m.value.Str() == "private");
  }
  EXPECT_TRUE(acl);
  // The secret output is hidden: its ciphertext is not in the result.
  ASSERT_TRUE(shown->outputs.has_value());
  std::size_t hidden = 0;
  for (const ValueMember& m : shown->outputs->members) {
    if (m.value.hidden()) ++hidden;
    EXPECT_EQ(m.value.text.find("v1:F+6ZduKKd8G0"), std::string::npos);
  }
  EXPECT_GT(hidden, 0u);

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

TEST(ApiTest, TypecheckNamesAndAValueFile) {
  EXPECT_EQ(TypecheckLanguageNamed("pulumi-schema"),
            TypeLanguage::kPulumiSchema);
  EXPECT_EQ(TypecheckLanguageNamed("java"), std::nullopt);
  EXPECT_EQ(TypecheckOutcomeName(TypeOutcome::kConvert), "convert");
  testing::TempDir dir;
  const std::string file = dir.File("value.json");
  std::ofstream(file) << "[1, 2]";
  TypecheckConfig config;
  config.language = TypeLanguage::kPuppet;
  config.type = "Pair";
  config.puppet_aliases = {"Pair = Tuple[Integer, Integer]"};
  Result<TypeVerdict> verdict = TypecheckFile(file, config);
  ASSERT_TRUE(verdict.ok()) << verdict.status().message();
  EXPECT_EQ(verdict->outcome, TypeOutcome::kOk);
  Result<TypeVerdict> missing = TypecheckFile(dir.File("absent.json"), config);
  ASSERT_FALSE(missing.ok());
}

TEST(ApiTest, TypecheckCasesOneAtATime) {
  testing::TempDir dir;
  const std::string file = dir.File("cases.jsonl");
  std::ofstream(file)
      << R"({"system":"pulumi","type":"Number","value":1,"expect":"ok"})"
      << "\n\n"
      << R"({"system":"pulumi","type":"Number","value":"x","expect":"ok"})"
      << "\n[1]\n";
  std::vector<TypecheckCase> cases;
  Result<TypecheckCasesResult> result =
      TypecheckCases(file, TypecheckConfig{},
                     [&](const TypecheckCase& one) { cases.push_back(one); });
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->cases, 3U);
  EXPECT_EQ(result->failed, 1U);
  EXPECT_EQ(result->invalid, 1U);
  ASSERT_EQ(cases.size(), 3U);
  EXPECT_EQ(cases[0].line, 1U);
  EXPECT_EQ(cases[0].pass, true);
  EXPECT_EQ(cases[1].line, 3U);
  EXPECT_EQ(cases[1].verdict.outcome, TypeOutcome::kError);
  EXPECT_EQ(cases[1].pass, false);
  EXPECT_EQ(cases[2].invalid, "line 4: a case is a JSON object");
  Result<TypecheckCasesResult> unreadable = TypecheckCases(
      dir.File("absent.jsonl"), TypecheckConfig{}, [](const TypecheckCase&) {});
  ASSERT_FALSE(unreadable.ok());
}

TEST(ApiTest, LoadSchemasFailsForAMissingFile) {
  Result<Schemas> schemas = Schemas::Load({"/no/such/schema.json"});
  ASSERT_FALSE(schemas.ok());
}

// ls and stats on several threads: the same rows, in the same order, and
// the same counts (the engine's parallel read folds in state order).
TEST(ApiTest, ListAndStatsAreTheSameOnSeveralThreads) {
  State state = OpenOrDie(Fixture("valid/full-export.json"));
  Result<std::vector<ResourceRow>> one = List(state);
  ListConfig threads;
  threads.jobs = 3;
  Result<std::vector<ResourceRow>> many = List(state, threads);
  ASSERT_TRUE(one.ok() && many.ok());
  ASSERT_EQ(one->size(), many->size());
  for (std::size_t i = 0; i < one->size(); ++i) {
    EXPECT_EQ((*one)[i].urn, (*many)[i].urn);
    EXPECT_EQ((*one)[i].bytes, (*many)[i].bytes);
  }
  threads.limit = 2;
  Result<std::vector<ResourceRow>> two = List(state, threads);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->size(), 2u);
  StatsConfig stats_threads;
  stats_threads.jobs = 3;
  Result<StatsResult> a = Stats(state);
  Result<StatsResult> b = Stats(state, stats_threads);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->resources.count, b->resources.count);
  EXPECT_EQ(a->resources.bytes, b->resources.bytes);
  EXPECT_EQ(a->by_type.size(), b->by_type.size());
  EXPECT_EQ(a->largest, b->largest);
  EXPECT_EQ(a->secrets, b->secrets);
}

// A stack's earlier version, named as on the command line.
TEST(ApiTest, OpenResolvesABackendVersion) {
  const std::string stack = std::string(PSTATE_FIXTURES_DIR) +
                            "/backends/project/.pulumi/stacks/web/dev.json";
  Result<State> first = State::Open(stack + "@2");
  ASSERT_TRUE(first.ok()) << first.status().message();
  Result<std::vector<ResourceRow>> then = List(*first);
  Result<std::vector<ResourceRow>> now = List(OpenOrDie(stack));
  ASSERT_TRUE(then.ok() && now.ok());
  EXPECT_EQ(then->size(), 5u);  // update 2 added a resource a later one removed
  EXPECT_EQ(now->size(), 4u);
  Result<State> missing = State::Open(stack + "@999");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("999"), std::string::npos)
      << missing.status().message();
}

TEST(ApiTest, HistoryListsRestoresAndPrunes) {
  const std::string backend =
      std::string(PSTATE_FIXTURES_DIR) + "/backends/project";
  const std::string dev = backend + "/.pulumi/stacks/web/dev.json";
  Result<std::vector<StackSummary>> stacks = HistoryBackend(backend);
  ASSERT_TRUE(stacks.ok()) << stacks.status().message();
  ASSERT_EQ(stacks->size(), 3u);
  bool locked = false;
  for (const StackSummary& s : *stacks) locked |= s.locked;
  EXPECT_TRUE(locked);

  Result<HistoryTarget> target = HistoryOpen(dev);
  ASSERT_TRUE(target.ok()) << target.status().message();
  EXPECT_EQ(target->stack.QualifiedName(), "organization/web/dev");
  std::vector<UpdateRow> rows = HistoryList(*target, /*verify=*/true);
  ASSERT_EQ(rows.size(), target->history.size());
  ASSERT_FALSE(rows.empty());
  EXPECT_GT(rows.front().entry.number,
            rows.back().entry.number);  // newest first
  EXPECT_FALSE(HistoryOpen(backend + "/.pulumi/meta.yaml").ok());

  testing::TempDir dir;
  HistoryRestoreConfig restore;
  restore.ref = dev + "@2";
  restore.output = dir.File("export.json");
  Result<HistoryRestoreResult> restored = HistoryRestore(restore);
  ASSERT_TRUE(restored.ok()) << restored.status().message();
  EXPECT_EQ(restored->written, restore.output);
  Result<std::vector<ResourceRow>> now = List(OpenOrDie(restore.output));
  ASSERT_TRUE(now.ok());
  EXPECT_EQ(now->size(), 5u);  // as State::Open(dev + "@2") reads it

  EXPECT_EQ(DurationSeconds("2d"), std::int64_t{2} * 24 * 3600);
  EXPECT_EQ(DurationSeconds("2 days"), std::nullopt);
  HistoryPruneConfig prune;
  prune.target = dev;
  prune.keep = 2;
  Result<HistoryPruneResult> listed = HistoryPrune(prune);  // without yes
  ASSERT_TRUE(listed.ok()) << listed.status().message();
  EXPECT_FALSE(listed->deleted);
  EXPECT_FALSE(listed->files.empty());
}

TEST(ApiTest, DecryptNeedsTheRightPassphrase) {
  const std::string secrets = std::string(PSTATE_FIXTURES_DIR) + "/secrets/";
  State state = OpenOrDie(secrets + "passphrase.json");
  testing::TempDir dir;
  CryptConfig config;
  config.output = dir.path().string() + "/plain.json";
  config.passphrase = FixedPassphrase("not the passphrase");
  Result<CryptResult> wrong = Decrypt(state, config);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), Errc::kCrypto);
  std::string passphrase = ReadFile(secrets + "passphrase.txt");
  while (!passphrase.empty() && passphrase.back() == '\n')
    passphrase.pop_back();
  config.passphrase = FixedPassphrase(passphrase);
  Result<CryptResult> opened = Decrypt(state, config);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  EXPECT_GT(opened->secrets, 0u);
  EXPECT_EQ(opened->provider, "passphrase");
  // Sealed again, the state verifies.
  CryptConfig seal;
  seal.output = dir.path().string() + "/sealed.json";
  seal.passphrase = FixedPassphrase(passphrase);
  Result<CryptResult> sealed =
      Encrypt(OpenOrDie(dir.path().string() + "/plain.json"), seal);
  ASSERT_TRUE(sealed.ok()) << sealed.status().message();
  EXPECT_EQ(sealed->secrets, opened->secrets);
  Result<Findings> check = Verify(OpenOrDie(seal.output));
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(check->errors, 0u);
}

TEST(ApiTest, APassphraseIsAskedForOnlyWhenNeeded) {
  const std::string secrets = std::string(PSTATE_FIXTURES_DIR) + "/secrets/";
  testing::TempDir dir;
  int asked = 0;
  CryptConfig config;
  config.output = dir.File("plain.json");
  config.passphrase = [&asked]() -> Result<std::string> {
    ++asked;
    return Status(Errc::kInvalidArgument, "no passphrase here");
  };
  Result<CryptResult> b64 = Decrypt(OpenOrDie(secrets + "b64.json"), config);
  ASSERT_TRUE(b64.ok()) << b64.status().message();
  EXPECT_EQ(asked, 0);
  // A passphrase state asks, and the source's failure is the call's.
  Result<CryptResult> refused =
      Decrypt(OpenOrDie(secrets + "passphrase.json"), config);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(asked, 1);
  EXPECT_NE(refused.status().message().find("no passphrase here"),
            std::string::npos)
      << refused.status().message();
}

TEST(ApiTest, FingerprintKeysAndPseudonyms) {
  EXPECT_EQ(FingerprintKey::FromFile("/nonexistent/key").status().code(),
            Errc::kNotFound);
  testing::TempDir dir;
  const std::string key_file = dir.File("key");
  {
    std::ofstream key(key_file, std::ios::binary);
    key << "a key of some length";
  }
  Result<FingerprintKey> key = FingerprintKey::FromFile(key_file);
  ASSERT_TRUE(key.ok()) << key.status().message();
  RedactConfig config;
  config.key = *key;
  config.fingerprint = true;
  config.anonymize = true;
  std::string outputs[2];
  for (std::string& output : outputs) {
    config.output = dir.File("out" + std::to_string(&output - outputs));
    Result<RedactResult> result =
        Redact(OpenOrDie(Fixture("valid/full-export.json")), config);
    ASSERT_TRUE(result.ok()) << result.status().message();
    EXPECT_GT(result->secrets, 0u);
    EXPECT_FALSE(result->anonymized.empty());
    output = ReadFile(config.output);
  }
  // One key, the same fingerprints and pseudonyms.
  EXPECT_EQ(outputs[0], outputs[1]);
  RedactConfig plain;
  plain.output = dir.File("plain");
  Result<RedactResult> result =
      Redact(OpenOrDie(Fixture("valid/full-export.json")), plain);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_TRUE(result->anonymized.empty());
}

TEST(ApiTest, LayoutsByName) {
  EXPECT_EQ(LayoutNamed("export"), Layout::kExport);
  EXPECT_EQ(LayoutNamed("diy"), Layout::kDiy);
  EXPECT_EQ(LayoutNamed("diy-state-command"), Layout::kDiyStateCommand);
  EXPECT_EQ(LayoutNamed("Export"), std::nullopt);
}

TEST(ApiTest, ExtractTakesAFilter) {
  const std::string input =
      std::string(PSTATE_FIXTURES_DIR) + "/edit/example.json";
  const std::string bucket = "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::logs";
  testing::TempDir dir;
  EditConfig config;
  config.operation = EditOperation::kExtract;
  config.select.type = "aws:s3/bucket:Bucket";
  config.output = dir.File("part.json");
  Result<EditResult> done = Edit(OpenOrDie(input), config);
  ASSERT_TRUE(done.ok()) << done.status().message();
  EXPECT_FALSE(done->refused) << done->refusal;
  EXPECT_EQ(done->selected, std::vector<std::string>{bucket});
  Result<Findings> check = Verify(OpenOrDie(config.output));
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(check->errors, 0u);
  Result<std::vector<ResourceRow>> rows = List(OpenOrDie(config.output));
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  bool has_bucket = false;
  for (const ResourceRow& row : *rows) has_bucket |= row.urn == bucket;
  EXPECT_TRUE(has_bucket);
}

TEST(ApiTest, ResourceFlagsByName) {
  for (ResourceFlag flag : kResourceFlags) {
    EXPECT_EQ(ResourceFlagNamed(ResourceFlagName(flag)), flag);
  }
  EXPECT_EQ(ResourceFlagName(ResourceFlag::kPendingReplacement),
            "pending-replacement");
  EXPECT_EQ(ResourceFlagNamed("protected"), std::nullopt);
  ResourceFilter filter;
  EXPECT_TRUE(filter.empty());
  filter.flags.push_back(ResourceFlag::kProtect);
  EXPECT_FALSE(filter.empty());
}

TEST(ApiTest, EditProtectsAndRefuses) {
  const std::string input =
      std::string(PSTATE_FIXTURES_DIR) + "/edit/example.json";
  const std::string bucket = "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::logs";
  testing::TempDir dir;
  EditConfig protect;
  protect.operation = EditOperation::kProtect;
  protect.urns = {bucket};
  protect.output = dir.path().string() + "/protected.json";
  Result<EditResult> done = Edit(OpenOrDie(input), protect);
  ASSERT_TRUE(done.ok()) << done.status().message();
  EXPECT_FALSE(done->refused);
  EXPECT_TRUE(done->written);
  ASSERT_EQ(done->resources.size(), 1u);
  EXPECT_EQ(done->resources[0].what, bucket);
  EXPECT_EQ(done->resources[0].kind, EditChangeKind::kChanged);

  // Deleting the protected bucket is refused, and nothing is written.
  EditConfig remove;
  remove.operation = EditOperation::kDelete;
  remove.urns = {bucket};
  remove.output = dir.path().string() + "/deleted.json";
  Result<EditResult> refused = Edit(OpenOrDie(protect.output), remove);
  ASSERT_TRUE(refused.ok()) << refused.status().message();
  EXPECT_TRUE(refused->refused);
  EXPECT_FALSE(refused->written);
  EXPECT_FALSE(std::ifstream(remove.output).good());

  // A dry run by filter: the diff, no file.
  EditConfig taint;
  taint.operation = EditOperation::kTaint;
  taint.select.type = "aws:s3/bucket:Bucket";
  taint.dry_run = true;
  Result<EditResult> dry = Edit(OpenOrDie(input), taint);
  ASSERT_TRUE(dry.ok()) << dry.status().message();
  EXPECT_FALSE(dry->written);
  ASSERT_TRUE(dry->diff.has_value());
  EXPECT_EQ(dry->diff->resources.size(), 1u);
  EXPECT_EQ(dry->selected, std::vector<std::string>{bucket});

  // In place needs a file.
  Result<State> bytes = State::FromBytes(ReadFile(input));
  ASSERT_TRUE(bytes.ok());
  EditConfig in_place = protect;
  in_place.in_place = true;
  Result<EditResult> memory = Edit(*bytes, in_place);
  ASSERT_FALSE(memory.ok());
  EXPECT_EQ(memory.status().code(), Errc::kInvalidArgument);
}

// ---- assets
// -------------------------------------------------------------------

TEST(ApiTest, AssetsStreamsRowsAndTallies) {
  State state =
      OpenOrDie(std::string(PSTATE_FIXTURES_DIR) + "/audit/statuses.json");
  AssetsConfig config;
  config.root = std::string(PSTATE_FIXTURES_DIR) + "/audit/files";
  config.jobs = 3;
  std::vector<AssetRow> rows;
  config.on_row = [&rows](AssetRow&& row) { rows.push_back(std::move(row)); };
  Result<AssetsResult> result = Assets(state, config);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_FALSE(result->failure);
  ASSERT_EQ(rows.size(), result->tally.total());
  ASSERT_GE(rows.size(), 2u);
  EXPECT_EQ(rows[0].pointer, "/deployment/resources/2/inputs/source");
  EXPECT_EQ(rows[0].status, AssetStatus::kOk);
  EXPECT_EQ(rows[0].kind, AssetKind::kAsset);
  EXPECT_EQ(rows[0].source, AssetSource::kText);
  EXPECT_EQ(rows[0].recorded, rows[0].actual);
  EXPECT_EQ(rows[1].status, AssetStatus::kMismatch);
  EXPECT_EQ(AssetStatusName(rows[1].status), "mismatch");
  EXPECT_GE(result->tally.count(AssetStatus::kMismatch), 1u);
  EXPECT_TRUE(result->tally.failed());
}

TEST(ApiTest, AssetsOfAnUnreadableStateIsAFailure) {
  State state = OpenOrDie(std::string(PSTATE_FIXTURES_DIR) +
                          "/audit/truncated-state.json");
  AssetsConfig config;
  config.root = std::string(PSTATE_FIXTURES_DIR) + "/audit/files";
  Result<AssetsResult> result = Assets(state, config);
  ASSERT_TRUE(result.ok());
  ASSERT_TRUE(result->failure);
  EXPECT_EQ(result->failure->line, 106u);
  EXPECT_EQ(result->failure->pointer, "/deployment/resources/7");
  EXPECT_NE(result->failure->status.message().find("truncated-state.json:106:"),
            std::string::npos);
}

TEST(ApiTest, AssetsRunTotalsAreShared) {
  State state =
      OpenOrDie(std::string(PSTATE_FIXTURES_DIR) + "/audit/statuses.json");
  AssetsConfig config;
  config.root = std::string(PSTATE_FIXTURES_DIR) + "/audit/files";
  config.jobs = 1;
  config.totals.max_bytes = 12;  // a little more than one row's content
  config.run = NewAssetRun(config);
  Result<AssetsResult> first = Assets(state, config);
  Result<AssetsResult> second = Assets(state, config);
  ASSERT_TRUE(first.ok() && second.ok());
  // The second call finds the run's budget spent already; a call with no
  // run is a run of its own, as the first was.
  EXPECT_GT(first->tally.count(AssetStatus::kOk), 0u);
  EXPECT_LT(second->tally.count(AssetStatus::kOk),
            first->tally.count(AssetStatus::kOk));
  config.run = nullptr;
  Result<AssetsResult> alone = Assets(state, config);
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(alone->tally.count(AssetStatus::kOk),
            first->tally.count(AssetStatus::kOk));
}

TEST(ApiTest, ReadFailureOfAStatus) {
  ReadFailure f =
      ReadFailureOf("s.json", Status(Errc::kNotFound, "s.json: no such file"));
  EXPECT_EQ(f.code, FindingCode::kIoError);
  EXPECT_EQ(CodeName(f.code), "io-error");
  EXPECT_EQ(f.reason, "no such file");
  EXPECT_EQ(f.status.code(), Errc::kNotFound);
  EXPECT_EQ(f.status.message(), "s.json: no such file");
}

// ---- finding codes, ignore files
// ---------------------------------------------

TEST(ApiTest, FindingCodesAreDocumented) {
  const std::vector<FindingCodeInfo>& codes = FindingCodeInfos();
  ASSERT_FALSE(codes.empty());
  const FindingCodeInfo* code = FindingCodeInfoNamed("dependency-missing");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->name, "dependency-missing");
  EXPECT_EQ(code->severity, Severity::kError);
  EXPECT_FALSE(code->fatal);
  EXPECT_FALSE(code->summary.empty());
  EXPECT_FALSE(code->markdown.empty());
  EXPECT_FALSE(code->description.empty());
  EXPECT_EQ(code->help_uri,
            std::string(DocsBaseUri()) + "/diagnostics.md#dependency-missing");
  const FindingCodeInfo* fatal = FindingCodeInfoNamed("json-syntax");
  ASSERT_NE(fatal, nullptr);
  EXPECT_TRUE(fatal->fatal);
  EXPECT_EQ(FindingCodeInfoNamed("no-such-code"), nullptr);
  EXPECT_EQ(SeverityName(Severity::kWarning), "warning");
}

TEST(ApiTest, IgnoreAddWritesOnceAndRefusesBadInput) {
  testing::TempDir dir;
  IgnoreAddConfig config;
  config.file = dir.File(".pstateignore");
  config.fingerprint = "0123456789ABCDEF0123456789abcdef";
  config.reason = "accepted";
  Result<IgnoreAddResult> first = IgnoreAdd(config);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_FALSE(first->already_listed);
  EXPECT_EQ(ReadFile(config.file),
            "0123456789abcdef0123456789abcdef  # accepted\n");
  Result<IgnoreAddResult> again = IgnoreAdd(config);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->already_listed);
  config.fingerprint = "xyz";
  Result<IgnoreAddResult> bad = IgnoreAdd(config);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Errc::kInvalidArgument);
}

// ---- graph ------------------------------------------------------------------

TEST(ApiTest, GraphOfAState) {
  State state = OpenOrDie(std::string(PSTATE_FIXTURES_DIR) + "/graph/web.json");
  GraphConfig config;
  config.edges = kEveryGraphEdge;
  Result<ResourceGraph> g = Graph(state, config);
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->resources, 7u);
  ASSERT_FALSE(g->nodes.empty());
  EXPECT_EQ(g->nodes[0].urn,
            "urn:pulumi:dev::web::pulumi:providers:aws::default_6_0_0");
  EXPECT_TRUE(g->nodes[0].provider);
  bool parent_edge = false;
  for (const GraphEdge& e : g->edges) {
    ASSERT_LT(e.from, g->nodes.size());
    ASSERT_LT(e.to, g->nodes.size());
    parent_edge |= e.kind == GraphEdgeKind::kParent;
  }
  EXPECT_TRUE(parent_edge);

  config.edges = kDefaultGraphEdges;
  config.group_by_type = true;
  Result<ResourceGraph> grouped = Graph(state, config);
  ASSERT_TRUE(grouped.ok());
  EXPECT_TRUE(grouped->grouped);
  for (const GraphEdge& e : grouped->edges) {
    EXPECT_NE(e.kind, GraphEdgeKind::kParent);
  }
}

TEST(ApiTest, GraphEdgeKindsByName) {
  for (GraphEdgeKind kind : kGraphEdgeKinds) {
    EXPECT_EQ(GraphEdgeKindNamed(GraphEdgeKindName(kind)), kind);
  }
  EXPECT_EQ(GraphEdgeKindName(GraphEdgeKind::kPropertyDependency),
            "propertyDependencies");
  EXPECT_FALSE(GraphEdgeKindNamed("aliases"));  // not a dependency edge
}

TEST(ApiTest, GraphOfAnUnreadableStateFails) {
  State state =
      OpenOrDie(std::string(PSTATE_FIXTURES_DIR) + "/inspect/truncated.json");
  Result<ResourceGraph> g = Graph(state);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("truncated.json:12:10"),
            std::string::npos);
}

// ---- report (HTML) ----------------------------------------------------------

TEST(ApiTest, HtmlReportModel) {
  const std::string dir = std::string(PSTATE_FIXTURES_DIR) + "/inspect/";
  State state = OpenOrDie(dir + "base.json");
  HtmlReportConfig config;
  config.after = OpenOrDie(dir + "changed.json");
  Result<HtmlReportModel> model = HtmlReport(state, config);
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_EQ(model->file, dir + "base.json");
  EXPECT_EQ(model->after_file, dir + "changed.json");
  ASSERT_FALSE(model->rows.empty());
  EXPECT_EQ(model->rows.size(), model->tree_parent.size());
  EXPECT_EQ(model->graph.kinds, kEveryGraphEdge);
  // The findings, the split by section and the diff are API types.
  EXPECT_EQ(model->findings.file, dir + "base.json");
  EXPECT_FALSE(model->findings.unreadable);
  ASSERT_FALSE(model->sections_by_type.empty());
  for (const auto& [type, sections] : model->sections_by_type) {
    EXPECT_GT(sections.inputs + sections.outputs + sections.dependencies +
                  sections.property_dependencies + sections.other,
              0U)
        << type;
  }
  ASSERT_TRUE(model->diff.has_value());
  EXPECT_FALSE(model->diff->same());

  Result<State> piped = State::Open("-");
  ASSERT_TRUE(piped.ok());
  Result<HtmlReportModel> refused = HtmlReport(*piped);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), Errc::kInvalidArgument);
}

}  // namespace
}  // namespace pstate
