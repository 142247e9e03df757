// Command-line cases the golden files cannot spell (their cmd is split on
// spaces): empty arguments, and every meta command's usage errors, each with
// one `pstate: error:` line, exit 2, and nothing on standard output.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "e2e_util.h"

namespace {

using pstate_e2e::RunPstate;
using pstate_e2e::TempDir;

void ExpectUsageError(const pstate_e2e::RunResult& r,
                      const std::string& message) {
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("pstate: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  EXPECT_FALSE(r.sanitizer_report()) << r.err;
}

TEST(CliArgsTest, EmptyFileNameIsAUsageErrorNotAnIoError) {
  TempDir tmp("cli-args");
  for (const char* command : {"verify", "scan"}) {
    SCOPED_TRACE(command);
    pstate_e2e::RunResult r =
        RunPstate(std::string(command) + " ''", tmp.path());
    ExpectUsageError(r, "an empty string is not a file name");
    EXPECT_EQ(r.err.find("io-error"), std::string::npos) << r.err;
  }
}

// The command line reads the passphrase's variables (the core takes the
// values): PULUMI_CONFIG_PASSPHRASE, even empty, before a non-empty
// PULUMI_CONFIG_PASSPHRASE_FILE; an empty file variable is unset.
TEST(CliArgsTest, PassphraseComesFromTheEnvironment) {
  TempDir tmp("passphrase-env");
  const std::string fixtures = PSTATE_FIXTURES_DIR;
  const std::string state =
      pstate_e2e::ShellQuote(fixtures + "/secrets/passphrase.json");
  const std::string out =
      pstate_e2e::ShellQuote((tmp.path() / "plain.json").string());
  const std::string file = fixtures + "/secrets/passphrase.txt";
  struct Case {
    const char* passphrase;  // null: unset
    std::string file;        // "-": unset
    int exit;
    const char* says;
  };
  const Case cases[] = {
      {"pstate fixture passphrase", "-", 0, ""},
      {nullptr, file, 0, ""},
      {"pstate fixture passphrase", (tmp.path() / "absent").string(), 0, ""},
      {"", file, 2, "incorrect passphrase"},
      {nullptr, "", 2, "PULUMI_CONFIG_PASSPHRASE_FILE"},
      {nullptr, (tmp.path() / "absent").string(), 2,
       "unable to read PULUMI_CONFIG_PASSPHRASE_FILE"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.passphrase ? c.passphrase : "(unset)") + " / " +
                 c.file);
    if (c.passphrase) {
      ::setenv("PULUMI_CONFIG_PASSPHRASE", c.passphrase, 1);
    } else {
      ::unsetenv("PULUMI_CONFIG_PASSPHRASE");
    }
    if (c.file != "-") {
      ::setenv("PULUMI_CONFIG_PASSPHRASE_FILE", c.file.c_str(), 1);
    } else {
      ::unsetenv("PULUMI_CONFIG_PASSPHRASE_FILE");
    }
    pstate_e2e::RunResult r =
        RunPstate("decrypt -q " + state + " -o " + out, tmp.path());
    EXPECT_EQ(r.exit_code, c.exit) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("pstate fixture passphrase"), std::string::npos);
  }
  ::unsetenv("PULUMI_CONFIG_PASSPHRASE");
  ::unsetenv("PULUMI_CONFIG_PASSPHRASE_FILE");
}

TEST(CliArgsTest, HelpOfACommandNamesTheProgram) {
  TempDir tmp("cli-args");
  pstate_e2e::RunResult help = RunPstate("help scan", tmp.path());
  pstate_e2e::RunResult flag = RunPstate("scan --help", tmp.path());
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("Usage: pstate scan "), std::string::npos)
      << help.out;
  // `pstate help CMD` and `pstate CMD --help` print the same text.
  EXPECT_EQ(help.out, flag.out);
}

TEST(CliArgsTest, MetaCommandsRejectBadArguments) {
  TempDir tmp("cli-args");
  ExpectUsageError(RunPstate("completion ''", tmp.path()), "completion");
  ExpectUsageError(RunPstate("explain ''", tmp.path()), "");
  ExpectUsageError(RunPstate("man extra", tmp.path()), "man");
  ExpectUsageError(RunPstate("rules --format yaml", tmp.path()), "rules");
}

// The commit differs on every build, so no golden: the shape is checked.
TEST(CliArgsTest, VersionNamesTheCommitAndTheLibraries) {
  TempDir tmp("cli-args");
  pstate_e2e::RunResult flag = RunPstate("--version", tmp.path());
  ASSERT_EQ(flag.exit_code, 0) << flag.err;
  EXPECT_EQ(flag.out.rfind("pstate ", 0), 0u) << flag.out;
  EXPECT_NE(flag.out.find(" (commit "), std::string::npos) << flag.out;
  for (const char* library : {"OpenSSL", "libarchive", "CLI11"}) {
    EXPECT_NE(flag.out.find(library), std::string::npos) << library;
  }
  EXPECT_EQ(RunPstate("-V", tmp.path()).out, flag.out);
  EXPECT_EQ(RunPstate("version", tmp.path()).out, flag.out);
}

TEST(CliArgsTest, ManPageIsAsciiRoff) {
  TempDir tmp("cli-args");
  pstate_e2e::RunResult r = RunPstate("man", tmp.path());
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind(".TH PSTATE 1 ", 0), 0u);
  for (char c : r.out) {
    // Non-ASCII text is written as roff's \[uXXXX], so groff and mandoc
    // render it whatever input encoding they assume.
    ASSERT_LT(static_cast<unsigned char>(c), 0x80u);
  }
  EXPECT_NE(r.out.find("\\[u2026]"), std::string::npos);  // "…"
}

}  // namespace
