#include "report/html.h"

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "diag/codes.h"
#include "diff/differ.h"
#include "graph/graph.h"
#include "inspect/inspect.h"
#include "report/diff.h"
#include "report/findings.h"
#include "report/graph.h"
#include "report/html_assets.h"
#include "state/selector.h"

namespace pstate::report {
namespace {

void WriteTallies(json::Writer& w,
                  const std::map<std::string, inspect::Tally>& m) {
  w.BeginArray();
  for (const auto& [name, tally] : m) {
    w.BeginArray();
    w.String(name);
    w.Uint(tally.count);
    w.Uint(tally.bytes);
    w.EndArray();
  }
  w.EndArray();
}

void WriteSummary(const htmlreport::ReportData& d, json::Writer& w) {
  const inspect::StatsResult& s = d.stats;
  w.BeginObject();
  w.Name("envelope");
  w.String(s.envelope);
  if (s.version) {
    w.Name("version");
    w.Int(*s.version);
  }
  w.Name("features");
  w.BeginArray();
  for (const std::string& f : s.features) w.String(f);
  w.EndArray();
  w.Name("resources");
  w.Uint(s.resources.count);
  w.Name("bytes");
  w.Uint(s.resources.bytes);
  w.Name("types");
  w.Uint(s.by_type.size());
  w.Name("byPackage");
  WriteTallies(w, s.by_package);
  w.Name("byType");
  WriteTallies(w, s.by_type);
  w.Name("byProvider");
  WriteTallies(w, s.by_provider);
  w.Name("flags");
  w.BeginObject();
  for (const auto& [name, n] : s.flags) {
    w.Name(name);
    w.Uint(n);
  }
  w.EndObject();
  w.Name("secretsProvider");
  w.String(s.secrets_provider);
  w.Name("secrets");
  w.Uint(s.secrets);
  w.Name("assets");
  w.Uint(s.assets);
  w.Name("archives");
  w.Uint(s.archives);
  w.Name("pending");
  w.BeginObject();
  for (const auto& [name, n] : s.pending) {
    w.Name(name);
    w.Uint(n);
  }
  w.EndObject();
  w.Name("stacks");
  w.Uint(s.stacks);
  w.Name("projects");
  w.Uint(s.projects);
  w.Name("largest");
  w.BeginArray();
  for (const auto& [bytes, urn] : s.largest) {
    w.BeginArray();
    w.Uint(bytes);
    w.String(urn);
    w.EndArray();
  }
  w.EndArray();
  w.EndObject();
}

/// Verify's JSON (report/findings.h) and, for each code it names, the
/// code's summary: the explanation the page shows.
void WriteFindings(const Findings& r, json::Writer& w) {
  w.BeginObject();
  w.Name("report");
  WriteReportJson(r, w);
  w.Name("explanations");
  w.BeginObject();
  const FindingCounts& s = r;
  for (std::size_t i = 0; i < s.by_code.size(); ++i) {
    if (s.by_code[i] == 0) continue;
    const diag::CodeInfo& info = diag::Info(static_cast<diag::Code>(i));
    w.Name(info.name);
    w.String(info.summary);
  }
  w.EndObject();
  w.EndObject();
}

state::FlagSet FlagsOf(const inspect::ResourceRow& row) {
  state::FlagSet out = 0;
  for (state::Flag f : row.flags) out |= state::FlagBit(f);
  return out;
}

}  // namespace

void WriteHtmlReportData(const htmlreport::ReportData& d, json::Writer& w) {
  w.BeginObject();
  w.Name("schema");
  w.Uint(1);
  w.Name("file");
  w.String(d.file);
  w.Name("summary");
  WriteSummary(d, w);
  w.Name("findings");
  WriteFindings(d.findings, w);
  // Each type's bytes by section, as `stats` splits them: [inputs,
  // outputs, dependencies, propertyDependencies, other] (they add up to
  // the type's bytes).
  w.Name("sectionsByType");
  w.BeginObject();
  for (const auto& [type, sec] : d.sections_by_type) {
    w.Name(type);
    w.BeginArray();
    for (std::uint64_t n : {sec.inputs, sec.outputs, sec.dependencies,
                            sec.property_dependencies, sec.other}) {
      w.Uint(n);
    }
    w.EndArray();
  }
  w.EndObject();
  w.Name("flagNames");
  w.BeginArray();
  for (state::Flag f : state::kAllFlags) w.String(state::FlagName(f));
  w.EndArray();
  // Rows as arrays (the page is about as big as its data): [urn, type
  // (index into "types"), id, tree parent row or -1, flags (bits of
  // flagNames), bytes, custom].
  std::vector<std::string_view> types;
  std::unordered_map<std::string_view, std::size_t> type_index;
  for (const inspect::ResourceRow& row : d.rows) {
    if (type_index.try_emplace(row.type, types.size()).second) {
      types.push_back(row.type);
    }
  }
  w.Name("types");
  w.BeginArray();
  for (std::string_view t : types) w.String(t);
  w.EndArray();
  w.Name("rows");
  w.BeginArray();
  for (std::size_t i = 0; i < d.rows.size(); ++i) {
    const inspect::ResourceRow& row = d.rows[i];
    w.BeginArray();
    w.String(row.urn);
    w.Uint(type_index[row.type]);
    w.String(row.id);
    std::uint32_t parent = d.tree_parent[i];
    w.Int(parent == htmlreport::ReportData::kNoParent ? -1
                                                      : std::int64_t{parent});
    w.Uint(FlagsOf(row));
    w.Uint(row.bytes);
    w.Uint(row.custom ? 1 : 0);
    w.EndArray();
  }
  w.EndArray();
  // The graph by row: a node is the first row with its URN; resources only
  // named by references are listed in "missing" and numbered after the
  // rows. Edges are [from, to, kind (index into edgeKinds)].
  std::unordered_map<std::string_view, std::size_t> row_of;
  for (std::size_t i = 0; i < d.rows.size(); ++i) {
    row_of.try_emplace(d.rows[i].urn, i);
  }
  std::vector<std::size_t> node_id(d.graph.nodes.size());
  std::vector<std::string_view> missing;
  for (std::size_t i = 0; i < d.graph.nodes.size(); ++i) {
    auto it = row_of.find(d.graph.nodes[i].urn);
    if (it != row_of.end()) {
      node_id[i] = it->second;
    } else {
      node_id[i] = d.rows.size() + missing.size();
      missing.push_back(d.graph.nodes[i].urn);
    }
  }
  w.Name("missing");
  w.BeginArray();
  for (std::string_view urn : missing) w.String(urn);
  w.EndArray();
  w.Name("edgeKinds");
  w.BeginArray();
  for (graph::EdgeKind kind : graph::kAllEdgeKinds) {
    w.String(graph::EdgeKindName(kind));
  }
  w.EndArray();
  w.Name("edges");
  w.BeginArray();
  for (const graph::Edge& e : d.graph.edges) {
    w.BeginArray();
    w.Uint(node_id[e.from]);
    w.Uint(node_id[e.to]);
    w.Uint(static_cast<unsigned>(e.kind));
    w.EndArray();
  }
  w.EndArray();
  if (d.diff) {
    w.Name("diff");
    w.BeginObject();
    w.Name("before");
    w.String(d.file);
    w.Name("after");
    w.String(d.after_file);
    // diff's typed result: each resource's changes as diff's JSON has
    // them (WriteChangesJson renders the values, a hidden secret as
    // "[secret]"); of the changes outside the resources only which field
    // changed how (their values, pending operations among them, may hold
    // ciphertexts).
    const DiffResult& r = *d.diff;
    w.Name("resources");
    w.BeginArray();
    for (const diff::ResourceEntry& e : r.resources) {
      w.BeginObject();
      w.Name("change");
      w.String(diff::ResourceChangeKindName(e.kind));
      w.Name("urn");
      w.String(e.urn);
      if (!e.from.empty()) {
        w.Name("from");
        w.String(e.from);
      }
      w.Name("type");
      w.String(e.type);
      WriteChangesJson(e, w);
      w.EndObject();
    }
    w.EndArray();
    w.Name("envelope");
    w.BeginArray();
    for (const diff::EnvelopeEntry& e : r.envelope) {
      w.BeginObject();
      w.Name("field");
      w.String(e.field);
      w.Name("kind");
      w.String(diff::ChangeKindName(e.kind));
      w.EndObject();
    }
    w.EndArray();
    const diff::DiffSummary& s = r.summary;
    const std::pair<const char*, std::uint64_t> counts[] = {
        {"before_resources", s.before_resources},
        {"after_resources", s.after_resources},
        {"added", s.added},
        {"removed", s.removed},
        {"renamed", s.renamed},
        {"changed", s.changed},
        {"order_only", s.order_only},
        {"order_broken", s.order_broken},
        {"unchanged", s.unchanged},
        {"envelope", s.envelope}};
    w.Name("summary");
    w.BeginObject();
    for (auto [name, n] : counts) {
      w.Name(name);
      w.Uint(n);
    }
    w.EndObject();
    w.EndObject();
  }
  w.EndObject();
}

void WriteHtmlReport(const htmlreport::ReportData& d, io::Output& out) {
  out.Write(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
      "'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
      "img-src data:\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\">\n<title>pstate report</title>\n<style>\n");
  out.Write(html_assets::kStyle);
  out.Write("</style>\n</head>\n<body>\n");
  out.Write(html_assets::kBody);
  out.Write("<script id=\"pstate-data\" type=\"application/json\">");
  {
    json::Writer w(out, json::Layout::kCompact, json::EscapeStyle::kHtmlSafe);
    WriteHtmlReportData(d, w);
  }
  out.Write("</script>\n<script>\n");
  out.Write(html_assets::kDagre);
  out.Write("\n</script>\n<script>\n");
  out.Write(html_assets::kHierarchy);
  out.Write("\n</script>\n<script>\n");
  out.Write(html_assets::kApp);
  out.Write(
      "\n</script>\n<script id=\"pstate-licenses\" type=\"text/plain\">\n");
  out.Write(html_assets::kLicenses);
  out.Write("</script>\n</body>\n</html>\n");
}

Status WriteHtmlReportFile(const HtmlReportModel& model,
                           const std::string& path) {
  auto out = io::OpenOutput(path);
  if (!out.ok()) return out.status();
  WriteHtmlReport(model, **out);
  return (*out)->Commit();
}

}  // namespace pstate::report
