#include "types/typecheck.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "check_helpers.h"

namespace pstate::types {
namespace {

using testing::Checker;

// A single verdict, or the message of the failure that gives none.
struct RunResult {
  std::optional<Verdict> verdict;
  std::string error;
};

RunResult Typecheck(const TypecheckConfig& config) {
  RunResult r;
  Result<Verdict> v = CheckSingle(config);
  if (v.ok()) {
    r.verdict = std::move(*v);
  } else {
    r.error = v.status().message();
  }
  return r;
}

// Every case of a cases file, and the result.
struct CasesResult {
  std::vector<TypecheckCase> cases;
  Result<TypecheckCasesResult> result = TypecheckCasesResult{};
};

CasesResult Cases(const std::string& path) {
  TypecheckConfig config;
  config.source = TypecheckConfig::Source::kCases;
  config.cases = path;
  CasesResult r;
  r.result = CheckCases(
      config, [&](const TypecheckCase& one) { r.cases.push_back(one); });
  return r;
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  std::filesystem::path p =
      std::filesystem::temp_directory_path() /
      ("pstate_typecheck_test_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(p) << text;
  return p.string();
}

TypecheckConfig Single(std::string system, std::string type,
                       std::string value) {
  TypecheckConfig c;
  c.system = std::move(system);
  c.type = std::move(type);
  c.value = std::move(value);
  return c;
}

TEST(TypecheckTest, SingleValueVerdicts) {
  RunResult ok = Typecheck(Single("pulumi", "Array<String>", R"(["a"])"));
  ASSERT_TRUE(ok.verdict) << ok.error;
  EXPECT_EQ(ok.verdict->outcome, Outcome::kOk);
  RunResult conv = Typecheck(Single("pulumi", "Number", "9007199254740993"));
  ASSERT_TRUE(conv.verdict) << conv.error;
  EXPECT_EQ(conv.verdict->outcome, Outcome::kConvert);
  EXPECT_EQ(conv.verdict->converted, "9007199254740992");
  RunResult err = Typecheck(Single("pulumi", "Map<Number>", R"({"a":"x"})"));
  ASSERT_TRUE(err.verdict) << err.error;
  EXPECT_EQ(err.verdict->outcome, Outcome::kError);
  EXPECT_EQ(err.verdict->pointer, "/a");
  EXPECT_EQ(err.verdict->message, "expected Number, got a string");
}

TEST(TypecheckTest, SingleValueUsageProblems) {
  RunResult bad_system = Typecheck(Single("java", "int", "1"));
  EXPECT_FALSE(bad_system.verdict);
  EXPECT_NE(bad_system.error.find("unknown --system 'java'"),
            std::string::npos);
  RunResult bad_json = Typecheck(Single("pulumi", "Number", "[1,"));
  EXPECT_FALSE(bad_json.verdict);
  EXPECT_NE(bad_json.error.find("not valid JSON: line 1, column 4"),
            std::string::npos);
  // A type that does not parse gives no verdict: it cannot be read (exit
  // 2), reported with its place.
  RunResult bad_type = Typecheck(Single("pulumi", "Array<", "[]"));
  EXPECT_FALSE(bad_type.verdict);
  EXPECT_EQ(bad_type.error, "at offset 6 of the type: expected a type");
  TypecheckConfig schema =
      Single("pulumi-schema", R"({"type":"string"})", "\"a\"");
  schema.schemas = {"/nonexistent/x.json"};
  EXPECT_FALSE(Typecheck(schema).verdict);
}

TEST(TypecheckTest, StatePointerAndOutput) {
  std::string state = WriteTemp("state.json", R"({"version":3,"deployment":{
    "manifest":{"time":"","magic":"","version":""},
    "resources":[
      {"urn":"urn:pulumi:d::p::pulumi:pulumi:Stack::p-d","custom":false,
       "type":"pulumi:pulumi:Stack","outputs":{"n":3,
        "pw":{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","plaintext":"\"hunter2\""}}},
      {"urn":"urn:pulumi:d::p::a:b:C::c","custom":true,"id":"x","type":"a:b:C",
       "outputs":{"tags":{"a":"b"}}}]}})");
  TypecheckConfig c = Single("pulumi", "Map<String>", "");
  c.source = TypecheckConfig::Source::kStatePointer;
  c.state = state;
  c.pointer = "/deployment/resources/1/outputs/tags";
  ASSERT_TRUE(Typecheck(c).verdict);
  EXPECT_EQ(Typecheck(c).verdict->outcome, Outcome::kOk);
  c.pointer = "/deployment/resources/1/outputs/nope";
  EXPECT_FALSE(Typecheck(c).verdict);
  c.pointer = "/deployment/resources/1";
  c.type = "Map<String>";
  ASSERT_TRUE(Typecheck(c).verdict);
  EXPECT_EQ(Typecheck(c).verdict->outcome, Outcome::kError);
  c.source = TypecheckConfig::Source::kStateOutput;
  c.type = "Number";
  c.output = "n";
  ASSERT_TRUE(Typecheck(c).verdict);
  EXPECT_EQ(Typecheck(c).verdict->outcome, Outcome::kOk);
  c.output = "pw";
  RunResult secret = Typecheck(c);
  ASSERT_TRUE(secret.verdict);
  EXPECT_EQ(secret.verdict->outcome, Outcome::kError);
  EXPECT_EQ(secret.verdict->message.find("hunter2"), std::string::npos);
  c.output = "missing";
  EXPECT_FALSE(Typecheck(c).verdict);
  std::remove(state.c_str());
}

TEST(TypecheckTest, CasesInOrder) {
  std::string cases = WriteTemp(
      "cases.jsonl",
      R"({"system":"pulumi","type":"Number","value":1,"expect":"ok"})"
      "\n"
      R"({"system":"pulumi","type":"Number","value":9007199254740993,"expect":"convert","converted":9.007199254740992e15})"
      "\n\n"
      R"({"system":"pulumi","type":"Number","value":"1","expect":"ok"})"
      "\n"
      R"({"system":"pulumi","type":"Number","value":"1"})"
      "\r\n");
  CasesResult r = Cases(cases);
  ASSERT_TRUE(r.result.ok()) << r.result.status().message();
  EXPECT_EQ(r.result->cases, 4U);
  EXPECT_EQ(r.result->failed, 1U);
  EXPECT_EQ(r.result->invalid, 0U);
  ASSERT_EQ(r.cases.size(), 4U);
  EXPECT_EQ(r.cases[0].line, 1U);
  EXPECT_EQ(r.cases[0].verdict.outcome, Outcome::kOk);
  EXPECT_EQ(r.cases[0].pass, true);
  EXPECT_EQ(r.cases[1].line, 2U);
  EXPECT_EQ(r.cases[1].verdict.outcome, Outcome::kConvert);
  EXPECT_EQ(r.cases[1].verdict.converted, "9007199254740992");
  EXPECT_EQ(r.cases[1].pass, true);
  EXPECT_EQ(r.cases[2].line, 4U);
  EXPECT_EQ(r.cases[2].verdict.outcome, Outcome::kError);
  EXPECT_EQ(r.cases[2].verdict.message, "expected Number, got a string");
  EXPECT_EQ(r.cases[2].pass, false);
  EXPECT_EQ(r.cases[3].line, 5U);
  EXPECT_FALSE(r.cases[3].pass.has_value());
  std::remove(cases.c_str());
}

// A converted secret comes out masked: its plaintext is never in a case.
TEST(TypecheckTest, CasesMaskConvertedSecrets) {
  std::string cases = WriteTemp(
      "secret.jsonl",
      R"({"system":"pulumi-schema","type":{"type":"number"},"value":{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","plaintext":"9007199254740993"},"expect":"convert","converted":{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","plaintext":"9.007199254740992e15"}})"
      "\n");
  CasesResult r = Cases(cases);
  ASSERT_TRUE(r.result.ok()) << r.result.status().message();
  ASSERT_EQ(r.cases.size(), 1U);
  // Compared unmasked (the expectation holds), shown masked.
  EXPECT_EQ(r.cases[0].pass, true);
  EXPECT_EQ(r.cases[0].verdict.converted.find("9007199254740992"),
            std::string::npos)
      << r.cases[0].verdict.converted;
  EXPECT_NE(r.cases[0].verdict.converted.find("[secret]"), std::string::npos);
  std::remove(cases.c_str());
}

// The cases are read as a stream, a line at a time: a line that spans
// the reader's 64 KiB chunks is one case, and a last line without a
// newline is read too.
TEST(TypecheckTest, CasesAreStreamedLineByLine) {
  std::string long_value(100000, 'x');
  std::string text;
  for (int i = 0; i < 3; ++i) {
    text += "{\"system\":\"pulumi\",\"type\":\"String\",\"value\":\"" +
            long_value + "\",\"expect\":\"ok\"}\n";
  }
  text += "\n{\"system\":\"pulumi\",\"type\":\"Null\",\"value\":1}";
  CasesResult r = Cases(WriteTemp("stream.jsonl", text));
  ASSERT_TRUE(r.result.ok()) << r.result.status().message();
  EXPECT_EQ(r.result->failed, 0U);
  ASSERT_EQ(r.cases.size(), 4U);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(r.cases[static_cast<std::size_t>(i)].line,
              static_cast<std::uint64_t>(i + 1));
    EXPECT_EQ(r.cases[static_cast<std::size_t>(i)].pass, true);
  }
  EXPECT_EQ(r.cases[3].line, 5U);
  EXPECT_EQ(r.cases[3].verdict.message, "expected Null, got a number");
}

