// pstate graph: resources and their references as DOT, Mermaid or JSON
// (issue 26 §1). The graph is pstate::Graph's; report/graph.h writes it.
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <pstate/pstate.h>

#include "cli/command.h"
#include "cli/count_option.h"
#include "cli/exit_code.h"
#include "cli/input_limits.h"
#include "cli/select_options.h"
#include "report/graph.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

struct GraphFlags {
  std::string path;
  std::string format = "dot";
  std::vector<std::string> edges;
  SelectFlags select;
  std::string focus;
  std::uint32_t depth = 1;
  std::string direction = "both";
  std::string group;
};

int GraphUsage(const std::string& message) { return Fail("graph: " + message); }

int RunGraph(const GraphFlags& f) {
  GraphConfig config;
  if (!f.edges.empty()) {
    config.edges = 0;
    for (const std::string& name : f.edges) {
      if (name == "all") {
        config.edges = kEveryGraphEdge;
      } else if (auto kind = GraphEdgeKindNamed(name)) {
        config.edges |= GraphEdgeBit(*kind);
      } else {
        return GraphUsage("unknown edge kind '" + report::TerminalSafe(name) +
                          "' (parent, dependencies, propertyDependencies, "
                          "deletedWith, replaceWith, provider, all)");
      }
    }
  }
  if (!f.focus.empty() && !f.select.urn.empty()) {
    return GraphUsage("--focus and --urn both give a URN glob; give one");
  }
  SelectFlags select = f.select;
  if (!f.focus.empty()) select.urn = f.focus;
  config.focus = ToSelector(select);
  config.depth = f.depth;
  config.direction = f.direction == "up"     ? GraphDirection::kUp
                     : f.direction == "down" ? GraphDirection::kDown
                                             : GraphDirection::kBoth;
  config.group_by_type = f.group == "type";
  Result<State> state = OpenState(f.path);
  if (!state.ok()) {
    report::PrintError(std::cerr, state.status().message());
    return kExitUnreadable;
  }
  Result<ResourceGraph> g = Graph(*state, config);
  if (!g.ok()) {
    report::PrintError(std::cerr, g.status().message());
    return kExitUnreadable;
  }
  if (f.format == "json") {
    report::WriteGraphJson(*g, std::cout);
  } else if (f.format == "mermaid") {
    report::WriteGraphMermaid(*g, std::cout);
  } else {
    report::WriteGraphDot(*g, std::cout);
  }
  return kExitOk;
}

}  // namespace

std::function<int()> SetupGraph(CLI::App& app) {
  auto f = std::make_shared<GraphFlags>();
  app.add_option("state", f->path, "State to draw (- reads standard input)")
      ->required();
  app.add_option("--format", f->format, "dot, mermaid or json")
      ->check(CLI::IsMember({"dot", "mermaid", "json"}))
      ->capture_default_str();
  app.add_option("--edges", f->edges,
                 "Edge kinds to draw, comma-separated: parent, dependencies, "
                 "propertyDependencies, deletedWith, replaceWith, provider, "
                 "or all (default: dependencies, deletedWith, replaceWith, "
                 "provider; components are drawn as clusters)")
      ->delimiter(',');
  app.add_option("--focus", f->focus,
                 "Draw the neighbourhood of the resources whose URN matches "
                 "GLOB (the ls filters select too)");
  AddSelectOptions(app, f->select);
  app.add_option("--depth", f->depth,
                 "Steps from the selected resources along the drawn edges")
      ->check(NonNegativeCount())
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--direction", f->direction,
                 "up (what they refer to), down (what refers to them) or "
                 "both")
      ->check(CLI::IsMember({"up", "down", "both"}))
      ->capture_default_str();
  app.add_option("--group", f->group,
                 "type: one node for all resources of a type")
      ->check(CLI::IsMember({"type"}));
  return [f] { return RunGraph(*f); };
}

}  // namespace pstate::cli
