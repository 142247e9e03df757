#include "inspect/inspect.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <queue>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "base/ascii.h"
#include "base/glob.h"
#include "diff/differ.h"
#include "diff/index.h"
#include "diff/resource_diff.h"
#include "io/input.h"
#include "io/spool.h"
#include "json/compact.h"
#include "json/equal.h"
#include "state/property.h"
#include "state/provider.h"
#include "state/reader.h"
#include "state/resource.h"
#include "state/urn.h"

namespace pstate::inspect {
namespace {

ResourceRow RowOf(const json::Value& resource, std::size_t index,
                  std::uint64_t bytes) {
  state::ResourceView v = state::ResourceView::Of(resource);
  ResourceRow row;
  row.index = index;
  row.urn = v.Urn();
  row.type = v.Type();
  row.id = v.Id();
  if (auto urn = state::ParseUrn(row.urn)) row.name = std::string(urn->name);
  row.parent =
      v.parent != nullptr && v.parent->is_string() ? v.parent->Str() : "";
  row.provider =
      v.provider != nullptr && v.provider->is_string() ? v.provider->Str() : "";
  row.custom = state::ResourceView::Flag(v.custom);
  const std::pair<Flag, const json::Value*> flags[] = {
      {Flag::kProtect, v.protect},
      {Flag::kTaint, v.taint},
      {Flag::kDelete, v.del},
      {Flag::kExternal, v.external},
      {Flag::kPendingReplacement, v.pending_replacement},
      {Flag::kRetainOnDelete, v.retain_on_delete}};
  for (auto [flag, field] : flags) {
    if (state::ResourceView::Flag(field)) row.flags.push_back(flag);
  }
  row.bytes = bytes;
  return row;
}

Status ReadPath(const std::string& path, state::Handler& handler,
                const Progress& on_progress = {}) {
  auto input = io::OpenInput(path);
  if (!input.ok()) return input.status();
  return diff::ReadOrExplain(**input, path == "-" ? "<stdin>" : path, handler,
                             on_progress);
}

/// Calls `f` on each leaf, through a Handler.
class FnHandler : public state::Handler {
 public:
  explicit FnHandler(std::function<Result<state::Flow>(state::Leaf&)> f)
      : f_(std::move(f)) {}
  Result<state::Flow> OnLeaf(state::Leaf& leaf, state::Context&) override {
    return f_(leaf);
  }

