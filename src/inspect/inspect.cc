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
#include "base/fingerprint_table.h"
#include "base/glob.h"
#include "diff/differ.h"
#include "diff/index.h"
#include "diff/resource_diff.h"
#include "engine/executor.h"
#include "io/input.h"
#include "io/spool.h"
#include "json/compact.h"
#include "json/equal.h"
#include "state/property.h"
#include "state/provider.h"
#include "state/reader.h"
#include "state/resource.h"
#include "state/selector.h"
#include "state/urn.h"

namespace pstate::inspect {
namespace {

/// The flags set on a resource, in ResourceFlag order (the selector's
/// reading of them: state::ToFlagSet).
std::vector<Flag> FlagsOf(const state::ResourceView& v) {
  state::FlagSet set = state::ToFlagSet(v.Flags());
  std::vector<Flag> out;
  for (Flag f : state::kAllFlags) {
    if ((set & state::FlagBit(f)) != 0) out.push_back(f);
  }
  return out;
}

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
  row.flags = FlagsOf(v);
  row.bytes = bytes;
  return row;
}

/// The row of a resource the filters take, or nothing.
std::optional<ResourceRow> MatchingRow(const state::Leaf& leaf,
                                       const state::Selector& selector) {
  ResourceRow row =
      RowOf(leaf.value, leaf.index, leaf.end_offset - leaf.value.offset);
  state::Selectable subject{row.urn, row.type, row.parent, row.provider};
  for (Flag f : row.flags) subject.flags |= state::FlagBit(f);
  if (!selector.Matches(subject)) return std::nullopt;
  return row;
}

/// `ls` as an engine pass: a worker makes the row of a resource the
/// filters take, the fold hands rows to the sink in state order (and stops
/// when it has enough). Pending operations are listed on the reader's
/// thread; a listing of them reads resources sequentially (it skips them).
class ListPass final : public engine::Pass<std::optional<ResourceRow>> {
 public:
  /// `delivered`: the rows (resources folded) a previous pass of the same
  /// read gave the sink, skipped by this one: a parallel read that falls
  /// back starts again from the first resource.
  ListPass(const ListConfig& config,
           const std::function<bool(const ResourceRow&)>& on_row,
           const std::function<bool(const PendingRow&)>& on_pending,
           std::size_t* delivered)
      : config_(config),
        on_row_(on_row),
        on_pending_(on_pending),
        delivered_(delivered) {}

  class RowWorker final : public engine::Worker<Partial> {
   public:
    explicit RowWorker(const state::Selector& selector) : selector_(selector) {}
    void PerResource(state::Leaf& leaf, state::Context&,
                     Partial& out) override {
      out = MatchingRow(leaf, selector_);
    }

   private:
    const state::Selector& selector_;
  };

  std::unique_ptr<engine::Worker<Partial>> NewWorker() override {
    return std::make_unique<RowWorker>(config_);
  }
  bool splittable() const override { return !config_.pending; }

  state::Flow Fold(Partial&& row, state::Context&) override {
    if (folded_++ < *delivered_) return state::Flow::kContinue;
    *delivered_ = folded_;
    if (!row) return state::Flow::kContinue;
    return on_row_(*row) ? state::Flow::kContinue : state::Flow::kStop;
  }

  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override {
    if (config_.pending) {
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
      return on_pending_(row) ? state::Flow::kContinue : state::Flow::kStop;
    }
    if (leaf.role != state::Role::kResource) return state::Flow::kContinue;
    RowWorker worker(config_);
    return engine::RunInline(*this, worker, leaf, context);
  }

