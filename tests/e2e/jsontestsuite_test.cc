// JSONTestSuite (fixtures/jsontestsuite/test_parsing, nst/JSONTestSuite)
// through the built pstate binary, one test per case file:
//   embedded  the case's bytes as the value of outputs.v in a minimal
//             state (fixtures/jsontestsuite/README.md):
//             y_ verifies clean (exit 0); n_ is unreadable (exit 2) with a
//             json-* finding at a line:column inside the document, at or
//             after the case's first byte; i_ never crashes or hangs.
//   bare      the case as the whole input: never a state, so exit 1 or 2.
//
// Starting an ASan binary costs ~60 ms, so each group of files is verified
// in one `pstate verify --format json` call (which also tests several files
// per call); each test then reads its file's line. A file whose line is
// missing (pstate crashed part-way) is re-run alone for the diagnosis.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace pstate_e2e {
namespace {

constexpr const char* kPrefix =
    "{\"version\":3,\"deployment\":{\"manifest\":{\"time\":"
    "\"2024-01-01T00:00:00Z\",\"magic\":\"\",\"version\":\"\"},"
    "\"resources\":[{\"urn\":\"urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev\","
    "\"custom\":false,\"type\":\"pulumi:pulumi:Stack\",\"outputs\":{\"v\":";
constexpr const char* kSuffix = "}}]}}";

// Valid JSON that pstate warns about: Pulumi keeps the last of duplicate
// keys, and pstate flags that as json-duplicate-key (a warning, so the
// input still verifies with exit 0).
bool IsDuplicateKeyCase(const std::string& name) {
  return name == "y_object_duplicated_key.json" ||
         name == "y_object_duplicated_key_and_value.json";
}

struct Case {
  std::string name;  ///< file name, e.g. y_array_empty.json
  std::size_t index = 0;
  std::string test_name() const {
    std::string s = name.substr(0, name.size() - 5);  // drop ".json"
    for (char& c : s) {
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return s + "_" + std::to_string(index);  // names differ only in case/punct.
  }
};

fs::path SuiteDir() {
  return fs::path(PSTATE_FIXTURES_DIR) / "jsontestsuite" / "test_parsing";
}

std::vector<Case> DiscoverCases() {
  std::vector<std::string> names;
  if (fs::exists(SuiteDir())) {
    for (const auto& e : fs::directory_iterator(SuiteDir())) {
      if (e.is_regular_file() && e.path().extension() == ".json") {
        names.push_back(e.path().filename().string());
      }
    }
  }
  std::sort(names.begin(), names.end());
  std::vector<Case> cases;
  for (std::size_t i = 0; i < names.size(); ++i) cases.push_back({names[i], i});
  return cases;
}

/// Batches of embedded cases; each has one expected exit status.
std::string EmbeddedGroup(const Case& c) {
  if (IsDuplicateKeyCase(c.name)) return "embedded-y-duplicate-keys";
  return "embedded-" + c.name.substr(0, 2);
}

/// Every case written once as an embedded and a bare input (named by
/// index, so names need no quoting), and the batched verify results.
class Suite {
 public:
  static Suite& Get() {
    static Suite suite;  // destroyed at exit, removing the temp dir
    return suite;
  }

  const fs::path& dir() const { return tmp_.path(); }
  fs::path Embedded(const Case& c) const {
    return dir() / "embedded" / (std::to_string(c.index) + ".json");
  }
  fs::path Bare(const Case& c) const {
    return dir() / "bare" / (std::to_string(c.index) + ".json");
  }
  std::size_t CaseStart() const { return std::string(kPrefix).size(); }

  /// The batched result for `path`, or nullptr if its line is missing.
  const FileResult* Result(const fs::path& path) const {
    auto it = results_.find(path.string());
    return it == results_.end() ? nullptr : &it->second;
  }
  /// How the batch holding `path` ended.
  const RunResult& Batch(const fs::path& path) const {
    return batches_.at(batch_of_.at(path.string()));
  }