 private:
  std::function<Result<state::Flow>(state::Leaf&)> f_;
};

std::vector<std::string> Strings(const json::Value* v) {
  std::vector<std::string> out;
  if (v == nullptr || !v->is_array()) return out;
  for (const json::Value& e : v->array()) {
    if (e.is_string()) out.push_back(e.Str());
  }
  return out;
}

}  // namespace

// ---- ls
// -----------------------------------------------------------------------

Status List(const ListConfig& config,
            const std::function<bool(const ResourceRow&)>& on_row,
            const std::function<bool(const PendingRow&)>& on_pending) {
  FnHandler handler([&](state::Leaf& leaf) -> Result<state::Flow> {
    if (config.pending) {
      if (leaf.role != state::Role::kPendingOperation) {
        return state::Flow::kContinue;
      }
      PendingRow row;
      row.index = leaf.index;
      const json::Value* type = leaf.value.Find("type");
      if (type != nullptr && type->is_string()) row.operation = type->Str();
      if (const json::Value* r = state::ResourceOf(leaf)) {
        state::ResourceView v = state::ResourceView::Of(*r);
        row.urn = v.Urn();
        row.type = v.Type();
        row.id = v.Id();
      }
      return on_pending(row) ? state::Flow::kContinue : state::Flow::kStop;
    }
    if (leaf.role != state::Role::kResource) return state::Flow::kContinue;
    ResourceRow row =
        RowOf(leaf.value, leaf.index, leaf.end_offset - leaf.value.offset);
    state::Selectable subject{row.urn, row.type, row.parent, row.provider};
    for (Flag f : row.flags) subject.flags |= state::FlagBit(f);
    if (!config.Matches(subject)) return state::Flow::kContinue;
    return on_row(row) ? state::Flow::kContinue : state::Flow::kStop;
  });
  return ReadPath(config.path, handler, config.on_progress);
}

// ---- show
// ---------------------------------------------------------------------

Result<ShowResult> Show(const ShowConfig& config) {
  ShowResult result;
  std::optional<json::Document> target;  // the live copy, once found
  bool target_live = false;
  std::size_t copies = 0;
  json::Arena arena;
  std::optional<json::Value> secrets_providers;
  std::string target_urn = config.urn;
  // With --index the URN is known only when the index is reached, but
  // references to the resource can come before it: a first pass finds the
  // URN (and stops there), so the second keeps only the references to it,
  // never every resource's. Standard input and compressed files are
  // decoded once into a spool file for the two passes (io/spool.h).
  std::optional<io::Replayable> replay;
  const std::string name = config.path == "-" ? "<stdin>" : config.path;
  if (config.index) {
    auto input = io::OpenReplayable(config.path, io::SpoolOptions{});
    if (!input.ok()) return input.status();
    replay.emplace(std::move(input).value());
    bool found = false;
    FnHandler find([&](state::Leaf& leaf) -> Result<state::Flow> {
      if (leaf.role != state::Role::kResource || leaf.index != *config.index) {
        return state::Flow::kContinue;
      }
      target_urn = state::ResourceView::Of(leaf.value).Urn();
      found = true;
      return state::Flow::kStop;
    });
    auto stream = replay->Open();
    if (!stream.ok()) return stream.status();
    if (Status s = diff::ReadOrExplain(**stream, name, find); !s.ok()) {
      return s;
    }
    if (!found) {
      return Status(Errc::kNotFound,
                    "no resource at index " + std::to_string(*config.index));
    }
  }
  // The pass: the target, its copies, and who refers to its URN (URN,
  // referrer, field).
  std::vector<std::tuple<std::string, std::string, std::string>> pending;
  FnHandler handler([&](state::Leaf& leaf) -> Result<state::Flow> {
    if (leaf.role == state::Role::kSecretsProviders) {
      secrets_providers = json::Clone(leaf.value, arena);
      return state::Flow::kContinue;
    }
    if (leaf.role != state::Role::kResource) return state::Flow::kContinue;
    state::ResourceView v = state::ResourceView::Of(leaf.value);
    std::string urn = v.Urn();
    bool is_target =
        config.index ? leaf.index == *config.index : urn == config.urn;
    if (is_target || (!target_urn.empty() && urn == target_urn)) {
      ++copies;
      bool live = !state::ResourceView::Flag(v.del);
      // --index shows the copy at the index; a URN, the live copy.
      if (config.index ? is_target : (!target || (live && !target_live))) {
        auto doc = json::Document::Parse(json::ToCompactJson(leaf.value));
        if (!doc.ok()) return doc.status();
        target.emplace(std::move(doc).value());
        target_live = live;
        result.row =
            RowOf(leaf.value, leaf.index, leaf.end_offset - leaf.value.offset);
      }
    }
    // Who this resource refers to: the references Pulumi's graph follows.
    state::ForEachReference(v, [&](const state::ReferenceTarget& t) {
      if (!t.field.dependency || !t.value.is_string()) return;
      std::string to = t.value.Str();
      if (t.field.shape == state::RefShape::kProviderReference) {
        std::string_view why;
        auto ref = state::ParseProviderReference(to, &why);
        if (!ref) return;
        to = std::string(ref->urn);
      }
      if (to == urn) return;
      if (to != target_urn) return;
      pending.emplace_back(to, urn, std::string(t.field.name));
    });
    return state::Flow::kContinue;
  });
  if (replay) {
    auto stream = replay->Open();
    if (!stream.ok()) return stream.status();
    if (Status s = diff::ReadOrExplain(**stream, name, handler); !s.ok()) {
      return s;
    }
  } else if (Status s = ReadPath(config.path, handler); !s.ok()) {
    return s;
  }
  if (!target) {
    return Status(Errc::kNotFound,
                  config.index
                      ? "no resource at index " + std::to_string(*config.index)
                      : "no resource with URN " + config.urn);
  }
  result.copies = copies;
  std::set<std::pair<std::string, std::string>> seen;
  for (auto& [to, from, via] : pending) {
    if (to != target_urn || !seen.emplace(from, via).second) continue;
    result.dependents.push_back({from, via});
  }
  state::ResourceView v = state::ResourceView::Of(target->root());
  result.dependencies = Strings(v.dependencies);
  if (v.property_dependencies != nullptr &&
      v.property_dependencies->is_object()) {
    for (const json::Member& m : v.property_dependencies->object()) {
      result.property_dependencies[m.key.Str()] = Strings(&m.value);
    }
  }
  if (v.deleted_with != nullptr && v.deleted_with->is_string()) {
    result.deleted_with = v.deleted_with->Str();
  }
  result.replace_with = Strings(v.replace_with);
  auto opener = diff::MakeSecretOpener(
      secrets_providers ? &*secrets_providers : nullptr,
      config.show_secrets ? config.passphrase : nullptr, config.path);
  if (!opener.ok()) return opener.status();
  auto display =
      [&](const json::Value* section) -> Result<std::optional<json::Document>> {
    if (section == nullptr) return std::optional<json::Document>();
    auto doc = json::Document::Parse(
        diff::DisplayJson(*section, opener->get(), config.show_secrets));
    if (!doc.ok()) return doc.status();
    return std::optional<json::Document>(std::move(doc).value());
  };
  auto inputs = display(v.inputs);
  if (!inputs.ok()) return inputs.status();
  result.inputs = std::move(inputs).value();
  auto outputs = display(v.outputs);
  if (!outputs.ok()) return outputs.status();
  result.outputs = std::move(outputs).value();
  return result;
}

// ---- tree
// ---------------------------------------------------------------------

std::string TreeResult::Node::urn() const {
  std::string out(urn_prefix);
  out += name;
  return out;
}

std::string_view TreeResult::Interned(std::uint32_t i) const {
  auto [offset, size] = interned_at_[i];
  return std::string_view(interned_).substr(static_cast<std::size_t>(offset),
                                            size);
}

TreeResult::Node TreeResult::node(std::size_t i) const {
  const Stored& s = nodes_[i];
  Node n;
  n.urn_prefix = Interned(s.prefix);
  n.name = std::string_view(names_).substr(
      static_cast<std::size_t>(s.name_offset), s.name_size);
  n.type = Interned(s.type);
  n.provider = (s.flags & kProviderBit) != 0;
  n.deleted = (s.flags & kDeletedBit) != 0;
  return n;
}

std::span<const std::uint32_t> TreeResult::children(std::size_t i) const {
  return std::span<const std::uint32_t>(child_list_)
      .subspan(child_start_[i], child_start_[i + 1] - child_start_[i]);
}

namespace {

constexpr std::uint32_t kNoNode = 0xFFFFFFFFu;

/// URN fingerprint -> the node children hang under (the first live copy,
/// else the first copy); open addressing, at most half full.
class UrnTable {
 public:
  /// Notes node `i` with URN fingerprint `key`; `live`: not a delete copy.
  void Add(const diff::ResourceKey& key, std::uint32_t i, bool live,
           const std::vector<bool>& live_of) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    Slot& s = slots_[Find(key)];
    if (s.node == kNoNode) {
      s = {key, i};
      ++size_;
    } else if (live && !live_of[s.node]) {
      s.node = i;  // children hang under the live copy
    }
  }
  std::uint32_t Get(const diff::ResourceKey& key) const {
    return slots_.empty() ? kNoNode : slots_[Find(key)].node;
  }