 private:
  const ListConfig& config_;
  const std::function<bool(const ResourceRow&)>& on_row_;
  const std::function<bool(const PendingRow&)>& on_pending_;
  std::size_t* delivered_;
  std::size_t folded_ = 0;
};

Status ReadPath(const std::string& path, state::Handler& handler,
                const Progress& on_progress = {}) {
  auto input = io::OpenInput(path);
  if (!input.ok()) return input.status();
  return engine::ReadOrExplain(**input, io::InputName(path), handler,
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
  engine::Options options;
  options.jobs = config.jobs;
  options.on_progress = config.on_progress;
  // A parallel read that falls back is read again from the start: the
  // rows the sink already has are not given twice.
  std::size_t delivered = 0;
  std::function<std::unique_ptr<ListPass>()> make = [&] {
    return std::make_unique<ListPass>(config, on_row, on_pending, &delivered);
  };
  auto pass = engine::RunOrExplain<ListPass>(
      config.path, io::InputName(config.path), make, options);
  return pass.ok() ? Status::Ok() : pass.status();
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
  const std::string name = io::InputName(config.path);
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
    if (Status s = engine::ReadOrExplain(**stream, name, find); !s.ok()) {
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
    if (Status s = engine::ReadOrExplain(**stream, name, handler); !s.ok()) {
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
  auto display = [&](const json::Value* section) -> std::optional<diff::Value> {
    if (section == nullptr) return std::nullopt;
    return diff::DisplayValue(*section, opener->get(), config.show_secrets);
  };
  result.inputs = display(v.inputs);
  result.outputs = display(v.outputs);
  return result;
}

// ---- tree
// ---------------------------------------------------------------------

}  // namespace pstate::inspect

namespace pstate {

/// The compact tree (pstate.h says what it holds); inspect::Tree builds it.
struct TreeResult::Impl {
  struct Stored {
    std::uint64_t name_offset = 0;  ///< in names_
    std::uint32_t name_size = 0;
    std::uint32_t prefix = 0;  ///< in interned_
    std::uint32_t type = 0;
    std::uint8_t flags = 0;  ///< kProviderBit | kDeletedBit
  };
  static constexpr std::uint8_t kProviderBit = 1, kDeletedBit = 2;

  std::string_view Interned(std::uint32_t i) const {
    auto [offset, size] = interned_at_[i];
    return std::string_view(interned_).substr(static_cast<std::size_t>(offset),
                                              size);
  }
  TreeIndexes children(std::size_t i) const {
    return {child_list_.data() + child_start_[i],
            child_list_.data() + child_start_[i + 1]};
  }

  std::vector<Stored> nodes_;
  std::string names_;
  std::string interned_;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> interned_at_;
  std::vector<std::uint32_t> child_start_;  ///< size() + 1 entries
  std::vector<std::uint32_t> child_list_;
  std::vector<std::uint32_t> roots_;
};

std::string TreeNode::urn() const {
  std::string out(urn_prefix);
  out += name;
  return out;
}

TreeResult::TreeResult() : impl_(std::make_shared<const Impl>()) {}

std::size_t TreeResult::size() const { return impl_->nodes_.size(); }

TreeNode TreeResult::node(std::size_t i) const {
  const Impl::Stored& s = impl_->nodes_[i];
  TreeNode n;
  n.urn_prefix = impl_->Interned(s.prefix);
  n.name = std::string_view(impl_->names_)
               .substr(static_cast<std::size_t>(s.name_offset), s.name_size);
  n.type = impl_->Interned(s.type);
  n.provider = (s.flags & Impl::kProviderBit) != 0;
  n.deleted = (s.flags & Impl::kDeletedBit) != 0;
  return n;
}

TreeIndexes TreeResult::children(std::size_t i) const {
  return impl_->children(i);
}

const std::vector<std::uint32_t>& TreeResult::roots() const {
  return impl_->roots_;
}

}  // namespace pstate

namespace pstate::inspect {

namespace {

constexpr std::uint32_t kNoNode = 0xFFFFFFFFu;

/// URN fingerprint -> the node children hang under (the first live copy,
/// else the first copy).
class UrnTable {
 public:
  /// Notes node `i` with URN fingerprint `key`; `live`: not a delete copy.
  void Add(const diff::ResourceKey& key, std::uint32_t i, bool live,
           const std::vector<bool>& live_of) {
    auto [node, added] = nodes_.Insert(key);
    if (added || (live && !live_of[*node])) {
      *node = i;  // children hang under the live copy
    }
  }
  std::uint32_t Get(const diff::ResourceKey& key) const {
    const std::uint32_t* node = nodes_.Find(key);
    return node != nullptr ? *node : kNoNode;
  }

 private:
  FingerprintTable<std::uint32_t> nodes_;
};

}  // namespace

Result<TreeResult> Tree(const std::string& path, const Progress& on_progress) {
  auto impl = std::make_shared<TreeResult::Impl>();
  TreeResult::Impl& tree = *impl;
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
    TreeResult::Impl::Stored node;
    node.prefix =
        intern(std::string_view(urn).substr(0, urn.size() - name_size));
    node.type = intern(type);
    node.name_offset = tree.names_.size();
    node.name_size = static_cast<std::uint32_t>(name_size);
    tree.names_.append(urn, urn.size() - name_size, name_size);
    bool deleted = state::ResourceView::Flag(v.del);
    if (state::IsProviderType(type))
      node.flags |= TreeResult::Impl::kProviderBit;
    if (deleted) node.flags |= TreeResult::Impl::kDeletedBit;
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
  return TreeResult(std::move(impl));
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

/// What a resource's property values hold (stats' counts and, with the
/// byte split, their sizes).
struct ValueCounts {
  std::uint64_t secrets = 0, assets = 0, archives = 0;
  std::uint64_t secret_bytes = 0, asset_bytes = 0, internal_bytes = 0;
};

/// Counts the secrets, assets and archives of a property value (as Pulumi
/// reads them): a visitor of the property walker. A secret's payload is not
/// looked into; an archive's members may hold assets. With `text`, also
/// their bytes.
void CountValues(const json::Value& v, ValueCounts* counts,
                 const LeafText* text) {
  struct Counter {
    enum { kVisitScalars = false };  // only objects count
    ValueCounts* c;
    const LeafText* text;
    /// An archive being counted inside (its own count already taken).
    const json::Value* root = nullptr;
    void Add(const json::Value& v, std::uint64_t ValueCounts::*field) {
      if (text != nullptr) c->*field += ValueEnd(v, *text) - v.offset;
    }
    state::Step Visit(const state::PropertyNode& node, state::PropertyCursor&) {
      if (node.value == root) return state::Step::kDescendRaw;
      switch (node.kind) {
        case state::PropertyKind::kSecret:
          ++c->secrets;
          Add(*node.value, &ValueCounts::secret_bytes);
          return state::Step::kSkip;
        case state::PropertyKind::kAsset:
          ++c->assets;
          Add(*node.value, &ValueCounts::asset_bytes);
          return state::Step::kSkip;
        case state::PropertyKind::kArchive:
          ++c->archives;
          if (text != nullptr) {
            Add(*node.value, &ValueCounts::asset_bytes);
            // Its member assets are inside its bytes: counted, not sized
            // again.
            Counter inner{c, nullptr, node.value};
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
  Counter counter{counts, text, nullptr};
  state::WalkProperties(v, counter);
}

std::string PackageOf(const std::string& type) {
  if (state::IsProviderType(type)) return type.substr(17);
  return type.substr(0, type.find(':'));
}

/// One resource as stats counts it: the per-resource half of StatsPass,
/// made on a worker.
struct ResourceCounts {
  std::uint64_t bytes = 0;
  std::string type;
  std::string provider;  ///< the provider's URN, or "(none)"
  std::string urn;       ///< only when the largest are listed
  std::vector<Flag> flags;
  bool has_urn = false;  ///< stack and project below are the URN's
  std::uint64_t stack = 0, project = 0;  ///< fingerprints
  ValueCounts values;
  Sections sections;
  /// "inputs.NAME" / "outputs.NAME" -> bytes (with the byte split).
  std::vector<std::pair<std::string, std::uint64_t>> properties;
  /// It has an inputs or outputs member (its type is then listed among
  /// the top properties, even with none).
  bool has_properties = false;
};

/// `stats` as an engine pass: workers count each resource (its row, its
/// values, its sections), the fold sums them in state order; the envelope,
/// secrets provider and pending operations are read on the reader's
/// thread.
class StatsPass final : public engine::Pass<ResourceCounts> {
 public:
  StatsPass(const StatsConfig& config, bool split)
      : config_(config), split_(split) {
    for (Flag f : kAllFlags) s_.flags[std::string(FlagName(f))] = 0;
    s_.secrets_provider = "none";
  }

  class Counter final : public engine::Worker<ResourceCounts> {
   public:
    Counter(bool keep_urn, bool split) : keep_urn_(keep_urn), split_(split) {}
    void PerResource(state::Leaf& leaf, state::Context&,
                     ResourceCounts& out) override {
      out.bytes = leaf.end_offset - leaf.value.offset;
      // Only what the counts need, as views where the text has no escapes
      // (not the whole ls row: its ID, name and parent would be copies).
      state::ResourceView v = state::ResourceView::Of(leaf.value);
      std::string provider_scratch, urn_scratch;
      std::string_view why;
      auto ref = v.ProviderRef(&provider_scratch, &why);
      out.provider = ref ? std::string(ref->urn) : "(none)";
      out.flags = FlagsOf(v);
      std::string_view urn = state::ResourceView::View(v.urn, &urn_scratch);
      if (auto u = state::ParseUrn(urn)) {
        out.has_urn = true;
        out.stack = diff::UrnFingerprint(u->stack).lo;
        out.project = diff::UrnFingerprint(u->project).lo;
      }
      LeafText text{leaf.bytes, leaf.value.offset};
      const LeafText* t = split_ ? &text : nullptr;
      if (v.inputs != nullptr) CountValues(*v.inputs, &out.values, t);
      if (v.outputs != nullptr) CountValues(*v.outputs, &out.values, t);
      if (split_) Split(leaf.value, text, leaf.end_offset, out);
      out.type = v.Type();
      if (keep_urn_) out.urn = std::string(urn);
    }

   private:
    /// The resource's sections and its properties' bytes.
    static void Split(const json::Value& r, const LeafText& text,
                      std::uint64_t end, ResourceCounts& out) {
      Sections& sec = out.sections;
      std::uint64_t named = 0;
      ForEachMemberSpan(r, end, [&](const json::Member& m, std::uint64_t n) {
        std::string key = m.key.Str();
        const bool in = ascii::EqualFold(key, "inputs");
        const bool output = ascii::EqualFold(key, "outputs");
        if (in || output) {
          out.has_properties = true;
          (in ? sec.inputs : sec.outputs) += n;
          ForEachMemberSpan(
              m.value, ValueEnd(m.value, text),
              [&](const json::Member& p, std::uint64_t bytes) {
                std::string name = p.key.Str();
                if (name.starts_with("__")) out.values.internal_bytes += bytes;
                out.properties.emplace_back(
                    std::string(in ? "inputs." : "outputs.") + name, bytes);
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
    }

    bool keep_urn_;
    bool split_;
  };

  std::unique_ptr<engine::Worker<ResourceCounts>> NewWorker() override {
    return std::make_unique<Counter>(config_.top > 0, split_);
  }

  state::Flow Fold(ResourceCounts&& r, state::Context&) override {
    ++s_.resources.count;
    s_.resources.bytes += r.bytes;
    auto add = [&](Tally& t) {
      ++t.count;
      t.bytes += r.bytes;
    };
    add(s_.by_package[PackageOf(r.type)]);
    add(s_.by_type[r.type]);
    add(s_.by_provider[r.provider]);
    for (Flag f : r.flags) ++s_.flags[std::string(FlagName(f))];
    if (r.has_urn) {
      stacks_.emplace(r.stack);
      projects_.emplace(r.project);
    }
    if (config_.top > 0) {
      largest_.emplace(r.bytes, std::move(r.urn));
      if (largest_.size() > config_.top) largest_.pop();
    }
    s_.secrets += r.values.secrets;
    s_.assets += r.values.assets;
    s_.archives += r.values.archives;
    if (split_) {
      sizes_.secret_bytes += r.values.secret_bytes;
      sizes_.asset_bytes += r.values.asset_bytes;
      sizes_.internal_bytes += r.values.internal_bytes;
      sizes_.sections += r.sections;
      sizes_.by_type[r.type] += r.sections;
      if (r.has_properties) {
        auto& by_name = properties_[r.type];
        for (auto& [name, bytes] : r.properties) {
          by_name[std::move(name)] += bytes;
        }
      }
    }
    return state::Flow::kContinue;
  }

  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override {
    switch (leaf.role) {
      case state::Role::kSecretsProviders:
        s_.secrets_provider = std::string(state::ProviderKindName(
            state::ParseSecretsProvider(leaf.value).kind));
        break;
      case state::Role::kPendingOperation: {
        const json::Value* t = leaf.value.Find("type");
        ++s_.pending[t != nullptr && t->is_string() ? t->Str() : "?"];
        break;
      }
      case state::Role::kResource: {
        Counter counter(config_.top > 0, split_);
        return engine::RunInline(*this, counter, leaf, context);
      }
      default: break;
    }
    return state::Flow::kContinue;
  }

  Status OnFinish(const state::Envelope& e, state::Context&) override {
    s_.envelope = std::string(state::EnvelopeKindName(e.kind));
    s_.version = e.version;
    s_.features = e.features;
    return Status::Ok();
  }

  /// The result, once the read is done.
  StatsResult Take(SizeStats* sizes) {
    s_.stacks = stacks_.size();
    s_.projects = projects_.size();
    while (!largest_.empty()) {
      s_.largest.push_back(largest_.top());
      largest_.pop();
    }
    std::reverse(s_.largest.begin(), s_.largest.end());
    if (sizes != nullptr) {
      for (auto& [type, by_name] : properties_) {
        std::vector<std::pair<std::uint64_t, std::string>> rows;
        rows.reserve(by_name.size());
        for (auto& [property, bytes] : by_name) {
          rows.emplace_back(bytes, property);
        }
        // Largest first; equal sizes by name, so the order is stable.
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
          return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        if (rows.size() > config_.top_properties) {
          rows.resize(config_.top_properties);
        }
        sizes_.top_properties[type] = std::move(rows);
      }
      *sizes = std::move(sizes_);
    }
    return std::move(s_);
  }

 private:
  const StatsConfig& config_;
  bool split_;
  StatsResult s_;
  SizeStats sizes_;
  // Per type, bytes per "inputs.NAME" / "outputs.NAME" (cut to the top
  // ones at the end).
  std::map<std::string, std::unordered_map<std::string, std::uint64_t>>
      properties_;
  // Distinct stacks and projects, by 64-bit fingerprint: a count needs no
  // strings, whatever the URNs.
  std::unordered_set<std::uint64_t> stacks_, projects_;
  using Big = std::pair<std::uint64_t, std::string>;
  std::priority_queue<Big, std::vector<Big>, std::greater<Big>> largest_;
};

}  // namespace

Result<StatsResult> Stats(const StatsConfig& config, SizeStats* sizes) {
  engine::Options options;
  options.jobs = config.jobs;
  options.on_progress = config.on_progress;
  std::function<std::unique_ptr<StatsPass>()> make = [&] {
    return std::make_unique<StatsPass>(config, sizes != nullptr);
  };
  auto pass = engine::RunOrExplain<StatsPass>(
      config.path, io::InputName(config.path), make, options);
  if (!pass.ok()) return pass.status();
  return (*pass)->Take(sizes);
}

}  // namespace pstate::inspect
