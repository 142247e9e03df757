#include "report/typecheck.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace pstate::report {
namespace {

TypeVerdict Verdict(TypeOutcome outcome, std::string converted = "",
                    std::string pointer = "", std::string message = "") {
  TypeVerdict v;
  v.outcome = outcome;
  v.converted = std::move(converted);
  v.pointer = std::move(pointer);
  v.message = std::move(message);
  return v;
}

std::string Text(const TypeVerdict& v, TypecheckFormat format) {
  std::ostringstream out;
  WriteTypeVerdict(v, format, out);
  return out.str();
}

std::string Line(const TypecheckCase& one) {
  std::ostringstream out;
  WriteTypecheckCase(one, out);
  return out.str();
}

TEST(TypecheckRenderTest, SingleVerdictText) {
  EXPECT_EQ(Text(Verdict(TypeOutcome::kOk), TypecheckFormat::kText), "ok\n");
  EXPECT_EQ(Text(Verdict(TypeOutcome::kConvert, "9007199254740992"),
                 TypecheckFormat::kText),
            "convert 9007199254740992\n");
  EXPECT_EQ(Text(Verdict(TypeOutcome::kError, "", "/a",
                         "expected Number, got a string"),
                 TypecheckFormat::kText),
            "error at /a: expected Number, got a string\n");
  EXPECT_EQ(
      Text(Verdict(TypeOutcome::kError, "", "", "bad"), TypecheckFormat::kText),
      "error: bad\n");
}

TEST(TypecheckRenderTest, SingleVerdictJson) {
  EXPECT_EQ(Text(Verdict(TypeOutcome::kError, "", "/a",
                         "expected Number, got a string"),
                 TypecheckFormat::kJson),
            "{\"result\":\"error\",\"converted\":null,\"message\":\"expected "
            "Number, got a string\",\"pointer\":\"/a\"}\n");
  EXPECT_EQ(
      Text(Verdict(TypeOutcome::kConvert, "[1,\"a\"]"), TypecheckFormat::kJson),
      "{\"result\":\"convert\",\"converted\":[1,\"a\"],\"message\":null,"
      "\"pointer\":null}\n");
}

TEST(TypecheckRenderTest, CaseLines) {
  TypecheckCase ok;
  ok.line = 1;
  ok.pass = true;
  EXPECT_EQ(Line(ok), "{\"line\":1,\"result\":\"ok\",\"pass\":true}\n");
  TypecheckCase conv;
  conv.line = 2;
  conv.verdict = Verdict(TypeOutcome::kConvert, "9007199254740992");
  EXPECT_EQ(Line(conv),
            "{\"line\":2,\"result\":\"convert\",\"converted\":"
            "9007199254740992}\n");
  TypecheckCase err;
  err.line = 4;
  err.verdict =
      Verdict(TypeOutcome::kError, "", "", "expected Number, got a string");
  err.pass = false;
  EXPECT_EQ(Line(err),
            "{\"line\":4,\"result\":\"error\",\"message\":\"expected Number, "
            "got a string\",\"pointer\":\"\",\"pass\":false}\n");
  TypecheckCase invalid;
  invalid.line = 3;
  invalid.invalid = "line 3: \"expect\" must be ok, convert or error";
  EXPECT_EQ(Line(invalid),
            "{\"line\":3,\"result\":\"invalid\",\"message\":\"line 3: "
            "\\\"expect\\\" must be ok, convert or error\"}\n");
}

}  // namespace
}  // namespace pstate::report
