#include "htmlreport/htmlreport.h"

#include <utility>

#include "diag/report.h"
#include "diff/differ.h"
#include "graph/graph.h"
#include "inspect/inspect.h"
#include "verify/run.h"

namespace pstate::htmlreport {

Result<ReportData> Collect(const Config& config) {
  if (config.path == "-" || config.after == "-") {
    return Status(Errc::kInvalidArgument,
                  "report reads a state once per view: give a file, not "
                  "standard input");
  }
  ReportData data;
  data.file = config.path;
  // Stats first: it reads the whole state, so an unreadable one fails here
  // with its located message before anything else is done.
  inspect::StatsConfig stats_config;
  stats_config.path = config.path;
  stats_config.top = config.top;
  inspect::SizeStats sizes;
  auto stats = inspect::Stats(stats_config, &sizes);
  if (!stats.ok()) return stats.status();
  data.stats = std::move(*stats);
  data.sections_by_type = std::move(sizes.by_type);

  inspect::ListConfig list;
  list.path = config.path;
  Status listed = inspect::List(
      list,
      [&](const inspect::ResourceRow& row) {
        data.rows.push_back(row);
        return true;
      },
      [](const inspect::PendingRow&) { return true; });
  if (!listed.ok()) return listed;

  auto tree = inspect::Tree(config.path);
  if (!tree.ok()) return tree.status();
  data.tree_parent.assign(data.rows.size(), ReportData::kNoParent);
  for (std::size_t i = 0; i < tree->size() && i < data.rows.size(); ++i) {
    for (std::uint32_t child : tree->children(i)) {
      if (child < data.tree_parent.size()) {
        data.tree_parent[child] = static_cast<std::uint32_t>(i);
      }
    }
  }

  diag::Report findings(config.path, config.max_findings);
  verify::VerifyInput(config.path, verify::Config{}, findings);
  findings.SortByLocation();
  data.findings = std::move(findings).Take();

  graph::Config g;
  g.path = config.path;
  g.edges = graph::kEveryEdge;
  auto built = graph::Build(g);
  if (!built.ok()) return built.status();
  data.graph = std::move(*built);

  if (!config.after.empty()) {
    diff::DiffConfig d;
    d.before = config.path;
    d.after = config.after;
    d.passphrase = config.passphrase;
    d.show_secrets = false;
    auto result = diff::Run(d);
    if (!result.ok()) return result.status();
    data.after_file = config.after;
    // Only what was read; how it was read is not the page's.
    data.diff = std::move(static_cast<DiffResult&>(*result));
  }
  return data;
}

}  // namespace pstate::htmlreport