TEST(TypecheckTest, CasesInvalidLinesAreLocated) {
  std::string cases = WriteTemp(
      "invalid.jsonl",
      "{\"system\":\"pulumi\",\"type\":\"Null\",\"value\":null} x\n"
      "[1]\n"
      "{\"system\":\"pulumi\",\"type\":\"Null\",\"value\":null,\"expect\":1}\n"
      "{\"type\":\"Null\",\"value\":null}\n"
      "{\"system\":\"pulumi\",\"type\":\"Null\",\"value\":null}\n");
  CasesResult r = Cases(cases);
  ASSERT_TRUE(r.result.ok()) << r.result.status().message();
  EXPECT_EQ(r.result->invalid, 4U);
  ASSERT_EQ(r.cases.size(), 5U);
  EXPECT_EQ(r.cases[0].invalid,
            "line 1, column 48: unexpected text after the case");
  EXPECT_EQ(r.cases[1].invalid, "line 2: a case is a JSON object");
  EXPECT_EQ(r.cases[2].invalid,
            "line 3: \"expect\" must be ok, convert or error");
  EXPECT_EQ(r.cases[3].invalid, "line 4: missing \"system\"");
  EXPECT_EQ(r.cases[4].invalid, "");
  EXPECT_EQ(r.cases[4].verdict.outcome, Outcome::kOk);
  std::remove(cases.c_str());
}

