// Golden end-to-end tests: run the built pstate binary on fixture files and
// compare what it prints and how it exits.
//
// Each case is a directory tests/golden/<command>/<case>/ holding:
//   cmd     the arguments, one line, split on spaces; %FIXTURES% is the
//           repository's fixtures/ directory, %CASE% the case directory,
//           %TMP% a fresh temporary directory for the case
//   stdin   optional: fed to standard input
//   stdout  optional: expected standard output, byte for byte
//   stderr  optional: expected standard error, byte for byte
//   exit    optional: expected exit status (default 0)
//   files/  optional: after the run, %TMP%/<name> must equal files/<name>
// The binary runs with the case directory as working directory and with
// NO_COLOR set. PSTATE_UPDATE_GOLDEN=1 rewrites stdout/stderr/exit.
// Commands the engine can run on several threads (verify) run twice, with
// PSTATE_JOBS=1 and PSTATE_JOBS=3 (the default of --jobs): both runs must
// match the same expectations byte for byte.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace fs = std::filesystem;
using pstate_e2e::ReadFile;
using pstate_e2e::ShellQuote;
using pstate_e2e::WriteFile;

namespace {

std::string Replace(std::string s, const std::string& from,
                    const std::string& to) {
  for (std::size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos;
       pos += to.size()) {
    s.replace(pos, from.size(), to);
  }
  return s;
}

struct Case {
  fs::path dir;
  std::string name;
};

// Lets GoogleTest name a case in messages instead of dumping its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<Case> DiscoverCases() {
  std::vector<Case> cases;
  fs::path root = PSTATE_GOLDEN_DIR;
  if (!fs::exists(root)) return cases;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && entry.path().filename() == "cmd") {
      fs::path dir = entry.path().parent_path();
      std::string name = fs::relative(dir, root).string();
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      cases.push_back({dir, name});
    }
  }
  std::sort(cases.begin(), cases.end(),
            [](const Case& a, const Case& b) { return a.name < b.name; });
  return cases;
}

class GoldenTest : public ::testing::TestWithParam<Case> {};

/// True when `text` looks like a Pulumi state a command wrote (an export
/// or a checkpoint), as opposed to a report.
bool LooksLikeState(const std::string& text) {
  std::size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string::npos || text[i] != '{') return false;
  return text.find("\"deployment\"") != std::string::npos ||
         text.find("\"checkpoint\"") != std::string::npos;
}

/// bloaty's CheckConsistency: every state a golden case writes must itself
/// be readable by `pstate verify` (exit 0 or 1, never 2: unreadable).
/// Returns "" or why not.
std::string VerifyWritten(const fs::path& state, const fs::path& tmp) {
  fs::path out = tmp / ".verify.stdout";
  std::string command = "NO_COLOR=1 " + ShellQuote(PSTATE_BINARY) +
                        " verify --format json " + ShellQuote(state.string()) +
                        " > " + ShellQuote(out.string()) + " 2>&1";
  int status = std::system(command.c_str());
  if (status == -1 || !WIFEXITED(status)) return "verify did not run";
  std::string report = ReadFile(out);
  if (WEXITSTATUS(status) == 2) {
    return "pstate verify cannot read it:\n" + report;
  }
  return "";
}

