// Safe to share: on every real state of fixtures/ (Pulumi's own test data,
// the secrets and scan fixtures), `pstate redact` leaves nothing `pstate
// scan` reports, and `pstate verify` gives the redacted state exactly the
// findings of the input; with --anonymize too, and the pseudonyms are the
// same for the same value and key in two runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace pstate_e2e {
namespace {

const std::string kFixtures = PSTATE_FIXTURES_DIR;

/// Every state file of the directories that hold real or realistic states.
std::vector<fs::path> States() {
  std::vector<fs::path> out;
  for (const char* dir : {"pulumi-testdata", "states/valid", "secrets", "scan",
                          "inspect", "edit"}) {
    for (const auto& e : fs::directory_iterator(kFixtures + "/" + dir)) {
      const std::string name = e.path().filename().string();
      if (e.path().extension() == ".json" || name.ends_with(".json.gz") ||
          name.ends_with(".json.zst")) {
        out.push_back(e.path());
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

class ShareTest : public ::testing::Test {
 protected:
  TempDir dir_{"share"};
  std::string Path(const std::string& name) const {
    return (dir_.path() / name).string();
  }
};

// One redact per state and mode; then one verify of every input, one of
// every output and one scan of every output, each over the whole list
// (verify and scan report file by file), so the test costs two processes a
// state instead of seven.
TEST_F(ShareTest, RedactedStatesScanCleanAndVerifyAsTheInput) {
  struct Case {
    std::string input;   // as given to verify
    std::string output;  // the redacted copy
  };
  std::vector<Case> cases;
  std::string inputs;
  std::size_t states = 0;
  for (const fs::path& state : States()) {
    SCOPED_TRACE(state.string());
    bool readable = true;
    for (const std::string mode : {"", " --anonymize"}) {
      SCOPED_TRACE(mode);
      const std::string out =
          Path("redacted-" + std::to_string(cases.size()) + ".json");
      RunResult redacted =
          RunPstate("redact -q" + mode + " " + ShellQuote(state.string()) +
                        " -o " + ShellQuote(out),
                    dir_.path());
      ASSERT_TRUE(redacted.exited);
      EXPECT_FALSE(redacted.sanitizer_report()) << redacted.err;
      if (redacted.exit_code == 2) {  // not a readable state
        EXPECT_FALSE(fs::exists(out));
        readable = false;
        break;
      }
      ASSERT_EQ(redacted.exit_code, 0) << redacted.err;
      cases.push_back({state.string(), out});
    }
    if (!readable) continue;
    inputs += " " + ShellQuote(state.string());
    ++states;
  }
  EXPECT_GE(states, 20u);
  std::string outputs;
  for (const Case& c : cases) outputs += " " + ShellQuote(c.output);

  auto by_file = [](const RunResult& r) {
    std::map<std::string, std::map<std::string, int>> codes;
    for (const FileResult& f : ParseJsonLines(r.out)) {
      std::map<std::string, int>& of = codes[f.file];
      for (const Finding& finding : f.findings) ++of[finding.code];
    }
    return codes;
  };
  const std::string verify = "verify -q --max-findings 0 --format json";
  RunResult before = RunPstate(verify + inputs, dir_.path());
  RunResult after = RunPstate(verify + outputs, dir_.path());
  RunResult scan =
      RunPstate("scan -q --format json --fail-on note" + outputs, dir_.path());
  ASSERT_TRUE(before.exited && after.exited && scan.exited);
  for (const RunResult* r : {&before, &after, &scan}) {
    EXPECT_FALSE(r->sanitizer_report()) << r->err;
  }
  auto before_codes = by_file(before);
  auto after_codes = by_file(after);
  auto scan_codes = by_file(scan);
  ASSERT_EQ(before_codes.size(), states) << before.err;
  ASSERT_EQ(after_codes.size(), cases.size()) << after.err;
  ASSERT_EQ(scan_codes.size(), cases.size()) << scan.err;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input + " -> " + c.output);
    // The same findings as the input (so the same exit code).
    EXPECT_EQ(after_codes[c.output], before_codes[c.input]);
    std::map<std::string, int> leaks = scan_codes[c.output];
    // A secret inside a resource's name stays (names are never redacted:
    // every reference would break); nothing else may.
    leaks.erase("leak-secret-in-name");
    EXPECT_TRUE(leaks.empty());
  }
}

// The same key gives the same pseudonyms in two runs (and two files of one
// stack line up); another key gives others; the output verifies as the
// input does.
TEST_F(ShareTest, AnonymizingIsConsistent) {
  const std::string in =
      ShellQuote(kFixtures + "/../tests/golden/redact/anonymize/in.json");
  const std::string key = ShellQuote(Path("key"));
  WriteFile(Path("key"), "a key for the test");
  WriteFile(Path("other"), "another key");
  for (const char* out : {"a.json", "b.json"}) {
    RunResult r = RunPstate("redact -q --anonymize --key-file " + key + " " +
                                in + " -o " + ShellQuote(Path(out)),
                            dir_.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  RunResult other = RunPstate("redact -q --anonymize --key-file " +
                                  ShellQuote(Path("other")) + " " + in +
                                  " -o " + ShellQuote(Path("c.json")),
                              dir_.path());
  ASSERT_EQ(other.exit_code, 0) << other.err;
  const std::string a = ReadFile(Path("a.json"));
  EXPECT_EQ(a, ReadFile(Path("b.json")));
  EXPECT_NE(a, ReadFile(Path("c.json")));
  for (const char* gone : {"440512345678", "james", "contoso", "172.31.14.7",
                           "7ce7a1b2-0000-4000-8000-00000000abcd"}) {
    EXPECT_EQ(a.find(gone), std::string::npos) << gone;
  }
  // One account, one pseudonym: the provider's ID and the reference to it,
  // the role's URN, ID, name and ARN all carry the same 12 digits.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(a, m, std::regex(R"("id": "(\d{12})-prov")")))
      << a;
  const std::string account = m[1];
  for (const std::string& use :
       {"pulumi:providers:aws::default::" + account + "-prov\"",
        "aws:iam/role:Role::deploy-" + account + "\"",
        "\"id\": \"deploy-" + account + "\"",
        "arn:aws:iam::" + account + ":role/deploy-" + account + "\""}) {
    EXPECT_NE(a.find(use), std::string::npos) << use << "\n" << a;
  }
  RunResult verify = RunPstate(
      "verify -q --format json " + in + " " + ShellQuote(Path("a.json")),
      dir_.path());
  EXPECT_EQ(verify.exit_code, 0) << verify.out;
  std::vector<FileResult> files = ParseJsonLines(verify.out);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].findings.size(), files[1].findings.size());
}

}  // namespace
}  // namespace pstate_e2e
