// `pstate graph`: the resources of a state as a typed graph (issue 26 §1).
//
// Nodes are resources, one per URN; edges are the references of
// state::kReferenceFields that Pulumi's dependency graph follows (parent,
// dependencies, propertyDependencies, deletedWith, replaceWith, provider),
// read through state::ForEachReference, so this module has no list of
// reference fields of its own. The graph is read streaming: per resource
// it keeps its URN, type, flags and edges, never the JSON. It is
// deterministic: nodes are sorted by URN and edges by (from, to, kind), so
// the same resources give the same graph whatever order they come in.
//
// report/graph.h renders it as DOT, Mermaid or JSON; the HTML report
// (src/htmlreport/) embeds it.
#ifndef PSTATE_GRAPH_GRAPH_H_
#define PSTATE_GRAPH_GRAPH_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/result.h"
#include "state/resource.h"
#include "state/schema.h"
#include "state/selector.h"

namespace pstate::graph {

/// The kinds of edge: the reference kinds whose field Pulumi's dependency
/// graph follows (state::ReferenceField::dependency): parent,
/// dependencies, propertyDependencies, deletedWith, replaceWith, provider.
using EdgeKind = state::RefKind;
inline constexpr EdgeKind kAllEdgeKinds[] = {EdgeKind::kParent,
                                             EdgeKind::kDependency,
                                             EdgeKind::kPropertyDependency,
                                             EdgeKind::kDeletedWith,
                                             EdgeKind::kReplaceWith,
                                             EdgeKind::kProvider};
// Each is a dependency field, and kAllEdgeKinds[i] is RefKind i (the HTML
// report numbers edge kinds so).
static_assert([] {
  std::size_t i = 0;
  for (EdgeKind kind : kAllEdgeKinds) {
    if (static_cast<std::size_t>(kind) != i ||
        i >= state::kReferenceFields.size() ||
        !state::kReferenceFields[i].dependency) {
      return false;
    }
    ++i;
  }
  return true;
}());

/// A set of edge kinds, one bit per EdgeKind.
using EdgeKinds = std::uint16_t;
inline constexpr EdgeKinds EdgeBit(EdgeKind kind) {
  return static_cast<EdgeKinds>(1U << static_cast<unsigned>(kind));
}
inline constexpr EdgeKinds kEveryEdge = [] {
  EdgeKinds all = 0;
  for (EdgeKind kind : kAllEdgeKinds) all |= EdgeBit(kind);
  return all;
}();
/// What `pstate graph` draws unless --edges says otherwise: parent is
/// drawn as clusters, propertyDependencies repeat dependencies.
inline constexpr EdgeKinds kDefaultEdges =
    EdgeBit(EdgeKind::kDependency) | EdgeBit(EdgeKind::kDeletedWith) |
    EdgeBit(EdgeKind::kReplaceWith) | EdgeBit(EdgeKind::kProvider);

/// The reference field's name ("parent", "dependencies", ...: the name
/// --edges takes and the JSON writes): state::RefKindName.
std::string_view EdgeKindName(EdgeKind kind);
std::optional<EdgeKind> ParseEdgeKind(std::string_view name);
/// `kind` when the graph draws it; nullopt for references the dependency
/// graph ignores (aliases, viewOf, property values).
std::optional<EdgeKind> EdgeKindOf(state::RefKind kind);

enum class Direction : std::uint8_t {
  kUp,    ///< what the focus refers to (its parent, dependencies, provider)
  kDown,  ///< what refers to the focus (children, dependents)
  kBoth,
};

struct Node {
  std::string urn;
  std::string type;  ///< the URN's type (or the type field of a group)
  std::string name;  ///< the URN's name part (for a group: the type)
  bool custom = false;
  bool provider = false;
  /// A component: a resource that is not custom (and not the stack root)
  /// with children in the graph; drawn as a cluster.
  bool component = false;
  /// Named by a reference but absent from the state.
  bool missing = false;
  /// Every resource with this URN is marked for deletion.
  bool deleted = false;
  /// Selected by the focus.
  bool focus = false;
  state::FlagSet flags = 0;
  /// The node of its parent (index into Graph::nodes), or kNone: clusters
  /// are drawn from it whatever edges are chosen.
  std::uint32_t parent = kNone;
  /// With --group type: how many resources the node stands for; else 1.
  std::uint64_t count = 1;
  static constexpr std::uint32_t kNone = 0xFFFFFFFF;
};

struct Edge {
  std::uint32_t from = 0;  ///< the resource holding the reference
  std::uint32_t to = 0;    ///< the resource it names
  EdgeKind kind = EdgeKind::kDependency;
  /// kPropertyDependency: the properties whose lists name `to`, sorted.
  std::vector<std::string> properties;
};

struct Graph {
  std::vector<Node> nodes;  ///< sorted by URN
  std::vector<Edge> edges;  ///< sorted by (from, to, kind)
  EdgeKinds kinds = kDefaultEdges;
  bool grouped = false;
  /// Resources read (before focus and grouping).
  std::uint64_t resources = 0;
};

struct Config {
  std::string path;  ///< "-" reads standard input
  EdgeKinds edges = kDefaultEdges;
  /// Resources to draw the neighbourhood of (empty: the whole state).
  state::Selector focus;
  /// Steps from the focus along the chosen edges (0: the focus alone).
  std::uint32_t depth = 1;
  Direction direction = Direction::kBoth;
  /// Collapse the resources of one type into one node.
  bool group_by_type = false;
};

/// Reads the state and builds its graph. Failures are the reader's
/// (located, as engine::ReadOrExplain reports them).
Result<Graph> Build(const Config& config);

/// The pieces of Build, for callers that read the state themselves (the
/// HTML report): add resources one at a time, then Finish.
class Builder {
 public:
  /// `config` (kept by reference: it must outlive the builder) says which
  /// resources are the focus; its path is not read.
  explicit Builder(const Config& config) : config_(config) {}
  /// Adds one resource (a resource leaf's view; pending operations are not
  /// resources of the graph).
  void Add(const state::ResourceView& view);
  /// The graph of everything added, with the config's edges, focus and
  /// grouping.
  Graph Finish() const;

 private:
  std::uint32_t Intern(std::string_view urn);

  /// Lookups by string_view, without a std::string per lookup.
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const {
      return std::hash<std::string_view>{}(s);
    }
  };
  using Index =
      std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>>;
  struct RawNode {
    const std::string* urn = nullptr;  ///< its key in by_urn_ (stable)
    std::uint32_t parent = Node::kNone;
    bool seen = false, live = false, custom = false, focus = false;
    state::FlagSet flags = 0;
  };
  struct RawEdge {
    std::uint32_t from, to;
    EdgeKind kind;
    std::uint32_t property;  ///< into properties_, or Node::kNone
    bool operator==(const RawEdge&) const = default;
  };
  const Config& config_;
  std::vector<RawNode> nodes_;
  std::vector<RawEdge> edges_;
  std::vector<std::string> properties_;
  Index by_urn_;
  Index by_property_;
  std::uint64_t resources_ = 0;
};

}  // namespace pstate::graph

#endif  // PSTATE_GRAPH_GRAPH_H_
