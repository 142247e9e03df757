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

/// The findings' codes and how often each was reported.
std::map<std::string, int> Codes(const RunResult& r) {
  std::map<std::string, int> codes;
  for (const FileResult& f : ParseJsonLines(r.out)) {
    for (const Finding& finding : f.findings) ++codes[finding.code];
  }
  return codes;
}

class ShareTest : public ::testing::Test {
 protected:
  TempDir dir_{"share"};
  std::string Path(const std::string& name) const {
    return (dir_.path() / name).string();
  }
};

TEST_F(ShareTest, RedactedStatesScanCleanAndVerifyAsTheInput) {
  std::size_t checked = 0;
  for (const fs::path& state : States()) {
    SCOPED_TRACE(state.string());
    const std::string in = ShellQuote(state.string());
    RunResult before = RunPstate(
        "verify -q --max-findings 0 --format json " + in, dir_.path());
    ASSERT_TRUE(before.exited);
    if (before.exit_code == 2) continue;  // not a readable state
    for (const std::string mode : {"", " --anonymize"}) {
      SCOPED_TRACE(mode);
      const std::string out = ShellQuote(Path("redacted.json"));
      RunResult redacted =
          RunPstate("redact -q" + mode + " " + in + " -o " + out, dir_.path());
      ASSERT_TRUE(redacted.exited);
      ASSERT_EQ(redacted.exit_code, 0) << redacted.err;
      EXPECT_FALSE(redacted.sanitizer_report()) << redacted.err;

      RunResult scan =
          RunPstate("scan -q --format json --fail-on note " + out, dir_.path());
      ASSERT_TRUE(scan.exited);
      std::map<std::string, int> leaks = Codes(scan);
      // A secret inside a resource's name stays (names are never
      // redacted: every reference would break); nothing else may.
      leaks.erase("leak-secret-in-name");
      EXPECT_TRUE(leaks.empty()) << scan.out << scan.err;

      RunResult after = RunPstate(
          "verify -q --max-findings 0 --format json " + out, dir_.path());
      ASSERT_TRUE(after.exited);
      EXPECT_EQ(after.exit_code, before.exit_code) << after.out;
      EXPECT_EQ(Codes(after), Codes(before)) << before.out << "\n" << after.out;
    }
    ++checked;
  }
  EXPECT_GE(checked, 20u);
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
