// Two real pstate processes rewriting one file at the same time, many
// times: no edit may be lost (io/rewrite_guard.h, docs/cli.md "Concurrent
// use"). Every run that exits 0 must find its edit in the final file.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "e2e_util.h"

namespace pstate_e2e {
namespace {

constexpr int kRounds = 16;

std::string Urn(int i) {
  return "urn:pulumi:dev::proj::my:mod:Thing::r" + std::to_string(i);
}

/// A state of 2 * kRounds component resources under one stack, padded so
/// that a run takes long enough for the two to overlap.
std::string MakeState() {
  std::string s =
      "{\n    \"version\": 3,\n    \"deployment\": {\n"
      "        \"manifest\": {\"time\": \"2024-01-01T00:00:00Z\", \"magic\": "
      "\"\", \"version\": \"v3.200.0\"},\n        \"resources\": [\n"
      "            {\"urn\": \"urn:pulumi:dev::proj::pulumi:pulumi:Stack::"
      "proj-dev\", \"custom\": false, \"type\": \"pulumi:pulumi:Stack\"}";
  for (int i = 0; i < 2 * kRounds; ++i) {
    s += ",\n            {\"urn\": \"" + Urn(i) +
         "\", \"custom\": false, \"type\": \"my:mod:Thing\", \"parent\": "
         "\"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev\", "
         "\"outputs\": {\"pad\": \"" +
         std::string(20000, 'x') + "\"}}";
  }
  return s + "\n        ]\n    }\n}\n";
}

int CountProtected(const std::string& state) {
  static const std::regex kProtect("\"protect\"\\s*:\\s*true");
  return static_cast<int>(
      std::distance(std::sregex_iterator(state.begin(), state.end(), kProtect),
                    std::sregex_iterator()));
}

/// Runs `a` and `b` (pstate arguments) as two processes at once; returns
/// their exit codes.
std::pair<int, int> RunTogether(const std::string& a, const std::string& b,
                                const fs::path& work) {
  fs::path a_rc = work / "a.rc", b_rc = work / "b.rc";
  std::string bin = ShellQuote(PSTATE_BINARY);
  std::string command =
      "cd " + ShellQuote(work.string()) + " && { (timeout 120 " + bin + " " +
      a + " >/dev/null 2>a.err; echo $? > a.rc) & (timeout 120 " + bin + " " +
      b + " >/dev/null 2>b.err; echo $? > b.rc) & wait; }";
  int status = std::system(("bash -c " + ShellQuote(command)).c_str());
  EXPECT_TRUE(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
  auto code = [](const std::string& text) {
    return text.empty() ? -1 : std::atoi(text.c_str());
  };
  return {code(ReadFile(a_rc)), code(ReadFile(b_rc))};
}

TEST(ConcurrentInPlaceTest, TwoWritersNeverLoseAnEdit) {
  TempDir dir("concurrent");
  fs::path state = dir.path() / "s.json";
  WriteFile(state, MakeState());
  const int verified =
      RunPstate("verify -q " + ShellQuote(state.string()), dir.path())
          .exit_code;
  int expected = 0;
  for (int round = 0; round < kRounds; ++round) {
    // Even rounds: two edits of different resources; odd rounds: an edit
    // and a normalize, which rewrites the whole file.
    std::string a =
        "edit protect s.json " + ShellQuote(Urn(2 * round)) + " --in-place -q";
    std::string b = round % 2 == 0
                        ? "edit protect s.json " +
                              ShellQuote(Urn(2 * round + 1)) + " --in-place -q"
                        : "normalize s.json --in-place -q";
    auto [rc_a, rc_b] = RunTogether(a, b, dir.path());
    ASSERT_EQ(rc_a, 0) << ReadFile(dir.path() / "a.err");
    ASSERT_EQ(rc_b, 0) << ReadFile(dir.path() / "b.err");
    expected += round % 2 == 0 ? 2 : 1;
    ASSERT_EQ(CountProtected(ReadFile(state)), expected) << "round " << round;
  }
  // The result reads as the input did (no edit left a broken file).
  RunResult verify =
      RunPstate("verify -q " + ShellQuote(state.string()), dir.path());
  EXPECT_EQ(verify.exit_code, verified) << verify.err;
  EXPECT_NE(verify.exit_code, 2) << verify.err;
}

}  // namespace
}  // namespace pstate_e2e