 private:
  struct Slot {
    diff::ResourceKey key;
    std::uint32_t node = kNoNode;
  };
  std::size_t Find(const diff::ResourceKey& key) const {
    std::size_t mask = slots_.size() - 1;
    std::size_t i = static_cast<std::size_t>(key.lo) & mask;
    while (slots_[i].node != kNoNode && !(slots_[i].key == key)) {
      i = (i + 1) & mask;
    }
    return i;
  }
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
    for (const Slot& s : old) {
      if (s.node != kNoNode) slots_[Find(s.key)] = s;
    }
  }
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace

Result<TreeResult> Tree(const std::string& path, const Progress& on_progress) {
  TreeResult tree;
  std::unordered_map<std::string, std::uint32_t> interned;
  auto intern = [&](std::string_view s) {
    auto [it, fresh] = interned.try_emplace(
        std::string(s), static_cast<std::uint32_t>(tree.interned_at_.size()));
    if (fresh) {
      tree.interned_at_.emplace_back(tree.interned_.size(),
                                     static_cast<std::uint32_t>(s.size()));
      tree.interned_ += s;
    }
    return it->second;
  };
  UrnTable by_urn;
  std::vector<bool> live;
  std::vector<diff::ResourceKey> parents;  // {0, 0}: no parent
  FnHandler handler([&](state::Leaf& leaf) -> Result<state::Flow> {
    if (leaf.role != state::Role::kResource) return state::Flow::kContinue;
    if (tree.nodes_.size() >= kNoNode - 1) {
      return Status(Errc::kUnsupported,
                    "too many resources for a tree (over 4 billion)");
    }
    state::ResourceView v = state::ResourceView::Of(leaf.value);
    std::string urn = v.Urn();
    std::string type = v.Type();
    std::size_t name_size = 0;
    if (auto parsed = state::ParseUrn(urn)) name_size = parsed->name.size();
    TreeResult::Stored node;
    node.prefix =
        intern(std::string_view(urn).substr(0, urn.size() - name_size));
    node.type = intern(type);
    node.name_offset = tree.names_.size();
    node.name_size = static_cast<std::uint32_t>(name_size);
    tree.names_.append(urn, urn.size() - name_size, name_size);
    bool deleted = state::ResourceView::Flag(v.del);
    if (state::IsProviderType(type)) node.flags |= TreeResult::kProviderBit;
    if (deleted) node.flags |= TreeResult::kDeletedBit;
    auto i = static_cast<std::uint32_t>(tree.nodes_.size());
    tree.nodes_.push_back(node);
    live.push_back(!deleted);
    by_urn.Add(diff::UrnFingerprint(urn), i, !deleted, live);
    parents.push_back(v.parent != nullptr && v.parent->is_string() &&
                              v.parent->size > 0
                          ? diff::UrnFingerprint(v.parent->Str())
                          : diff::ResourceKey{});
    return state::Flow::kContinue;
  });
  if (Status s = ReadPath(path, handler, on_progress); !s.ok()) return s;
  const std::size_t n = tree.nodes_.size();
  // Each node's parent node (kNoNode: an orphan), then children as one
  // array in state order.
  std::vector<std::uint32_t> parent_of(n, kNoNode);
  tree.child_start_.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (parents[i] == diff::ResourceKey{}) continue;
    std::uint32_t p = by_urn.Get(parents[i]);
    if (p == kNoNode || p == i) continue;
    parent_of[i] = p;
    ++tree.child_start_[p + 1];
  }
  parents = {};
  by_urn = {};
  live = {};
  for (std::size_t i = 0; i < n; ++i) {
    tree.child_start_[i + 1] += tree.child_start_[i];
  }
  tree.child_list_.resize(tree.child_start_[n]);
  {
    std::vector<std::uint32_t> fill(tree.child_start_.begin(),
                                    tree.child_start_.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {
      if (parent_of[i] != kNoNode) {
        tree.child_list_[fill[parent_of[i]]++] = static_cast<std::uint32_t>(i);
      }
    }
  }
  // Mark what the roots reach; members of parent cycles become roots too.
  std::vector<bool> reached(n, false);
  std::vector<std::uint32_t> stack;
  auto mark = [&](std::uint32_t root) {
    stack.push_back(root);
    while (!stack.empty()) {
      std::uint32_t x = stack.back();
      stack.pop_back();
      if (reached[x]) continue;
      reached[x] = true;
      for (std::uint32_t c : tree.children(x)) stack.push_back(c);
    }
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (parent_of[i] == kNoNode) {
      tree.roots_.push_back(static_cast<std::uint32_t>(i));
      mark(static_cast<std::uint32_t>(i));
    }
  }
  std::size_t orphans = tree.roots_.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (reached[i]) continue;
    tree.roots_.push_back(static_cast<std::uint32_t>(i));
    mark(static_cast<std::uint32_t>(i));
  }
  std::inplace_merge(tree.roots_.begin(),
                     tree.roots_.begin() + static_cast<std::ptrdiff_t>(orphans),
                     tree.roots_.end());
  return tree;
}