 private:
  Suite() : tmp_("jsontestsuite") {
    fs::create_directories(dir() / "embedded");
    fs::create_directories(dir() / "bare");
    std::map<std::string, std::vector<fs::path>> groups;
    for (const Case& c : DiscoverCases()) {
      std::string bytes = ReadFile(SuiteDir() / c.name);
      WriteFile(Embedded(c), kPrefix + bytes + kSuffix);
      WriteFile(Bare(c), bytes);
      groups[EmbeddedGroup(c)].push_back(Embedded(c));
      std::string kind = c.name.substr(0, 2);
      groups["bare-" + kind].push_back(Bare(c));
    }
    for (const auto& [group, files] : groups) {
      std::string args = "verify --format json --max-findings 0";
      for (const fs::path& f : files) {
        args += " " + ShellQuote(f.string());
        batch_of_[f.string()] = group;
      }
      fs::path work = dir() / ("run-" + group);
      fs::create_directories(work);
      RunResult r = RunPstate(args, work, "/dev/null", 120);
      for (FileResult& fr : ParseJsonLines(r.out)) {
        std::string key = fr.file;
        results_[key] = std::move(fr);
      }
      batches_[group] = std::move(r);
    }
  }

  TempDir tmp_;
  std::map<std::string, FileResult> results_;
  std::map<std::string, std::string> batch_of_;
  std::map<std::string, RunResult> batches_;
};

std::string Describe(const FileResult& r) {
  std::string s = "errors=" + std::to_string(r.errors) + " findings:";
  for (const Finding& f : r.findings) {
    s += " " + f.code + "@" + std::to_string(f.line) + ":" +
         std::to_string(f.column);
  }
  return s;
}

/// The batched result for `path`; when missing, runs the file alone and
/// fails with what happened.
const FileResult* ResultOrDiagnose(const fs::path& path) {
  Suite& suite = Suite::Get();
  const FileResult* r = suite.Result(path);
  if (r) {
    EXPECT_TRUE(suite.Batch(path).exited) << "batch killed by a signal";
    EXPECT_FALSE(suite.Batch(path).sanitizer_report()) << suite.Batch(path).err;
    return r;
  }
  RunResult alone =
      RunPstate("verify " + ShellQuote(path.string()), suite.dir());
  ADD_FAILURE() << "no result line for " << path << "; alone it "
                << (alone.exited ? "exited " + std::to_string(alone.exit_code)
                                 : std::string("was killed by a signal"))
                << "\nstdout:\n"
                << alone.out << "\nstderr:\n"
                << alone.err.substr(0, 4000);
  return nullptr;
}

class JsonTestSuite : public ::testing::TestWithParam<Case> {};

TEST_P(JsonTestSuite, Embedded) {
  const Case& c = GetParam();
  Suite& suite = Suite::Get();
  fs::path path = suite.Embedded(c);
  const FileResult* r = ResultOrDiagnose(path);
  ASSERT_NE(r, nullptr);
  const char kind = c.name[0];
  if (kind == 'y') {
    if (IsDuplicateKeyCase(c.name)) {
      ASSERT_EQ(r->findings.size(), 1u) << Describe(*r);
      EXPECT_EQ(r->findings[0].code, "json-duplicate-key");
      EXPECT_EQ(r->errors, 0) << Describe(*r);  // i.e. exit 0
      return;
    }
    EXPECT_EQ(r->errors, 0) << Describe(*r);  // i.e. exit 0
    EXPECT_EQ(r->warnings, 0) << Describe(*r);
    return;
  }
  if (kind == 'n') {
    // Exit 2: exactly one fatal finding, a JSON one, located in the file
    // no earlier than the case's first byte.
    const Finding* fatal = nullptr;
    for (const Finding& f : r->findings) {
      if (IsFatalCode(f.code)) fatal = &f;
    }
    ASSERT_NE(fatal, nullptr) << "n_ case accepted: " << Describe(*r);
    EXPECT_TRUE(fatal->code == "json-syntax" ||
                fatal->code == "json-invalid-utf8" ||
                fatal->code == "json-too-deep")
        << Describe(*r);
    std::string bytes = ReadFile(path);
    std::int64_t at = OffsetOf(bytes, fatal->line, fatal->column);
    EXPECT_GE(at, static_cast<std::int64_t>(suite.CaseStart()))
        << "location " << fatal->line << ":" << fatal->column
        << " is not in or after the case; " << Describe(*r);
    EXPECT_LE(at, static_cast<std::int64_t>(bytes.size())) << Describe(*r);
    return;
  }
  // i_: accepted or rejected, but a complete report (no crash, no hang);
  // a rejection is a located JSON error, like an n_ case.
  for (const Finding& f : r->findings) {
    if (!IsFatalCode(f.code)) continue;
    EXPECT_TRUE(f.code == "json-syntax" || f.code == "json-invalid-utf8" ||
                f.code == "json-too-deep")
        << Describe(*r);
    EXPECT_GE(f.line, 1) << Describe(*r);
    EXPECT_GE(f.column, 1) << Describe(*r);
  }
}

TEST_P(JsonTestSuite, Bare) {
  const Case& c = GetParam();
  const FileResult* r = ResultOrDiagnose(Suite::Get().Bare(c));
  ASSERT_NE(r, nullptr);
  // No JSONTestSuite case is a Pulumi state: exit 1 or 2, never 0.
  EXPECT_GE(r->errors, 1) << Describe(*r);
  bool fatal = false;
  for (const Finding& f : r->findings) fatal |= IsFatalCode(f.code);
  if (fatal) {
    for (const Finding& f : r->findings) {
      if (IsFatalCode(f.code) && f.code != "io-error") {
        EXPECT_GE(f.line, 1) << Describe(*r);
        EXPECT_GE(f.column, 1) << Describe(*r);
      }
    }
  }
}

/// The batches' exit statuses: all y_ files (the duplicate-key ones with a
/// warning) exit 0, all n_ files and all bare files 2,
/// and i_ files anything but a crash.
TEST(JsonTestSuiteBatch, ExitStatuses) {
  Suite& suite = Suite::Get();
  for (const Case& c : DiscoverCases()) {
    SCOPED_TRACE(c.name);
    const RunResult& embedded = suite.Batch(suite.Embedded(c));
    ASSERT_TRUE(embedded.exited);
    std::string group = EmbeddedGroup(c);
    if (group == "embedded-y_") EXPECT_EQ(embedded.exit_code, 0);
    if (group == "embedded-y-duplicate-keys") EXPECT_EQ(embedded.exit_code, 0);
    if (group == "embedded-n_") EXPECT_EQ(embedded.exit_code, 2);
    if (group == "embedded-i_") EXPECT_LE(embedded.exit_code, 2);
    const RunResult& bare = suite.Batch(suite.Bare(c));
    ASSERT_TRUE(bare.exited);
    EXPECT_EQ(bare.exit_code, 2);
  }
}

/// A sample of cases alone, outside any batch, in text format: y_ exits 0;
/// n_ exits 2 and prints "<file>:<line>:<column>: error[json-...]".
TEST(JsonTestSuiteSingle, SampleAlone) {
  Suite& suite = Suite::Get();
  int checked = 0;
  for (const Case& c : DiscoverCases()) {
    if (IsDuplicateKeyCase(c.name) || c.index % 12 != 0) continue;
    std::string file = suite.Embedded(c).string();
    RunResult r = RunPstate("verify " + ShellQuote(file), suite.dir());
    SCOPED_TRACE(c.name + "\n" + r.out + r.err);
    ASSERT_TRUE(r.exited);
    EXPECT_FALSE(r.sanitizer_report());
    if (c.name[0] == 'y') EXPECT_EQ(r.exit_code, 0);
    if (c.name[0] == 'i') EXPECT_LE(r.exit_code, 2);
    if (c.name[0] == 'n') {
      EXPECT_EQ(r.exit_code, 2);
      std::size_t at = r.out.find(file + ":");
      ASSERT_NE(at, std::string::npos);
      std::size_t i = at + file.size() + 1;
      std::size_t digits = 0;
      while (i < r.out.size() &&
             std::isdigit(static_cast<unsigned char>(r.out[i])))
        ++i, ++digits;
      EXPECT_GT(digits, 0u);
      EXPECT_EQ(r.out[i], ':');
      EXPECT_NE(r.out.find(": error[json-", at), std::string::npos);
    }
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

INSTANTIATE_TEST_SUITE_P(Files, JsonTestSuite,
                         ::testing::ValuesIn(DiscoverCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.test_name();
                         });

}  // namespace
}  // namespace pstate_e2e
