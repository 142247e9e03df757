#include "graph/graph.h"

#include <algorithm>
#include <deque>
#include <map>
#include <numeric>
#include <tuple>
#include <utility>

#include "engine/executor.h"
#include "io/input.h"
#include "state/reader.h"
#include "state/urn.h"

namespace pstate::graph {
namespace {

constexpr std::uint32_t kNone = Node::kNone;

/// Reads resource leaves into a Builder.
class Reader : public state::Handler {
 public:
  explicit Reader(Builder& builder) : builder_(builder) {}
  Result<state::Flow> OnLeaf(state::Leaf& leaf, state::Context&) override {
    if (leaf.role == state::Role::kResource) {
      builder_.Add(state::ResourceView::Of(leaf.value));
    }
    return state::Flow::kContinue;
  }

 private:
  Builder& builder_;
};

bool IsFocused(const Config& config) { return !config.focus.empty(); }

}  // namespace

std::string_view EdgeKindName(EdgeKind kind) {
  return state::RefKindName(static_cast<state::RefKind>(kind));
}

std::optional<EdgeKind> ParseEdgeKind(std::string_view name) {
  const state::ReferenceField* f = state::FindReferenceField(name);
  if (f == nullptr) return std::nullopt;
  return EdgeKindOf(f->kind);
}

std::optional<EdgeKind> EdgeKindOf(state::RefKind kind) {
  const state::ReferenceField* f = state::ReferenceFieldOf(kind);
  if (f == nullptr || !f->dependency) return std::nullopt;
  return static_cast<EdgeKind>(kind);  // numbered alike (graph.h)
}

std::uint32_t Builder::Intern(std::string_view urn) {
  if (auto it = by_urn_.find(urn); it != by_urn_.end()) return it->second;
  auto n = static_cast<std::uint32_t>(nodes_.size());
  auto it = by_urn_.emplace(std::string(urn), n).first;
  nodes_.push_back(RawNode{.urn = &it->first});
  return n;
}

void Builder::Add(const state::ResourceView& view) {
  ++resources_;
  std::string urn_scratch;
  std::string_view urn = state::ResourceView::View(view.urn, &urn_scratch);
  if (urn.empty()) return;  // verify reports it; there is nothing to draw
  const std::uint32_t self = Intern(urn);
  const bool live = !state::ResourceView::Flag(view.del);
  const state::FlagSet flags = state::ToFlagSet(view.Flags());
  // Duplicates (a live resource and its pending delete) are one node:
  // flags merge; the parent is the live copy's (the first one's if none).
  RawNode& node = nodes_[self];
  const bool take_parent = !node.seen || (live && !node.live);
  if (take_parent) node.parent = kNone;
  node.custom = node.custom || state::ResourceView::Flag(view.custom);
  node.flags |= flags;
  node.seen = true;
  node.live = node.live || live;
  std::string scratch;
  std::string key_scratch;
  std::string provider_scratch;
  std::string_view provider_text =
      state::ResourceView::View(view.provider, &provider_scratch);
  if (!nodes_[self].focus && IsFocused(config_)) {
    std::string parent_scratch;
    std::string type_scratch;
    state::Selectable subject{
        urn, state::ResourceView::View(view.type, &type_scratch),
        state::ResourceView::View(view.parent, &parent_scratch), provider_text,
        flags};
    nodes_[self].focus = config_.focus.Matches(subject);
  }
  state::ForEachReference(view, [&](const state::ReferenceTarget& ref) {
    std::optional<EdgeKind> kind = EdgeKindOf(ref.field.kind);
    if (!kind || !ref.value.is_string()) return;
    std::string_view target = state::ResourceView::View(&ref.value, &scratch);
    if (*kind == EdgeKind::kProvider) {
      std::string_view why;
      auto parsed = state::ParseProviderReference(target, &why);
      if (!parsed) return;  // verify reports a malformed reference
      target = parsed->urn;
    }
    if (target.empty() || target == urn) return;
    const std::uint32_t to = Intern(target);
    if (*kind == EdgeKind::kParent && take_parent) nodes_[self].parent = to;
    std::uint32_t property = kNone;
    if (ref.group != nullptr) {
      std::string_view key =
          state::ResourceView::View(&ref.group->key, &key_scratch);
      auto it = by_property_.find(key);
      if (it == by_property_.end()) {
        it = by_property_
                 .emplace(std::string(key),
                          static_cast<std::uint32_t>(properties_.size()))
                 .first;
        properties_.push_back(it->first);
      }
      property = it->second;
    }
    edges_.push_back(RawEdge{self, to, *kind, property});
  });
}

Graph Builder::Finish() const {
  const Config& config = config_;
  const std::size_t n = nodes_.size();
  // Sorted by URN: the order of the output, whatever the input's.
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0U);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return *nodes_[a].urn < *nodes_[b].urn;
  });
  std::vector<std::uint32_t> rank(n);
  for (std::uint32_t i = 0; i < n; ++i) rank[order[i]] = i;

  // Edges of the chosen kinds, by rank, sorted and merged.
  struct Keyed {
    std::uint32_t from, to;
    EdgeKind kind;
    std::string_view property;
  };
  std::vector<Keyed> keyed;
  for (const RawEdge& e : edges_) {
    if ((config.edges & EdgeBit(e.kind)) == 0) continue;
    keyed.push_back(Keyed{rank[e.from], rank[e.to], e.kind,
                          e.property == kNone
                              ? std::string_view()
                              : std::string_view(properties_[e.property])});
  }
  auto key = [](const Keyed& k) {
    return std::tuple(k.from, k.to, static_cast<int>(k.kind), k.property);
  };
  std::sort(keyed.begin(), keyed.end(),
            [&](const Keyed& a, const Keyed& b) { return key(a) < key(b); });

  // Which nodes stay: everything, or the focus and its neighbourhood.
  std::vector<bool> keep(n, !IsFocused(config));
  if (IsFocused(config)) {
    std::vector<std::vector<std::uint32_t>> up(n), down(n);
    for (const Keyed& k : keyed) {
      up[k.from].push_back(k.to);
      down[k.to].push_back(k.from);
    }
    std::vector<std::uint32_t> distance(n, kNone);
    std::deque<std::uint32_t> queue;
    for (std::uint32_t r = 0; r < n; ++r) {
      if (nodes_[order[r]].focus) {
        distance[r] = 0;
        queue.push_back(r);
      }
    }
    while (!queue.empty()) {
      std::uint32_t r = queue.front();
      queue.pop_front();
      if (distance[r] >= config.depth) continue;
      auto visit = [&](const std::vector<std::uint32_t>& next) {
        for (std::uint32_t m : next) {
          if (distance[m] != kNone) continue;
          distance[m] = distance[r] + 1;
          queue.push_back(m);
        }
      };
      if (config.direction != Direction::kDown) visit(up[r]);
      if (config.direction != Direction::kUp) visit(down[r]);
    }
    for (std::uint32_t r = 0; r < n; ++r) keep[r] = distance[r] != kNone;
  }
  // A resource named by a reference but absent stays only while an edge
  // of the graph names it.
  std::vector<bool> referenced(n, false);
  for (const Keyed& k : keyed) {
    if (keep[k.from] && keep[k.to])
      referenced[k.from] = referenced[k.to] = true;
  }
  for (std::uint32_t r = 0; r < n; ++r) {
    if (keep[r] && !nodes_[order[r]].seen && !referenced[r]) keep[r] = false;
  }

  Graph g;
  g.kinds = config.edges;
  g.resources = resources_;
  std::vector<std::uint32_t> index(n, kNone);
  for (std::uint32_t r = 0; r < n; ++r) {
    if (!keep[r]) continue;
    const RawNode& raw = nodes_[order[r]];
    index[r] = static_cast<std::uint32_t>(g.nodes.size());
    Node node;
    node.urn = *raw.urn;
    if (auto urn = state::ParseUrn(*raw.urn)) {
      node.type = std::string(urn->type());
      node.name = std::string(urn->name);
    } else {
      node.name = *raw.urn;
    }
    node.custom = raw.custom;
    node.provider = state::IsProviderType(node.type);
    node.missing = !raw.seen;
    node.deleted = raw.seen && !raw.live;
    node.focus = raw.focus;
    node.flags = raw.flags;
    g.nodes.push_back(std::move(node));
  }
  for (std::uint32_t r = 0; r < n; ++r) {
    if (index[r] == kNone) continue;
    std::uint32_t p = nodes_[order[r]].parent;
    if (p == kNone) continue;
    std::uint32_t pi = index[rank[p]];
    if (pi == kNone || g.nodes[pi].missing) continue;
    g.nodes[index[r]].parent = pi;
  }
  // Parents form a forest: a member of a parent cycle loses its parent
  // (tree shows such resources as roots too).
  {
    enum : std::uint8_t { kNew, kOnPath, kDone };
    std::vector<std::uint8_t> mark(g.nodes.size(), kNew);
    std::vector<std::uint32_t> path;
    for (std::uint32_t i = 0; i < g.nodes.size(); ++i) {
      std::uint32_t at = i;
      while (at != kNone && mark[at] == kNew) {
        mark[at] = kOnPath;
        path.push_back(at);
        at = g.nodes[at].parent;
      }
      if (at != kNone && mark[at] == kOnPath)
        g.nodes[path.back()].parent = kNone;
      for (std::uint32_t p : path) mark[p] = kDone;
      path.clear();
    }
  }
  for (const Node& node : g.nodes) {
    if (node.parent == kNone) continue;
    Node& parent = g.nodes[node.parent];
    parent.component = !parent.custom && parent.type != state::kRootStackType;
  }
  for (const Keyed& k : keyed) {
    std::uint32_t from = index[k.from], to = index[k.to];
    if (from == kNone || to == kNone) continue;
    if (!g.edges.empty() && g.edges.back().from == from &&
        g.edges.back().to == to && g.edges.back().kind == k.kind) {
      if (!k.property.empty()) {
        g.edges.back().properties.emplace_back(k.property);
      }
      continue;
    }
    Edge e{from, to, k.kind, {}};
    if (!k.property.empty()) e.properties.emplace_back(k.property);
    g.edges.push_back(std::move(e));
  }
  for (Edge& e : g.edges) {
    e.properties.erase(std::unique(e.properties.begin(), e.properties.end()),
                       e.properties.end());
  }
  if (!config.group_by_type) return g;

  // One node per type, sorted by type; edges between types, merged.
  Graph grouped;
  grouped.kinds = g.kinds;
  grouped.resources = g.resources;
  grouped.grouped = true;
  std::map<std::string, std::uint32_t> by_type;
  for (const Node& node : g.nodes) by_type.emplace(node.type, 0);
  for (auto& [type, i] : by_type) {
    i = static_cast<std::uint32_t>(grouped.nodes.size());
    Node node;
    node.type = type;
    node.name = type;
    node.count = 0;
    grouped.nodes.push_back(std::move(node));
  }
  std::vector<std::uint32_t> group_of(g.nodes.size());
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& node = g.nodes[i];
    group_of[i] = by_type[node.type];
    Node& group = grouped.nodes[group_of[i]];
    group.count += 1;
    group.custom = group.custom || node.custom;
    group.provider = group.provider || node.provider;
    group.missing =
        group.count == 1 ? node.missing : group.missing && node.missing;
    group.deleted =
        group.count == 1 ? node.deleted : group.deleted && node.deleted;
    group.focus = group.focus || node.focus;
    group.flags |= node.flags;
  }
  std::map<std::tuple<std::uint32_t, std::uint32_t, int>,
           std::vector<std::string>>
      merged;
  for (const Edge& e : g.edges) {
    std::uint32_t from = group_of[e.from], to = group_of[e.to];
    if (from == to) continue;
    auto& props = merged[{from, to, static_cast<int>(e.kind)}];
    props.insert(props.end(), e.properties.begin(), e.properties.end());
  }
  for (auto& [k, props] : merged) {
    std::sort(props.begin(), props.end());
    props.erase(std::unique(props.begin(), props.end()), props.end());
    grouped.edges.push_back(Edge{std::get<0>(k), std::get<1>(k),
                                 static_cast<EdgeKind>(std::get<2>(k)),
                                 std::move(props)});
  }
  return grouped;
}

Result<Graph> Build(const Config& config) {
  auto input = io::OpenInput(config.path);
  if (!input.ok()) return input.status();
  Builder builder(config);
  Reader reader(builder);
  if (Status s =
          engine::ReadOrExplain(**input, io::InputName(config.path), reader);
      !s.ok()) {
    return s;
  }
  return builder.Finish();
}

}  // namespace pstate::graph
