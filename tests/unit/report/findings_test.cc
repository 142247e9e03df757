// The findings renderers: text, JSON Lines, SARIF and GitHub annotations.
#include "report/findings.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "diag/code_docs.h"
#include "diag/codes.h"
#include "diag/finding.h"
#include "diag/fingerprint.h"
#include "diag/report.h"
#include "json/parser.h"
#include "report/terminal.h"

namespace pstate::report {
namespace {

using namespace pstate::diag;  // NOLINT(google-build-using-namespace)
// pstate::Finding (the public API's) is visible from here too.
using diag::Finding;
using report::RenderSarif;
using report::RenderText;
using report::TextOptions;

std::set<std::string> Keys(const json::Value& object) {
  std::set<std::string> keys;
  for (const json::Member& m : object.object()) keys.insert(m.key.Str());
  return keys;
}

Finding Located(Code code, std::string message, std::string pointer,
                std::string urn = {}) {
  Finding f =
      MakeFinding(code, std::move(message), std::move(pointer), std::move(urn));
  f.line = 3;
  f.column = 9;
  return f;
}

/// A report with a located finding with URN and an unlocated one without.
Report SampleReport() {
  Report report("dir/state.json");
  Finding a =
      MakeFinding(Code::kUrnMalformed, "URN \"x\" is bad",
                  "/deployment/resources/0/urn", "urn:pulumi:dev::p::t::n");
  a.line = 12;
  a.column = 7;
  report.Add(a);
  report.Add(MakeFinding(Code::kFieldUnknown, "unknown field \"zz\"", ""));
  report.set_resources(3);
  return report;
}

TEST(RenderTextTest, ExactLines) {
  std::ostringstream out;
  RenderText(SampleReport().result(), out);
  EXPECT_EQ(out.str(),
            "dir/state.json:12:7: error[urn-malformed]: URN \"x\" is bad\n"
            "    urn: urn:pulumi:dev::p::t::n\n"
            "    at:  /deployment/resources/0/urn\n"
            "    fingerprint: 84d5dc6a2844bcbd88e3360b98f9768e\n"
            "dir/state.json: note[field-unknown]: unknown field \"zz\"\n"
            "    fingerprint: 58ac234413d7d25b70dd7366cae6ba5f\n"
            "dir/state.json: 1 error, 0 warnings, 1 note in 3 resources\n"
            "  by code: field-unknown 1, urn-malformed 1\n");
}

TEST(TerminalSafeTest, EscapesControlCharactersLikeGit) {
  EXPECT_EQ(TerminalSafe("plain text / with \\ and \"quotes\""),
            "plain text / with \\ and \"quotes\"");
  EXPECT_EQ(TerminalSafe("a\033[2Kb"), "a\\033[2Kb");
  EXPECT_EQ(TerminalSafe("\r\n\t\a\b\v\f"), "\\r\\n\\t\\a\\b\\v\\f");
  EXPECT_EQ(TerminalSafe(std::string("x\0y", 3)), "x\\000y");
  EXPECT_EQ(TerminalSafe("\x7f"), "\\177");
  EXPECT_EQ(TerminalSafe("\xc2\x9b"
                         "31m"),
            "\\302\\23331m");  // C1 CSI
  EXPECT_EQ(TerminalSafe("caf\xc3\xa9 \xc2\xa0"), "caf\xc3\xa9 \xc2\xa0");
}

TEST(RenderTextTest, StateTextCannotForgeOrHideFindings) {
  // A URN that erases the lines above and a message that starts a new,
  // forged finding line (review F10, B3).
  Report report("in\033]0;x\a.json");
  Finding f = MakeFinding(
      Code::kUrnMalformed, "URN bad\nfake.json:1:1: error[forged]: x",
      "/deployment/resources/0/\r", "urn:pulumi:dev::p::t::n\033[1A\033[2K\r");
  f.line = 1;
  f.column = 2;
  report.Add(f);
  std::ostringstream out;
  RenderText(report.result(), out);
  std::string text = out.str();
  EXPECT_EQ(text.find('\033'), std::string::npos);
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_EQ(text.find('\a'), std::string::npos);
  EXPECT_EQ(text.find("\nfake.json"), std::string::npos);
  EXPECT_NE(text.find("URN bad\\nfake.json:1:1"), std::string::npos);
  EXPECT_NE(text.find("urn: urn:pulumi:dev::p::t::n\\033[1A\\033[2K\\r\n"),
            std::string::npos);
  // Exactly one finding line, its urn, pointer and fingerprint lines, and
  // the summary (one code: no tally line).
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5);
}

TEST(RenderTextTest, SummaryPluralsAndOmitted) {
  Report report("s.json", 1);
  report.Add(MakeFinding(Code::kPendingOperation, "a"));
  report.Add(MakeFinding(Code::kPendingOperation, "b"));
  report.set_resources(1);
  std::ostringstream out;
  RenderText(report.result(), out);
  EXPECT_EQ(out.str(),
            "s.json: warning[pending-operation]: a\n"
            "    fingerprint: c7f5c03471ef537ac998439964276544\n"
            "s.json: 0 errors, 2 warnings, 0 notes in 1 resource "
            "(1 not shown; see --max-findings)\n"
            "  by code: pending-operation 2\n");
}

TEST(RenderTextTest, ColorWrapsButKeepsText) {
  std::ostringstream plain, color;
  RenderText(SampleReport().result(), plain);
  RenderText(SampleReport().result(), color, TextOptions{true});
  EXPECT_NE(color.str(), plain.str());
  EXPECT_NE(color.str().find("\033["), std::string::npos);
  std::string stripped;
  const std::string& s = color.str();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\033') {
      while (s[i] != 'm') ++i;
      continue;
    }
    stripped.push_back(s[i]);
  }
  EXPECT_EQ(stripped, plain.str());
}

