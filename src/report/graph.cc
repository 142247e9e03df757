#include "report/graph.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/utf8.h"
#include "state/selector.h"

namespace pstate::report {
namespace {

using graph::Edge;
using graph::EdgeKind;
using graph::Graph;
using graph::Node;

constexpr std::uint32_t kNone = Node::kNone;

/// `text` as valid UTF-8 with control characters as spaces, each other
/// character passed to `escape(code point, bytes, out)`.
template <typename Escape>
std::string Clean(std::string_view text, Escape&& escape) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    utf8::Char c = utf8::Decode(text);
    std::string_view bytes = text.substr(0, c.size);
    text.remove_prefix(c.size);
    if (!c.valid) {
      out += "\xEF\xBF\xBD";  // U+FFFD
    } else if (c.code_point < 0x20 || c.code_point == 0x7F ||
               c.code_point == 0x2028 || c.code_point == 0x2029) {
      out += ' ';
    } else {
      escape(c.code_point, bytes, out);
    }
  }
  return out;
}

/// A DOT double-quoted string's content: `"` and `\` escaped (so the
/// label escapes \n, \l, \N ... of Graphviz cannot be formed).
std::string DotText(std::string_view text) {
  return Clean(text, [](char32_t cp, std::string_view bytes, std::string& o) {
    if (cp == '"' || cp == '\\') o += '\\';
    o += bytes;
  });
}

/// A Mermaid quoted label's content: characters Mermaid reads as markup
/// (quotes, <, >, &, #, backticks) as its entity codes ("#35;").
std::string MermaidText(std::string_view text) {
  return Clean(text, [](char32_t cp, std::string_view bytes, std::string& o) {
    switch (cp) {
      case '"':
      case '<':
      case '>':
      case '&':
      case '#':
      case '`':
      case '|':
      case '{':
      case '}':
      case '[':
      case ']':
        o += "#" + std::to_string(static_cast<unsigned>(cp)) + ";";
        break;
      default: o += bytes;
    }
  });
}

std::string FlagsText(state::FlagSet flags) {
  std::string out;
  for (state::Flag f : state::kAllFlags) {
    if ((flags & state::FlagBit(f)) == 0) continue;
    if (!out.empty()) out += ", ";
    out += state::FlagName(f);
  }
  return out;
}

/// The lines of a node's label: type, name, and what is special about it.
std::vector<std::string> LabelLines(const Node& node, bool grouped) {
  std::vector<std::string> lines;
  if (grouped) {
    lines.push_back(node.type);
    lines.push_back(std::to_string(node.count) +
                    (node.count == 1 ? " resource" : " resources"));
    return lines;
  }
  if (!node.type.empty()) lines.push_back(node.type);
  lines.push_back(node.name);
  std::string notes = FlagsText(node.flags);
  if (node.missing) notes = notes.empty() ? "missing" : "missing, " + notes;
  if (!notes.empty()) lines.push_back("[" + notes + "]");
  return lines;
}

std::string EdgeLabel(const Edge& edge) {
  switch (edge.kind) {
    case EdgeKind::kDependency: return "";
    case EdgeKind::kPropertyDependency: {
      std::string out;
      for (const std::string& p : edge.properties) {
        if (!out.empty()) out += ", ";
        out += p;
      }
      return out;
    }
    default: return std::string(graph::EdgeKindName(edge.kind));
  }
}

/// The clusters: a component holds its children (and, below a resource
/// that is not a component, its descendants). Graph guarantees parents
/// form a forest (graph::Builder breaks parent cycles).
struct Clusters {
  /// The component a node is drawn in (itself for a component's own node
  /// it is drawn in its cluster), kNone: the top level.
  std::vector<std::uint32_t> home;
  /// The cluster around a component's cluster.
  std::vector<std::uint32_t> outer;
  /// Members of each cluster and of the top level (last entry).
  std::vector<std::vector<std::uint32_t>> nodes, subclusters;
};

Clusters ClustersOf(const Graph& g, bool enabled) {
  const std::size_t n = g.nodes.size();
  Clusters c;
  c.home.assign(n, kNone);
  c.outer.assign(n, kNone);
  c.nodes.resize(n + 1);
  c.subclusters.resize(n + 1);
  if (enabled) {
    // Parents come in any order: resolve each chain once (memoized).
    std::vector<bool> done(n, false);
    std::vector<std::uint32_t> chain;
    for (std::uint32_t i = 0; i < n; ++i) {
      std::uint32_t at = i;
      while (at != kNone && !done[at]) {
        chain.push_back(at);
        at = g.nodes[at].parent;
      }
      std::uint32_t above = at == kNone ? kNone : c.home[at];
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        c.outer[*it] = above;
        c.home[*it] = g.nodes[*it].component ? *it : above;
        above = c.home[*it];
        done[*it] = true;
      }
      chain.clear();
    }
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t h = c.home[i];
    c.nodes[h == kNone ? n : h].push_back(i);
    if (enabled && g.nodes[i].component) {
      std::uint32_t o = c.outer[i];
      c.subclusters[o == kNone ? n : o].push_back(i);
    }
  }
  return c;
}

