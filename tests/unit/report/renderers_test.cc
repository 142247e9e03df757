// The renderers of each command's typed results: exact text and JSON, and
// that state text reaching a terminal is escaped.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "diag/failure.h"
#include "report/assets.h"
#include "report/diff.h"
#include "report/edit.h"
#include "report/inspect.h"
#include "report/normalize.h"
#include "report/rules.h"
#include "report/terminal.h"

namespace pstate::report {
namespace {

TEST(PrintErrorTest, OneLineWithControlCharactersEscaped) {
  std::ostringstream out;
  PrintError(out, "a.json: bad\x1b[2J\r\n * name\t");
  EXPECT_EQ(out.str(), "pstate: error: a.json: bad\\033[2J\\r\n * name\\t\n");
}

TEST(PrintErrorTest, FailureHasItsPlaceAndPointer) {
  diag::Failure f;
  f.file = "s.json";
  f.line = 4;
  f.column = 2;
  f.pointer = "/deployment";
  f.reason = "unexpected end of input";
  std::ostringstream out;
  PrintError(out, f);
  EXPECT_EQ(out.str(),
            "pstate: error: s.json:4:2: unexpected end of input (at "
            "/deployment)\n");
}

TEST(EditRenderTest, JsonAndTextAndFindings) {
  EditResult o;
  EditElementChange c;
  c.kind = EditChangeKind::kChanged;
  c.what = "urn:pulumi:s::p::t::a\x1b";
  c.fields.push_back({EditChangeKind::kChanged, "protect", "false", "true"});
  o.resources = EditList<EditElementChange>({c});
  o.notes = EditList<std::string>({"a note"});
  o.new_errors.push_back(diag::MakeFinding(diag::Code::kDependencyMissing,
                                           "gone\x07", "", "urn:x"));
  std::ostringstream json, text, findings;
  RenderEditJson("in\"put.json", EditOperation::kProtect, o, json);
  EXPECT_EQ(json.str(),
            R"({"file":"in\"put.json","operation":"protect","refused":false,)"
            R"("envelope":[],"resources":[{"op":"~","what":)"
            R"("urn:pulumi:s::p::t::a\u001b","fields":[{"op":"~","field":)"
            R"("protect","before":"false","after":"true"}]}],)"
            R"("pending_operations":[],"notes":["a note"],"new_findings":)"
            R"([{"code":"dependency-missing","message":"gone\u0007","urn":)"
            R"("urn:x"}]})"
            "\n");
  RenderEditText(o, text);
  EXPECT_EQ(text.str(),
            "~ urn:pulumi:s::p::t::a\\033\n"
            "    ~ protect: false -> true\n"
            "note: a note\n");
  RenderNewErrors(o.new_errors, findings);
  EXPECT_EQ(findings.str(), "  error[dependency-missing] gone\\a (urn:x)\n");
}

TEST(InspectRenderTest, RowJsonAndText) {
  inspect::ResourceRow row;
  row.index = 2;
  row.urn = "urn:pulumi:s::p::t::n";
  row.type = "t";
  row.name = "n";
  row.custom = true;
  row.flags = {inspect::Flag::kProtect};
  row.bytes = 10;
  EXPECT_EQ(RowJson(row),
            R"({"index":2,"urn":"urn:pulumi:s::p::t::n","type":"t",)"
            R"("name":"n","custom":true,"flags":["protect"],"bytes":10})");
  EXPECT_EQ(RowText(row), "urn:pulumi:s::p::t::n\tt\t-\tprotect");
  inspect::PendingRow p;
  p.operation = "creating";
  p.urn = "u";
  p.type = "t";
  EXPECT_EQ(PendingJson(p),
            R"({"index":0,"operation":"creating","urn":"u","type":"t"})");
}

TEST(InspectRenderTest, StatsJsonHasEveryMember) {
  inspect::StatsResult s;
  s.envelope = "export";
  s.version = 3;
  s.by_type["t"] = {2, 30};
  s.largest.emplace_back(20, "u");
  EXPECT_EQ(StatsJson(s),
            R"({"envelope":"export","version":3,"features":[],)"
            R"("resources":{"count":0,"bytes":0},"stacks":0,"projects":0,)"
            R"("flags":{},"secrets":{"provider":"","count":0},"assets":0,)"
            R"("archives":0,"pending_operations":{},"by_package":{},)"
            R"("by_type":{"t":{"count":2,"bytes":30}},"by_provider":{},)"
            R"("largest":[{"urn":"u","bytes":20}]})"
            "\n");
}

TEST(DiffRenderTest, EmptyDiffJsonAndText) {
  diff::DiffResult r;
  EXPECT_EQ(RenderDiffJson(r),
            R"({"resources":[],"envelope":[],"summary":{"same":true,)"
            R"("before_resources":0,"after_resources":0,"added":0,)"
            R"("removed":0,"renamed":0,"changed":0,"order_only":0,)"
            R"("unchanged":0,"envelope":0}})"
            "\n");
  EXPECT_EQ(RenderDiffText(r, false),
            "0 added, 0 removed, 0 renamed, 0 changed, 0 order-only, 0 "
            "unchanged; 0 envelope changes\n");
}

TEST(NormalizeRenderTest, CheckVerdictNamesThePlace) {
  normalize::Outcome o;
  o.normalized = false;
  o.line = 3;
  o.column = 5;
  o.pointer = "/deployment";
  std::ostringstream out;
  RenderNormalizeCheck("s.json", o, out);
  EXPECT_EQ(out.str(),
            "pstate: s.json:3:5: /deployment: not in normalized form (layout "
            "export); this is the first place that differs\n");
}

TEST(RulesRenderTest, JsonIsOneArrayOfEveryCode) {
  std::ostringstream out;
  RenderRulesJson(out);
  EXPECT_EQ(out.str().front(), '[');
  EXPECT_NE(out.str().find(R"({"code":"json-syntax","severity":"error",)"
                           R"("fatal":true,)"),
            std::string::npos);
}

TEST(AssetsRenderTest, JsonWithFailureAndTextEscapes) {
  std::ostringstream json;
  {
    auto r = MakeAssetsRenderer(AssetsFormat::kJson, "a.json", json);
    ReadFailure f;
    f.code = FindingCode::kJsonSyntax;
    f.line = 1;
    f.column = 2;
    f.reason = "bad";
    r->End(AssetTally{}, f);
  }
  EXPECT_EQ(json.str(),
            R"({"file":"a.json","assets":[],"summary":{"items":0,"ok":0,)"
            R"("mismatch":0,"missing":0,"error":0,"unverifiable":0,)"
            R"("no-hash":0,"warnings":0},"error":{"code":"json-syntax",)"
            R"("message":"bad","line":1,"column":2}})"
            "\n");
  std::ostringstream text;
  {
    auto r = MakeAssetsRenderer(AssetsFormat::kText, "a\x1b.json", text);
    r->End(AssetTally{}, std::nullopt);
  }
  EXPECT_EQ(text.str(),
            "a\\033.json: 0 items: 0 ok, 0 mismatch, 0 missing, 0 error, 0 "
            "unverifiable, 0 no-hash; 0 warnings\n");
}

}  // namespace
}  // namespace pstate::report
