// The renderings of `pstate graph` (the API's ResourceGraph): Graphviz DOT,
// Mermaid flowchart and JSON (schema in docs/graph.md). Each is written as it
// goes to a stream. Text from the state only ever appears inside quoted labels,
// escaped for the language (a name with quotes, newlines or "<script>"
// stays text), and is made valid UTF-8 first.
#ifndef PSTATE_REPORT_GRAPH_H_
#define PSTATE_REPORT_GRAPH_H_

#include <ostream>

#include "graph/graph.h"
#include "json/writer.h"

namespace pstate::report {

void WriteGraphDot(const ResourceGraph& graph, std::ostream& out);
void WriteGraphMermaid(const ResourceGraph& graph, std::ostream& out);
void WriteGraphJson(const ResourceGraph& graph, std::ostream& out);
/// The graph as one JSON value at the writer's position (the HTML report
/// embeds it).
void WriteGraphValue(const ResourceGraph& graph, json::Writer& w);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_GRAPH_H_
