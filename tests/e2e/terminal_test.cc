// What pstate does when its standard output is a terminal: the commands
// that write a state refuse (as gzip does) and name the flags to use;
// `-o -` writes anyway; reports for people still print. Run through a
// pseudo-terminal, as a user at a shell runs them.
#include <gtest/gtest.h>

#include <string>

#include "e2e_util.h"

namespace pstate_e2e {
namespace {

const std::string kFixtures = PSTATE_FIXTURES_DIR;

std::string Fixture(const std::string& relative) {
  return ShellQuote(kFixtures + "/" + relative);
}

class TerminalTest : public ::testing::Test {
 protected:
  TempDir dir_{"terminal"};
};

TEST_F(TerminalTest, StateWritersRefuseATerminal) {
  const std::string state = Fixture("states/valid/example.json");
  const std::string secrets = Fixture("secrets/b64.json");
  struct Case {
    std::string args;
    bool in_place;  // the refusal also names --in-place
  };
  const Case cases[] = {
      {"redact " + secrets, false},
      {"normalize " + state, true},
      {"convert --to checkpoint " + state, false},
      {"decrypt " + secrets, false},
      {"encrypt " + Fixture("secrets/b64-plain.json"), false},
      {"edit repair " + state, true},
      {"extract --type '*' " + state, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    RunResult r = RunPstateOnTerminal(c.args, dir_.path());
    ASSERT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");  // not one byte of the state
    EXPECT_NE(r.err.find("pstate: error: refusing to write a state to a "
                         "terminal; use -o FILE"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("--in-place") != std::string::npos, c.in_place)
        << r.err;
    EXPECT_NE(r.err.find("-o - writes it here anyway"), std::string::npos);
  }
}

TEST_F(TerminalTest, DashOForcesTheTerminal) {
  RunResult r = RunPstateOnTerminal(
      "redact -q -o - " + Fixture("secrets/b64.json"), dir_.path());
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"deployment\""), std::string::npos);
  EXPECT_EQ(r.err, "");
}

TEST_F(TerminalTest, FilesAndChecksNeedNoRedirection) {
  const std::string state = Fixture("states/valid/example.json");
  const std::string out = ShellQuote((dir_.path() / "out.json").string());
  for (const std::string& args :
       {"normalize --check " + state, "edit repair --dry-run " + state,
        "redact -q " + Fixture("secrets/b64.json") + " -o " + out}) {
    SCOPED_TRACE(args);
    RunResult r = RunPstateOnTerminal(args, dir_.path());
    ASSERT_TRUE(r.exited);
    EXPECT_EQ(r.err.find("refusing"), std::string::npos) << r.err;
  }
}

TEST_F(TerminalTest, ReportsStillPrint) {
  const std::string state = Fixture("states/valid/example.json");
  for (const std::string& args : {"ls " + state, "stats " + state}) {
    SCOPED_TRACE(args);
    RunResult r = RunPstateOnTerminal(args, dir_.path(), false, "NO_COLOR=1");
    ASSERT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out, "");
  }
}

// Without a passphrase from a flag or the environment, a terminal is asked
// (echo off), as Pulumi asks.
TEST_F(TerminalTest, PromptsForAMissingPassphrase) {
  const std::string env =
      "env -u PULUMI_CONFIG_PASSPHRASE -u PULUMI_CONFIG_PASSPHRASE_FILE";
  const std::string phrase = "pstate fixture passphrase";
  const fs::path out = dir_.path() / "plain.json";
  RunResult r =
      RunPstateTyping("decrypt -q " + Fixture("secrets/passphrase.json") +
                          " -o " + ShellQuote(out.string()),
                      "unlock config/secrets: ", phrase + "\n", env);
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("Enter your passphrase to unlock config/secrets: "),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find(phrase), std::string::npos) << "echoed: " << r.out;
  EXPECT_EQ(ReadFile(out).find("\"ciphertext\""), std::string::npos);

  RunResult shown =
      RunPstateTyping("show --color never --show-secrets --index 0 " +
                          Fixture("secrets/passphrase.json"),
                      "unlock config/secrets: ", phrase + "\n", env);
  ASSERT_TRUE(shown.exited);
  EXPECT_EQ(shown.exit_code, 0) << shown.out;
  EXPECT_NE(shown.out.find("pw: \"hunter2-s3cret\""), std::string::npos)
      << shown.out;

  RunResult wrong =
      RunPstateTyping("decrypt -q " + Fixture("secrets/passphrase.json") +
                          " -o " + ShellQuote(out.string()),
                      "unlock config/secrets: ", "not it\n", env);
  ASSERT_TRUE(wrong.exited);
  EXPECT_NE(wrong.exit_code, 0);
  EXPECT_NE(wrong.out.find("pstate: error: "), std::string::npos) << wrong.out;
  EXPECT_EQ(wrong.out.find("not it"), std::string::npos) << wrong.out;
}

// Reports for people are coloured on a terminal under verify's rules: not
// with NO_COLOR set, and never on a file or pipe (the golden cases).
TEST_F(TerminalTest, ReportsAreColouredOnATerminal) {
  const std::string state = Fixture("inspect/base.json");
  const std::string args[] = {
      "ls " + state,
      "tree " + state,
      "show " + state + " --index 0",
      "diff " + state + " " + Fixture("inspect/changed.json"),
      "edit delete --dry-run " + state +
          " 'urn:pulumi:dev::proj::pulumi:pulumi:Stack$aws:s3/"
          "bucketObject:BucketObject::index'",
  };
  for (const std::string& a : args) {
    SCOPED_TRACE(a);
    RunResult plain = RunPstateOnTerminal(a, dir_.path(), false, "NO_COLOR=1");
    ASSERT_TRUE(plain.exited);
    EXPECT_EQ(plain.out.find('\033'), std::string::npos) << plain.out;
    EXPECT_NE(plain.out, "");
    RunResult colour = RunPstateOnTerminal(a, dir_.path(), false,
                                           "env -u NO_COLOR TERM=xterm");
    ASSERT_TRUE(colour.exited);
    EXPECT_NE(colour.out.find("\033["), std::string::npos) << colour.out;
    EXPECT_EQ(colour.exit_code, plain.exit_code) << colour.err;
  }
}

}  // namespace
}  // namespace pstate_e2e