/// Walks the clusters depth first without recursion (components nest as
/// deep as the state's parents): enter(cluster, depth) before its nodes
/// and subclusters, node(i, depth) for each node, leave(depth) after.
template <typename Enter, typename NodeFn, typename Leave>
void WalkClusters(const Clusters& c, Enter&& enter, NodeFn&& node,
                  Leave&& leave) {
  const std::uint32_t top = static_cast<std::uint32_t>(c.nodes.size() - 1);
  struct Frame {
    std::uint32_t cluster;
    std::size_t next = 0;
  };
  std::vector<Frame> stack{{top}};
  for (std::uint32_t i : c.nodes[top]) node(i, 0);
  while (!stack.empty()) {
    Frame& f = stack.back();
    const auto& subs = c.subclusters[f.cluster];
    if (f.next == subs.size()) {
      stack.pop_back();
      if (!stack.empty()) leave(stack.size() - 1);
      continue;
    }
    std::uint32_t sub = subs[f.next++];
    enter(sub, stack.size() - 1);
    for (std::uint32_t i : c.nodes[sub]) node(i, stack.size());
    stack.push_back(Frame{sub});
  }
}

std::string Indent(std::size_t depth) {
  return std::string(2 * std::min<std::size_t>(depth + 1, 16), ' ');
}

}  // namespace

void WriteGraphDot(const Graph& g, std::ostream& out) {
  out << "digraph pstate {\n"
         "  graph [rankdir=LR, fontname=\"Helvetica\", fontsize=10];\n"
         "  node [shape=box, style=rounded, fontname=\"Helvetica\", "
         "fontsize=10];\n"
         "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  Clusters clusters = ClustersOf(g, !g.grouped);
  auto label = [&](const Node& node) {
    std::string text;
    for (const std::string& line : LabelLines(node, g.grouped)) {
      if (!text.empty()) text += "\\n";
      text += DotText(line);
    }
    return text;
  };
  auto node = [&](std::uint32_t i, std::size_t depth) {
    const Node& n = g.nodes[i];
    out << Indent(depth) << 'n' << i << " [label=\"" << label(n) << '"';
    if (n.provider) out << ", shape=hexagon";
    if (n.component) out << ", shape=component";
    if (n.missing) out << ", style=dotted, color=gray50";
    if (n.deleted) out << ", style=\"rounded,dashed\"";
    if (n.focus) out << ", penwidth=2";
    out << "];\n";
  };
  auto enter = [&](std::uint32_t c, std::size_t depth) {
    out << Indent(depth) << "subgraph cluster_" << c << " {\n"
        << Indent(depth + 1) << "label=\"" << DotText(g.nodes[c].name)
        << "\";\n"
        << Indent(depth + 1) << "style=\"rounded,dashed\";\n";
  };
  auto leave = [&](std::size_t depth) { out << Indent(depth) << "}\n"; };
  WalkClusters(clusters, enter, node, leave);
  for (const Edge& e : g.edges) {
    out << "  n" << e.from << " -> n" << e.to;
    std::string text = EdgeLabel(e);
    std::vector<std::string> attrs;
    if (!text.empty()) attrs.push_back("label=\"" + DotText(text) + "\"");
    switch (e.kind) {
      case EdgeKind::kParent:
        attrs.emplace_back("style=dotted, arrowhead=odiamond");
        break;
      case EdgeKind::kPropertyDependency:
        attrs.emplace_back("color=gray40");
        break;
      case EdgeKind::kProvider:
        attrs.emplace_back("style=dashed, color=blue");
        break;
      case EdgeKind::kDeletedWith: attrs.emplace_back("color=red"); break;
      case EdgeKind::kReplaceWith: attrs.emplace_back("color=orange"); break;
      default: break;  // kDependency
    }
    if (!attrs.empty()) {
      out << " [";
      for (std::size_t i = 0; i < attrs.size(); ++i) {
        out << (i > 0 ? ", " : "") << attrs[i];
      }
      out << ']';
    }
    out << ";\n";
  }
  out << "}\n";
}