TEST(RenderJsonLineTest, ValidJsonWithExactlyTheDocumentedKeys) {
  Report report = SampleReport();
  // Characters that need escaping in file names and messages.
  Report tricky("we\"ird\\name\n.json");
  Finding f =
      MakeFinding(Code::kFieldType, "tab\there \xE2\x80\xA8 <&>", "/a~1b");
  tricky.Add(f);
  for (const Report* r : {&report, &tricky}) {
    std::ostringstream out;
    RenderJsonLine(r->result(), out);
    std::string line = out.str();
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line.back(), '\n');
    EXPECT_EQ(line.find('\n'), line.size() - 1) << "one line";
    json::Arena arena;
    json::Parser parser;
    json::Value v;
    ASSERT_EQ(parser.ParseDocument(line, 0, arena, &v), json::ParseStatus::kOk)
        << parser.error().message << "\n"
        << line;
    EXPECT_TRUE(parser.duplicates().empty());
    EXPECT_EQ(Keys(v), (std::set<std::string>{"file", "findings", "summary"}));
    EXPECT_EQ(v.Find("file")->Str(), r->file());
    const json::Value* findings = v.Find("findings");
    ASSERT_TRUE(findings->is_array());
    ASSERT_EQ(findings->size, r->findings().size());
    for (std::size_t i = 0; i < findings->size; ++i) {
      const json::Value& fv = findings->array()[i];
      const Finding& want = r->findings()[i];
      EXPECT_EQ(Keys(fv), (std::set<std::string>{"code", "severity", "message",
                                                 "pointer", "line", "column",
                                                 "urn", "fingerprint"}));
      EXPECT_EQ(fv.Find("fingerprint")->Str(), want.fingerprint);
      EXPECT_EQ(want.fingerprint.size(), 32u);
      EXPECT_EQ(fv.Find("code")->Str(), want.code_name());
      EXPECT_EQ(fv.Find("severity")->Str(), SeverityName(want.severity));
      EXPECT_EQ(fv.Find("message")->Str(), want.message);
      EXPECT_EQ(fv.Find("pointer")->Str(), want.pointer);
      if (want.line > 0) {
        EXPECT_EQ(fv.Find("line")->raw(), std::to_string(want.line));
        EXPECT_EQ(fv.Find("column")->raw(), std::to_string(want.column));
      } else {
        EXPECT_TRUE(fv.Find("line")->is_null());
        EXPECT_TRUE(fv.Find("column")->is_null());
      }
      if (want.urn.empty()) {
        EXPECT_TRUE(fv.Find("urn")->is_null());
      } else {
        EXPECT_EQ(fv.Find("urn")->Str(), want.urn);
      }
    }
    const json::Value* summary = v.Find("summary");
    EXPECT_EQ(Keys(*summary),
              (std::set<std::string>{"errors", "warnings", "notes", "resources",
                                     "omitted", "suppressed", "by_code"}));
    EXPECT_EQ(summary->Find("errors")->raw(),
              std::to_string(r->summary().errors));
    EXPECT_EQ(summary->Find("notes")->raw(),
              std::to_string(r->summary().notes));
    EXPECT_EQ(summary->Find("resources")->raw(),
              std::to_string(r->summary().resources));
    EXPECT_EQ(summary->Find("omitted")->raw(), "0");
  }
}

TEST(RenderJsonLineTest, OmittedIsCounted) {
  Report report("s.json", 1);
  for (int i = 0; i < 4; ++i) report.Add(MakeFinding(Code::kFieldType, "x"));
  std::ostringstream out;
  RenderJsonLine(report.result(), out);
  EXPECT_NE(out.str().find("\"omitted\":3,"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\"by_code\":{\"field-type\":4}"), std::string::npos)
      << out.str();
}

