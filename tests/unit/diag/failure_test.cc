#include "diag/failure.h"

#include <gtest/gtest.h>

namespace pstate::diag {
namespace {

TEST(FailureTest, FatalFindingGivesTheLocatedText) {
  Report report("state.json");
  Finding f = MakeFinding(Code::kJsonSyntax, "unexpected end of input");
  f.line = 3;
  f.column = 14;
  report.Add(f);
  Failure failure = FailureOf(report, Status(Errc::kSyntax, "syntax"));
  EXPECT_EQ(failure.code, Code::kJsonSyntax);
  EXPECT_EQ(failure.errc, Errc::kSyntax);
  EXPECT_EQ(failure.line, 3u);
  EXPECT_EQ(failure.Located(), "state.json:3:14: unexpected end of input");
  EXPECT_EQ(failure.ToStatus().message(), failure.Located());
}

TEST(FailureTest, ThePointerFollowsTheReason) {
  Report report("state.json");
  Finding f = MakeFinding(Code::kJsonSyntax, "unexpected end of input",
                          "/deployment/resources/0");
  f.line = 3;
  f.column = 14;
  report.Add(f);
  Failure failure = FailureOf(report, Status(Errc::kSyntax, "syntax"));
  EXPECT_EQ(failure.pointer, "/deployment/resources/0");
  EXPECT_EQ(failure.Located(),
            "state.json:3:14: unexpected end of input (at "
            "/deployment/resources/0)");
}

TEST(FailureTest, StatusThatNamesItsFileIsNotNamedTwice) {
  Report report("state.json");
  Failure open = FailureOf(
      report, Status(Errc::kNotFound, "state.json: No such file or directory"));
  EXPECT_EQ(open.code, Code::kIoError);
  EXPECT_EQ(open.line, 0u);
  EXPECT_EQ(open.reason, "No such file or directory");
  EXPECT_EQ(open.Located(), "state.json: No such file or directory");

  Failure located = FailureOf(
      report, Status(Errc::kCrypto, "state.json:12:25: incorrect passphrase"));
  EXPECT_EQ(located.Located(), "state.json:12:25: incorrect passphrase");

  Failure bare = FailureOf(report, Status(Errc::kIo, "disk full"));
  EXPECT_EQ(bare.Located(), "state.json: disk full");
}

}  // namespace
}  // namespace pstate::diag