TEST(TypecheckTest, CasesFailBeforeAnyCaseOnABadSchemaOrInput) {
  TypecheckConfig config;
  config.source = TypecheckConfig::Source::kCases;
  config.cases = "/nonexistent/cases.jsonl";
  bool called = false;
  auto on_case = [&](const TypecheckCase&) { called = true; };
  EXPECT_FALSE(CheckCases(config, on_case).ok());
  config.schemas = {"/nonexistent/x.json"};
  Result<TypecheckCasesResult> bad_schema = CheckCases(config, on_case);
  ASSERT_FALSE(bad_schema.ok());
  EXPECT_EQ(bad_schema.status().message().rfind("schema: ", 0), 0U);
  EXPECT_FALSE(called);
}

TEST(SameResultTest, ComparisonRules) {
  Checker j(System::kPulumi);
  auto same = [&](const char* a, const char* b) {
    return SameResult(j.Json(a), j.Json(b));
  };
  EXPECT_TRUE(same("1", "1.0"));
  EXPECT_TRUE(same("1", "1e0"));
  EXPECT_FALSE(same("9007199254740993", "9007199254740992"));
  EXPECT_FALSE(same("true", "1"));
  EXPECT_TRUE(same(R"("\u0041")", R"("A")"));
  EXPECT_TRUE(same(R"({"a":1,"b":[1,2]})", R"({"b":[1,2.0],"a":1})"));
  EXPECT_FALSE(same(R"({"a":1})", R"({"a":1,"b":2})"));
  EXPECT_FALSE(same("[1,2]", "[2,1]"));
  EXPECT_TRUE(same(R"({"a":1,"a":2})", R"({"a":2})"));
  EXPECT_TRUE(same(R"({SIG:SECRET,"plaintext":"[1, 2]"})",
                   R"({SIG:SECRET,"plaintext":"[1,2.0]"})"));
  EXPECT_FALSE(same(R"({SIG:SECRET,"plaintext":"1"})",
                    R"({SIG:SECRET,"plaintext":"2"})"));
  EXPECT_TRUE(same("UNK", "UNK"));
  EXPECT_TRUE(same("null", "null"));
  EXPECT_FALSE(same("null", "false"));
}

}  // namespace
}  // namespace pstate::types