struct Sarif {
  json::Arena arena;
  json::Value root;
};

void ParseSarif(const std::string& text, Sarif* s) {
  json::Parser parser;
  ASSERT_EQ(parser.ParseDocument(text, 0, s->arena, &s->root),
            json::ParseStatus::kOk)
      << parser.error().message;
  EXPECT_TRUE(parser.duplicates().empty());
}

TEST(RenderSarifTest, ValidSarifWithRulesAndResults) {
  Report a = SampleReport();
  Report b("<stdin>");
  b.Add(MakeFinding(Code::kPendingOperation, "pending"));
  const Findings* reports[] = {&a.result(), &b.result()};
  std::ostringstream out;
  RenderSarif(reports, out, "1.2.3");
  Sarif s;
  ParseSarif(out.str(), &s);
  EXPECT_EQ(s.root.Find("version")->Str(), "2.1.0");
  ASSERT_TRUE(s.root.Find("$schema")->is_string());
  const json::Value* runs = s.root.Find("runs");
  ASSERT_EQ(runs->size, 1u);
  const json::Value& run = runs->array()[0];
  const json::Value* driver = run.Find("tool")->Find("driver");
  EXPECT_EQ(driver->Find("name")->Str(), "pstate");
  EXPECT_EQ(driver->Find("version")->Str(), "1.2.3");
  const json::Value* rules = driver->Find("rules");
  ASSERT_EQ(rules->size, AllCodes().size());
  std::set<std::string> ids;
  for (std::size_t i = 0; i < rules->size; ++i) {
    const json::Value& rule = rules->array()[i];
    EXPECT_EQ(rule.Find("id")->Str(), AllCodes()[i].name);
    EXPECT_TRUE(ids.insert(rule.Find("id")->Str()).second);
    EXPECT_EQ(rule.Find("shortDescription")->Find("text")->Str(),
              AllCodes()[i].summary);
    EXPECT_EQ(rule.Find("defaultConfiguration")->Find("level")->Str(),
              SeverityName(AllCodes()[i].severity));
  }
  const json::Value* results = run.Find("results");
  ASSERT_EQ(results->size, 3u);
  const json::Value& r0 = results->array()[0];
  EXPECT_EQ(r0.Find("ruleId")->Str(), "urn-malformed");
  // ruleIndex points at the rule with that id.
  std::size_t index = std::stoul(std::string(r0.Find("ruleIndex")->raw()));
  EXPECT_EQ(rules->array()[index].Find("id")->Str(), "urn-malformed");
  EXPECT_EQ(r0.Find("level")->Str(), "error");
  EXPECT_EQ(r0.Find("message")->Find("text")->Str(), "URN \"x\" is bad");
  const json::Value& loc = r0.Find("locations")->array()[0];
  const json::Value* phys = loc.Find("physicalLocation");
  EXPECT_EQ(phys->Find("artifactLocation")->Find("uri")->Str(),
            "dir/state.json");
  EXPECT_EQ(phys->Find("region")->Find("startLine")->raw(), "12");
  EXPECT_EQ(phys->Find("region")->Find("startColumn")->raw(), "7");
  EXPECT_EQ(phys->Find("region")->Find("endLine")->raw(), "12");
  EXPECT_EQ(phys->Find("region")->Find("endColumn")->raw(), "8");
  EXPECT_EQ(r0.Find("partialFingerprints")->Find("pstate/v1")->Str(),
            a.findings()[0].fingerprint);
  EXPECT_EQ(loc.Find("logicalLocations")
                ->array()[0]
                .Find("fullyQualifiedName")
                ->Str(),
            "/deployment/resources/0/urn");
  EXPECT_EQ(r0.Find("properties")->Find("urn")->Str(),
            "urn:pulumi:dev::p::t::n");
  // Unlocated findings are the file's first character.
  const json::Value& r1 = results->array()[1];
  EXPECT_EQ(r1.Find("level")->Str(), "note");
  const json::Value* region =
      r1.Find("locations")->array()[0].Find("physicalLocation")->Find("region");
  EXPECT_EQ(region->Find("startLine")->raw(), "1");
  EXPECT_EQ(region->Find("startColumn")->raw(), "1");
  EXPECT_EQ(r1.Find("properties")->Find("urn"), nullptr);
  const json::Value& r2 = results->array()[2];
  EXPECT_EQ(r2.Find("level")->Str(), "warning");
  EXPECT_EQ(r2.Find("locations")
                ->array()[0]
                .Find("physicalLocation")
                ->Find("artifactLocation")
                ->Find("uri")
                ->Str(),
            "stdin");
  EXPECT_EQ(run.Find("properties"), nullptr);
}

