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

}  // namespace
}  // namespace pstate_e2e