// ---- stats
// --------------------------------------------------------------------

namespace {

/// The bytes of a leaf's text: [base, base + text.size()) of the input.
struct LeafText {
  std::string_view text;
  std::uint64_t base = 0;
};

/// The offset just past `v` in the input. Scalars end where their text
/// does; an object or array past the bracket that follows its last child
/// (found in the leaf's text, so whitespace is counted exactly). Iterative
/// along the chain of last children, whatever the nesting depth.
std::uint64_t ValueEnd(const json::Value& v, const LeafText& leaf) {
  std::vector<const json::Value*> open;
  const json::Value* at = &v;
  while ((at->is_object() || at->is_array()) && at->size > 0) {
    open.push_back(at);
    at = at->is_object() ? &at->members[at->size - 1].value
                         : &at->elements[at->size - 1];
  }
  std::uint64_t end = at->offset;
  switch (at->type) {
    case json::Type::kNull:
    case json::Type::kTrue: end += 4; break;
    case json::Type::kFalse: end += 5; break;
    case json::Type::kNumber: end += at->size; break;
    case json::Type::kString: end += std::uint64_t{at->size} + 2; break;
    case json::Type::kArray:
    case json::Type::kObject: open.push_back(at), end += 1; break;
  }
  for (std::size_t n = open.size(); n > 0; --n) {
    // Past the whitespace, then the closing bracket.
    std::uint64_t i = end - leaf.base;
    while (i < leaf.text.size() && ascii::IsSpace(leaf.text[i])) ++i;
    end = leaf.base + std::min<std::uint64_t>(i + 1, leaf.text.size());
  }
  return end;
}

/// Each member's span of `object` (ending at `end`, just past its closing
/// brace): from its key to the next key, the last one to the brace.
template <typename F>
void ForEachMemberSpan(const json::Value& object, std::uint64_t end, F f) {
  if (!object.is_object()) return;
  std::span<const json::Member> members = object.object();
  for (std::size_t i = 0; i < members.size(); ++i) {
    std::uint64_t from = members[i].key.offset;
    std::uint64_t to = i + 1 < members.size() ? members[i + 1].key.offset
                                              : (end > from ? end - 1 : from);
    f(members[i], to > from ? to - from : 0);
  }
}

/// Counts the secrets, assets and archives of a property value (as Pulumi
/// reads them): a visitor of the property walker. A secret's payload is not
/// looked into; an archive's members may hold assets. With `sizes`, also
/// their bytes.
void CountValues(const json::Value& v, StatsResult* s,
                 const LeafText* text = nullptr, SizeStats* sizes = nullptr) {
  struct Counter {
    enum { kVisitScalars = false };  // only objects count
    StatsResult* s;
    const LeafText* text;
    SizeStats* sizes;
    /// An archive being counted inside (its own count already taken).
    const json::Value* root = nullptr;
    void Add(const json::Value& v, std::uint64_t SizeStats::*field) {
      if (sizes != nullptr) sizes->*field += ValueEnd(v, *text) - v.offset;
    }
    state::Step Visit(const state::PropertyNode& node, state::PropertyCursor&) {
      if (node.value == root) return state::Step::kDescendRaw;
      switch (node.kind) {
        case state::PropertyKind::kSecret:
          ++s->secrets;
          Add(*node.value, &SizeStats::secret_bytes);
          return state::Step::kSkip;
        case state::PropertyKind::kAsset:
          ++s->assets;
          Add(*node.value, &SizeStats::asset_bytes);
          return state::Step::kSkip;
        case state::PropertyKind::kArchive:
          ++s->archives;
          if (sizes != nullptr) {
            Add(*node.value, &SizeStats::asset_bytes);
            // Its member assets are inside its bytes: counted, not sized
            // again.
            Counter inner{s, text, nullptr, node.value};
            state::WalkProperties(*node.value, inner);
            return state::Step::kSkip;
          }
          return state::Step::kDescendRaw;
        case state::PropertyKind::kArray:
        case state::PropertyKind::kObject: return state::Step::kDescend;
        default:
          return node.is_signature() ? state::Step::kDescendRaw
                                     : state::Step::kSkip;
      }
    }
  };
  Counter counter{s, text, sizes, nullptr};
  state::WalkProperties(v, counter);
}

std::string PackageOf(const std::string& type) {
  if (state::IsProviderType(type)) return type.substr(17);
  return type.substr(0, type.find(':'));
}

}  // namespace