TEST(RenderSarifTest, CappedAtTheResultLimit) {
  Report a("a.json");
  Report b("b.json", 10);
  for (std::size_t i = 0; i < kSarifMaxResults - 5; ++i) {
    a.Add(MakeFinding(Code::kFieldUnknown, "n"));
  }
  for (int i = 0; i < 20; ++i) b.Add(MakeFinding(Code::kFieldType, "t"));
  const Findings* reports[] = {&a.result(), &b.result()};
  std::ostringstream out;
  RenderSarif(reports, out, "0");
  Sarif s;
  ParseSarif(out.str(), &s);
  const json::Value& run = s.root.Find("runs")->array()[0];
  EXPECT_EQ(run.Find("results")->size, kSarifMaxResults);
  // 5 of b's 10 kept findings are dropped, plus its 10 omitted ones.
  EXPECT_EQ(run.Find("properties")->Find("omittedResults")->raw(), "15");
}

TEST(RenderSarifTest, NoReports) {
  std::ostringstream out;
  RenderSarif({}, out, "0");
  Sarif s;
  ParseSarif(out.str(), &s);
  EXPECT_EQ(s.root.Find("runs")->array()[0].Find("results")->size, 0u);
}

TEST(CodeAnchorTest, SarifRulesLinkTheirAnchorsAndTheRunItsDocs) {
  std::ostringstream out;
  RenderSarif({}, out, "1.2.3");
  const std::string sarif = out.str();
  const std::string base(DocsBaseUri());
  EXPECT_NE(sarif.find("\"informationUri\":\"" + base + "/cli.md\""),
            std::string::npos);
  for (const CodeInfo& info : AllCodes()) {
    EXPECT_NE(sarif.find("\"helpUri\":\"" + base + "/diagnostics.md#" +
                         std::string(info.name) + "\""),
              std::string::npos)
        << info.name;
  }
}

// The pointer "" is the whole document; "/" would be the key "" (RFC 6901).
// A finding about the whole input shows no pointer rather than a wrong one.
TEST(CodeAnchorTest, WholeDocumentPointerIsNotRenderedAsSlash) {
  Report report("state.json");
  report.Add(MakeFinding(Code::kNotAState, "not an object", ""));
  std::ostringstream text;
  RenderText(report.result(), text, TextOptions{});
  EXPECT_EQ(text.str().find("at:"), std::string::npos) << text.str();
  const Findings* reports[] = {&report.result()};
  std::ostringstream sarif;
  RenderSarif(reports, sarif, "1.2.3");
  EXPECT_EQ(sarif.str().find("logicalLocations"), std::string::npos);
  EXPECT_EQ(sarif.str().find("\"fullyQualifiedName\":\"/\""),
            std::string::npos);
}

TEST(ParseBaselineTest, JsonLinesAndSarifGiveTheSameFingerprints) {
  Report report("dev.json");
  report.Add(Located(Code::kFieldType, "a", "/a"));
  report.Add(Located(Code::kUrnMalformed, "b", "/deployment/resources/0/urn",
                     "urn:pulumi:dev::p::t::n"));
  report.SortByLocation();
  std::ostringstream json, sarif;
  RenderJsonLine(report.result(), json);
  RenderJsonLine(Report("empty.json").result(), json);
  const Findings* reports[] = {&report.result()};
  RenderSarif(reports, sarif, "0");
  auto from_json = ParseBaseline(json.str(), "b.json");
  auto from_sarif = ParseBaseline(sarif.str(), "b.sarif");
  ASSERT_TRUE(from_json.ok()) << from_json.status().message();
  ASSERT_TRUE(from_sarif.ok()) << from_sarif.status().message();
  ASSERT_EQ(from_json->size(), 2u);
  EXPECT_EQ(*from_json, *from_sarif);
  EXPECT_EQ((*from_json)[0], report.findings()[0].fingerprint);
  EXPECT_TRUE(ParseBaseline("", "e")->empty());
}

TEST(RenderGithubTest, EscapesPropertiesAndData) {
  Report report("a,b:c.json");
  Finding f = MakeFinding(Code::kFieldUnknown, "50% bad\r\nnext", "/x");
  f.line = 2;
  f.column = 5;
  report.Add(f);
  std::ostringstream out;
  RenderGithub(report.result(), out);
  EXPECT_EQ(out.str().substr(0, out.str().find('\n') + 1),
            "::notice file=a%2Cb%3Ac.json,line=2,col=5,title=field-unknown::"
            "50%25 bad%0D%0Anext (at /x)\n");
}

}  // namespace
}  // namespace pstate::report