TEST_P(GoldenTest, MatchesExpectedOutput) {
  const Case& c = GetParam();
  fs::path tmp = fs::temp_directory_path() /
                 ("pstate-golden-" + c.name + "-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);

  std::string line = ReadFile(c.dir / "cmd");
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) {
    line.pop_back();
  }
  line = Replace(line, "%FIXTURES%", PSTATE_FIXTURES_DIR);
  line = Replace(line, "%CASE%", c.dir.string());
  line = Replace(line, "%TMP%", tmp.string());
  std::istringstream words(line);
  std::string arguments;
  std::string first_word;
  for (std::string w; words >> w;) {
    if (first_word.empty()) first_word = w;
    arguments += " " + ShellQuote(w);
  }
  std::vector<std::string> environments = {""};
  if (first_word == "verify")
    environments = {"PSTATE_JOBS=1 ", "PSTATE_JOBS=3 "};
  for (const std::string& environment : environments) {
    SCOPED_TRACE(environment);
    std::string command = "cd " + ShellQuote(c.dir.string()) +
                          " && NO_COLOR=1 " + environment +
                          ShellQuote(PSTATE_BINARY) + arguments;
    fs::path out = tmp / ".stdout", err = tmp / ".stderr";
    fs::path in = c.dir / "stdin";
    command +=
        fs::exists(in) ? " < " + ShellQuote(in.string()) : " < /dev/null";
    command +=
        " > " + ShellQuote(out.string()) + " 2> " + ShellQuote(err.string());
    int status = std::system(command.c_str());
    ASSERT_NE(status, -1);
    ASSERT_TRUE(WIFEXITED(status)) << "pstate did not exit normally";
    int exit_code = WEXITSTATUS(status);
    std::string got_out = Replace(ReadFile(out), tmp.string(), "%TMP%");
    std::string got_err = Replace(ReadFile(err), tmp.string(), "%TMP%");
    // Outputs name files by the paths given: make them independent of where
    // the repository is checked out.
    got_out = Replace(got_out, c.dir.string(), "%CASE%");
    got_err = Replace(got_err, c.dir.string(), "%CASE%");
    got_out = Replace(got_out, PSTATE_FIXTURES_DIR, "%FIXTURES%");
    got_err = Replace(got_err, PSTATE_FIXTURES_DIR, "%FIXTURES%");

    const char* update = std::getenv("PSTATE_UPDATE_GOLDEN");
    if (update && std::string(update) == "1" &&
        environment == environments[0]) {
      WriteFile(c.dir / "stdout", got_out);
      if (!got_err.empty()) {
        WriteFile(c.dir / "stderr", got_err);
      } else if (fs::exists(c.dir / "stderr")) {
        fs::remove(c.dir / "stderr");  // a missing file means "empty"
      }
      WriteFile(c.dir / "exit", std::to_string(exit_code) + "\n");
    }
    int want_exit = 0;
    if (fs::exists(c.dir / "exit"))
      want_exit = std::stoi(ReadFile(c.dir / "exit"));
    EXPECT_EQ(exit_code, want_exit) << "stderr:\n" << got_err;
    if (fs::exists(c.dir / "stdout")) {
      EXPECT_EQ(got_out, ReadFile(c.dir / "stdout"));
    }
    // A missing stderr file means stderr must be empty: a stray warning or
    // progress line fails the case.
    EXPECT_EQ(got_err, fs::exists(c.dir / "stderr") ? ReadFile(c.dir / "stderr")
                                                    : std::string());
    // Every state a case writes, to stdout or to a file, must verify.
    if (exit_code == 0 && LooksLikeState(ReadFile(out))) {
      EXPECT_EQ(VerifyWritten(out, tmp), "") << "stdout of " << c.name;
    }
    if (fs::exists(c.dir / "files")) {
      for (const auto& f : fs::directory_iterator(c.dir / "files")) {
        fs::path produced = tmp / f.path().filename();
        ASSERT_TRUE(fs::exists(produced)) << produced << " was not written";
        EXPECT_EQ(ReadFile(produced), ReadFile(f.path()))
            << "content of " << f.path().filename();
        if (LooksLikeState(ReadFile(produced))) {
          EXPECT_EQ(VerifyWritten(produced, tmp), "")
              << f.path().filename() << " of " << c.name;
        }
      }
    }
  }
  fs::remove_all(tmp);
}

INSTANTIATE_TEST_SUITE_P(Cases, GoldenTest,
                         ::testing::ValuesIn(DiscoverCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

}  // namespace