Sections& Sections::operator+=(const Sections& o) {
  inputs += o.inputs;
  outputs += o.outputs;
  dependencies += o.dependencies;
  property_dependencies += o.property_dependencies;
  other += o.other;
  return *this;
}

Result<StatsResult> Stats(const std::string& path, std::size_t top,
                          SizeStats* sizes, std::size_t top_properties,
                          const Progress& on_progress) {
  StatsResult s;
  // Per type, bytes per "inputs.NAME" / "outputs.NAME" (cut to the top
  // ones at the end).
  std::map<std::string, std::unordered_map<std::string, std::uint64_t>>
      properties;
  // A resource's sections and its properties' bytes; returns the sections.
  auto split = [&](const json::Value& r, const LeafText& text,
                   std::uint64_t end, const std::string& type) {
    Sections sec;
    std::uint64_t named = 0;
    ForEachMemberSpan(r, end, [&](const json::Member& m, std::uint64_t n) {
      std::string key = m.key.Str();
      const bool in = ascii::EqualFold(key, "inputs");
      const bool out = ascii::EqualFold(key, "outputs");
      if (in || out) {
        (in ? sec.inputs : sec.outputs) += n;
        auto& by_name = properties[type];
        ForEachMemberSpan(
            m.value, ValueEnd(m.value, text),
            [&](const json::Member& p, std::uint64_t bytes) {
              std::string name = p.key.Str();
              if (name.starts_with("__")) sizes->internal_bytes += bytes;
              by_name[std::string(in ? "inputs." : "outputs.") + name] += bytes;
            });
      } else if (ascii::EqualFold(key, "dependencies")) {
        sec.dependencies += n;
      } else if (ascii::EqualFold(key, "propertyDependencies")) {
        sec.property_dependencies += n;
      } else {
        return;
      }
      named += n;
    });
    std::uint64_t total = end - r.offset;
    sec.other = total > named ? total - named : 0;
    return sec;
  };
  for (Flag f : kAllFlags) s.flags[std::string(FlagName(f))] = 0;
  s.secrets_provider = "none";
  // Distinct stacks and projects, by 64-bit fingerprint: a count needs no
  // strings, whatever the URNs.
  std::unordered_set<std::uint64_t> stacks, projects;
  using Big = std::pair<std::uint64_t, std::string>;
  std::priority_queue<Big, std::vector<Big>, std::greater<Big>> largest;
  state::EnvelopeKind kind = state::EnvelopeKind::kUnknown;
  class Handler : public state::Handler {
   public:
    std::function<Result<state::Flow>(state::Leaf&, state::Context&)> f;
    Result<state::Flow> OnLeaf(state::Leaf& leaf,
                               state::Context& context) override {
      return f(leaf, context);
    }
  } handler;
  handler.f = [&](state::Leaf& leaf,
                  state::Context& context) -> Result<state::Flow> {
    kind = context.envelope().kind;
    switch (leaf.role) {
      case state::Role::kSecretsProviders:
        s.secrets_provider = std::string(state::ProviderKindName(
            state::ParseSecretsProvider(leaf.value).kind));
        break;
      case state::Role::kPendingOperation: {
        const json::Value* t = leaf.value.Find("type");
        ++s.pending[t != nullptr && t->is_string() ? t->Str() : "?"];
        break;
      }
      case state::Role::kResource: {
        std::uint64_t bytes = leaf.end_offset - leaf.value.offset;
        ResourceRow row = RowOf(leaf.value, leaf.index, bytes);
        ++s.resources.count;
        s.resources.bytes += bytes;
        auto add = [&](Tally& t) {
          ++t.count;
          t.bytes += bytes;
        };
        add(s.by_package[PackageOf(row.type)]);
        add(s.by_type[row.type]);
        std::string provider = "(none)";
        std::string_view why;
        if (auto ref = state::ParseProviderReference(row.provider, &why)) {
          provider = std::string(ref->urn);
        }
        add(s.by_provider[provider]);
        for (Flag f : row.flags) ++s.flags[std::string(FlagName(f))];
        if (auto urn = state::ParseUrn(row.urn)) {
          stacks.emplace(diff::UrnFingerprint(urn->stack).lo);
          projects.emplace(diff::UrnFingerprint(urn->project).lo);
        }
        if (top > 0) {
          largest.emplace(bytes, row.urn);
          if (largest.size() > top) largest.pop();
        }
        state::ResourceView v = state::ResourceView::Of(leaf.value);
        LeafText text{leaf.bytes, leaf.value.offset};
        LeafText* t = sizes != nullptr ? &text : nullptr;
        if (v.inputs != nullptr) CountValues(*v.inputs, &s, t, sizes);
        if (v.outputs != nullptr) CountValues(*v.outputs, &s, t, sizes);
        if (sizes != nullptr) {
          Sections sec = split(leaf.value, text, leaf.end_offset, row.type);
          sizes->sections += sec;
          sizes->by_type[row.type] += sec;
        }
        break;
      }
      default: break;
    }
    return state::Flow::kContinue;
  };
  auto input = io::OpenInput(path);
  if (!input.ok()) return input.status();
  const std::string name = path == "-" ? "<stdin>" : path;
  diag::Report report(name);
  // Version and features come from the reader's envelope at the end.
  class Finisher : public state::Handler {
   public:
    Finisher(state::Handler& inner, StatsResult& out)
        : inner_(inner), out_(out) {}
    Result<state::Flow> OnLeaf(state::Leaf& leaf,
                               state::Context& context) override {
      return inner_.OnLeaf(leaf, context);
    }
    Status OnFinish(const state::Envelope& e, state::Context&) override {
      out_.envelope = std::string(state::EnvelopeKindName(e.kind));
      out_.version = e.version;
      out_.features = e.features;
      return Status::Ok();
    }

   private:
    state::Handler& inner_;
    StatsResult& out_;
  } finisher(handler, s);
  if (Status st = diff::ReadOrExplain(**input, name, finisher, on_progress);
      !st.ok()) {
    return st;
  }
  (void)kind;
  s.stacks = stacks.size();
  s.projects = projects.size();
  while (!largest.empty()) {
    s.largest.push_back(largest.top());
    largest.pop();
  }
  std::reverse(s.largest.begin(), s.largest.end());
  if (sizes != nullptr) {
    for (auto& [type, by_name] : properties) {
      std::vector<std::pair<std::uint64_t, std::string>> rows;
      rows.reserve(by_name.size());
      for (auto& [property, bytes] : by_name) {
        rows.emplace_back(bytes, property);
      }
      // Largest first; equal sizes by name, so the order is stable.
      std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
      if (rows.size() > top_properties) rows.resize(top_properties);
      sizes->top_properties[type] = std::move(rows);
    }
  }
  return s;
}

}  // namespace pstate::inspect
