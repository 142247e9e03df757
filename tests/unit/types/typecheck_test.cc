#include "types/typecheck.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "check_helpers.h"
#include "io/output.h"

namespace pstate::types {
namespace {

using testing::Checker;

struct RunResult {
  TypecheckStatus status;
  std::string out;
  std::string errors;
};

RunResult Typecheck(const TypecheckConfig& config) {
  io::StringOutput out;
  RunResult r;
  r.status = RunTypecheck(config, out, &r.errors);
  r.out = out.str();
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

TEST(TypecheckTest, SingleValueResultsAndStatus) {
  RunResult ok = Typecheck(Single("pulumi", "Array<String>", R"(["a"])"));
  EXPECT_EQ(ok.status, TypecheckStatus::kPassed);
  EXPECT_EQ(ok.out, "ok\n");
  RunResult conv = Typecheck(Single("pulumi", "Number", "9007199254740993"));
  EXPECT_EQ(conv.status, TypecheckStatus::kPassed);
  EXPECT_EQ(conv.out, "convert 9007199254740992\n");
  TypecheckConfig strict = Single("pulumi", "Number", "9007199254740993");
  strict.no_convert = true;
  EXPECT_EQ(Typecheck(strict).status, TypecheckStatus::kFailed);
  RunResult err = Typecheck(Single("pulumi", "Map<Number>", R"({"a":"x"})"));
  EXPECT_EQ(err.status, TypecheckStatus::kFailed);
  EXPECT_EQ(err.out, "error at /a: expected Number, got a string\n");
  TypecheckConfig json = Single("pulumi", "Map<Number>", R"({"a":"x"})");
  json.json_format = true;
  EXPECT_EQ(Typecheck(json).out,
            "{\"result\":\"error\",\"converted\":null,\"message\":\"expected "
            "Number, got a string\",\"pointer\":\"/a\"}\n");
}

TEST(TypecheckTest, SingleValueUsageProblems) {
  RunResult bad_system = Typecheck(Single("java", "int", "1"));
  EXPECT_EQ(bad_system.status, TypecheckStatus::kUnusable);
  EXPECT_NE(bad_system.errors.find("unknown --system 'java'"),
            std::string::npos);
  RunResult bad_json = Typecheck(Single("pulumi", "Number", "[1,"));
  EXPECT_EQ(bad_json.status, TypecheckStatus::kUnusable);
  EXPECT_NE(bad_json.errors.find("not valid JSON: line 1, column 4"),
            std::string::npos);
  // A type that does not parse gives no verdict: it cannot be read (exit
  // 2), reported with its place.
  RunResult bad_type = Typecheck(Single("pulumi", "Array<", "[]"));
  EXPECT_EQ(bad_type.status, TypecheckStatus::kUnusable);
  EXPECT_EQ(bad_type.out, "");
  EXPECT_EQ(bad_type.errors, "at offset 6 of the type: expected a type\n");
  TypecheckConfig schema =
      Single("pulumi-schema", R"({"type":"string"})", "\"a\"");
  schema.schemas = {"/nonexistent/x.json"};
  EXPECT_EQ(Typecheck(schema).status, TypecheckStatus::kUnusable);
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
  EXPECT_EQ(Typecheck(c).out, "ok\n");
  c.pointer = "/deployment/resources/1/outputs/nope";
  EXPECT_EQ(Typecheck(c).status, TypecheckStatus::kUnusable);
  c.pointer = "/deployment/resources/1";
  c.type = "Map<String>";
  EXPECT_EQ(Typecheck(c).status, TypecheckStatus::kFailed);
  c.source = TypecheckConfig::Source::kStateOutput;
  c.type = "Number";
  c.output = "n";
  EXPECT_EQ(Typecheck(c).out, "ok\n");
  c.output = "pw";
  RunResult secret = Typecheck(c);
  EXPECT_EQ(secret.status, TypecheckStatus::kFailed);
  EXPECT_EQ(secret.out.find("hunter2"), std::string::npos);
  c.output = "missing";
  EXPECT_EQ(Typecheck(c).status, TypecheckStatus::kUnusable);
  std::remove(state.c_str());
}

TEST(TypecheckTest, CasesLinesInOrder) {
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
  TypecheckConfig c;
  c.source = TypecheckConfig::Source::kCases;
  c.cases = cases;
  RunResult r = Typecheck(c);
  EXPECT_EQ(r.status, TypecheckStatus::kFailed);
  EXPECT_EQ(r.out,
            "{\"line\":1,\"result\":\"ok\",\"pass\":true}\n"
            "{\"line\":2,\"result\":\"convert\",\"converted\":"
            "9007199254740992,\"pass\":true}\n"
            "{\"line\":4,\"result\":\"error\",\"message\":\"expected Number, "
            "got a string\",\"pointer\":\"\",\"pass\":false}\n"
            "{\"line\":5,\"result\":\"error\",\"message\":\"expected Number, "
            "got a string\",\"pointer\":\"\"}\n");
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
  TypecheckConfig config;
  config.source = TypecheckConfig::Source::kCases;
  config.cases = WriteTemp("stream.jsonl", text);
  RunResult r = Typecheck(config);
  EXPECT_EQ(r.status, TypecheckStatus::kPassed) << r.errors;
  EXPECT_EQ(r.out,
            "{\"line\":1,\"result\":\"ok\",\"pass\":true}\n"
            "{\"line\":2,\"result\":\"ok\",\"pass\":true}\n"
            "{\"line\":3,\"result\":\"ok\",\"pass\":true}\n"
            "{\"line\":5,\"result\":\"error\",\"message\":"
            "\"expected Null, got a number\",\"pointer\":\"\"}\n");
}

TEST(TypecheckTest, CasesInvalidLinesAreLocated) {
  std::string cases = WriteTemp(
      "invalid.jsonl",
      "{\"system\":\"pulumi\",\"type\":\"Null\",\"value\":null} x\n"
      "[1]\n"
      "{\"system\":\"pulumi\",\"type\":\"Null\",\"value\":null,\"expect\":1}\n"
      "{\"type\":\"Null\",\"value\":null}\n"
      "{\"system\":\"pulumi\",\"type\":\"Null\",\"value\":null}\n");
  TypecheckConfig c;
  c.source = TypecheckConfig::Source::kCases;
  c.cases = cases;
  RunResult r = Typecheck(c);
  EXPECT_EQ(r.status, TypecheckStatus::kUnusable);
  EXPECT_EQ(r.out,
            "{\"line\":1,\"result\":\"invalid\",\"message\":\"line 1, column "
            "48: unexpected text after the case\"}\n"
            "{\"line\":2,\"result\":\"invalid\",\"message\":\"line 2: a case "
            "is a JSON object\"}\n"
            "{\"line\":3,\"result\":\"invalid\",\"message\":\"line 3: "
            "\\\"expect\\\" must be ok, convert or error\"}\n"
            "{\"line\":4,\"result\":\"invalid\",\"message\":\"line 4: missing "
            "\\\"system\\\"\"}\n"
            "{\"line\":5,\"result\":\"ok\"}\n");
  std::remove(cases.c_str());
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