void WriteGraphMermaid(const Graph& g, std::ostream& out) {
  out << "flowchart LR\n";
  Clusters clusters = ClustersOf(g, !g.grouped);
  auto node = [&](std::uint32_t i, std::size_t depth) {
    const Node& n = g.nodes[i];
    std::string text;
    for (const std::string& line : LabelLines(n, g.grouped)) {
      if (!text.empty()) text += "<br>";
      text += MermaidText(line);
    }
    const char* open = n.provider ? "{{\"" : (n.missing ? "([\"" : "[\"");
    const char* close = n.provider ? "\"}}" : (n.missing ? "\"])" : "\"]");
    out << Indent(depth) << 'n' << i << open << text << close << '\n';
  };
  auto enter = [&](std::uint32_t c, std::size_t depth) {
    out << Indent(depth) << "subgraph c" << c << "[\""
        << MermaidText(g.nodes[c].name) << "\"]\n";
  };
  auto leave = [&](std::size_t depth) { out << Indent(depth) << "end\n"; };
  WalkClusters(clusters, enter, node, leave);
  for (const Edge& e : g.edges) {
    const char* arrow = "-->";
    switch (e.kind) {
      case EdgeKind::kParent:
      case EdgeKind::kProvider: arrow = "-.->"; break;
      case EdgeKind::kDeletedWith:
      case EdgeKind::kReplaceWith: arrow = "==>"; break;
      default: break;
    }
    out << "  n" << e.from << ' ' << arrow;
    std::string text = EdgeLabel(e);
    if (!text.empty()) out << "|\"" << MermaidText(text) << "\"|";
    out << " n" << e.to << '\n';
  }
  std::vector<std::uint32_t> focused;
  for (std::uint32_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].focus) focused.push_back(i);
  }
  if (!focused.empty()) {
    out << "  classDef focus stroke-width:3px\n  class ";
    for (std::size_t i = 0; i < focused.size(); ++i) {
      out << (i > 0 ? "," : "") << 'n' << focused[i];
    }
    out << " focus\n";
  }
}

void WriteGraphValue(const Graph& g, json::Writer& w) {
  w.BeginObject();
  w.Name("resources");
  w.Uint(g.resources);
  w.Name("edgeKinds");
  w.BeginArray();
  for (EdgeKind kind : graph::kAllEdgeKinds) {
    if ((g.kinds & graph::EdgeBit(kind)) != 0) {
      w.String(graph::EdgeKindName(kind));
    }
  }
  w.EndArray();
  w.Name("grouped");
  w.Bool(g.grouped);
  w.Name("nodes");
  w.BeginArray();
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    w.BeginObject();
    w.Name("id");
    w.Uint(i);
    if (!g.grouped) {
      w.Name("urn");
      w.String(n.urn);
    }
    w.Name("type");
    w.String(n.type);
    w.Name("name");
    w.String(n.name);
    if (g.grouped) {
      w.Name("count");
      w.Uint(n.count);
    }
    if (n.parent != kNone) {
      w.Name("parent");
      w.Uint(n.parent);
    }
    const std::pair<const char*, bool> bools[] = {
        {"custom", n.custom},       {"provider", n.provider},
        {"component", n.component}, {"missing", n.missing},
        {"deleted", n.deleted},     {"focus", n.focus}};
    for (auto [name, value] : bools) {
      if (!value) continue;
      w.Name(name);
      w.Bool(true);
    }
    if (n.flags != 0) {
      w.Name("flags");
      w.BeginArray();
      for (state::Flag f : state::kAllFlags) {
        if ((n.flags & state::FlagBit(f)) != 0) w.String(state::FlagName(f));
      }
      w.EndArray();
    }
    w.EndObject();
  }
  w.EndArray();
  w.Name("edges");
  w.BeginArray();
  for (const Edge& e : g.edges) {
    w.BeginObject();
    w.Name("from");
    w.Uint(e.from);
    w.Name("to");
    w.Uint(e.to);
    w.Name("kind");
    w.String(graph::EdgeKindName(e.kind));
    if (!e.properties.empty()) {
      w.Name("properties");
      w.BeginArray();
      for (const std::string& p : e.properties) w.String(p);
      w.EndArray();
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void WriteGraphJson(const Graph& g, std::ostream& out) {
  json::StringSink sink(&out);
  json::Writer w(sink, json::Layout::kCompact);
  WriteGraphValue(g, w);
  w.Finish();
  (void)sink.Commit();
  out << '\n';
}

}  // namespace pstate::report
