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

/// The kinds of edge (the API's): the reference kinds whose field Pulumi's
/// dependency graph follows (state::ReferenceField::dependency): parent,
/// dependencies, propertyDependencies, deletedWith, replaceWith, provider.
using EdgeKind = ::pstate::GraphEdgeKind;
inline constexpr auto& kAllEdgeKinds = ::pstate::kGraphEdgeKinds;
// Each is a dependency field, and kAllEdgeKinds[i] is EdgeKind i and
// RefKind i (the HTML report numbers edge kinds so; EdgeKindOf converts).
static_assert([] {
  std::size_t i = 0;
  for (EdgeKind kind : kAllEdgeKinds) {
    if (static_cast<std::size_t>(kind) != i ||
        i >= state::kReferenceFields.size() ||
        static_cast<std::size_t>(state::kReferenceFields[i].kind) != i ||
        !state::kReferenceFields[i].dependency) {
      return false;
    }
    ++i;
  }
  return true;
}());

/// A set of edge kinds, one bit per EdgeKind.
using EdgeKinds = ::pstate::GraphEdgeKinds;
inline constexpr EdgeKinds EdgeBit(EdgeKind kind) {
  return ::pstate::GraphEdgeBit(kind);
}
inline constexpr EdgeKinds kEveryEdge = ::pstate::kEveryGraphEdge;
static_assert(kEveryEdge == [] {
  EdgeKinds all = 0;
  for (EdgeKind kind : kAllEdgeKinds) all |= EdgeBit(kind);
  return all;
}());
/// What `pstate graph` draws unless --edges says otherwise.
inline constexpr EdgeKinds kDefaultEdges = ::pstate::kDefaultGraphEdges;

/// The reference field's name ("parent", "dependencies", ...: the name
/// --edges takes and the JSON writes): state::RefKindName.
std::string_view EdgeKindName(EdgeKind kind);
std::optional<EdgeKind> ParseEdgeKind(std::string_view name);
/// `kind` when the graph draws it; nullopt for references the dependency
/// graph ignores (aliases, viewOf, property values).
std::optional<EdgeKind> EdgeKindOf(state::RefKind kind);

/// The API's (pstate/pstate.h).
using Direction = ::pstate::GraphDirection;
using Node = ::pstate::GraphNode;
using Edge = ::pstate::GraphEdge;
using Graph = ::pstate::ResourceGraph;

static_assert(sizeof(state::FlagSet) == sizeof(Node::flags));

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
