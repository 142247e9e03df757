#include "pstate/inspect/inspect.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <queue>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "pstate/base/glob.h"
#include "pstate/diag/render.h"
#include "pstate/diff/differ.h"
#include "pstate/diff/index.h"
#include "pstate/diff/resource_diff.h"
#include "pstate/io/input.h"
#include "pstate/io/spool.h"
#include "pstate/json/compact.h"
#include "pstate/json/equal.h"
#include "pstate/state/property.h"
#include "pstate/state/provider.h"
#include "pstate/state/reader.h"
#include "pstate/state/resource.h"
#include "pstate/state/urn.h"

namespace pstate::inspect {
namespace {

using diag::JsonString;
using diag::TerminalSafe;

bool Glob(const std::optional<std::string>& pattern, const std::string& s) {
  return !pattern || GlobMatch(*pattern, s);
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

Status ReadPath(const std::string& path, state::Handler& handler) {
  auto input = io::OpenInput(path);
  if (!input.ok()) return input.status();
  return diff::ReadOrExplain(**input, path == "-" ? "<stdin>" : path, handler);
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

std::string Flags(const std::vector<Flag>& flags) {
  std::string out;
  for (Flag f : flags) {
    if (!out.empty()) out += ',';
    out += FlagName(f);
  }
  return out;
}

std::string FlagsJson(const std::vector<Flag>& flags) {
  std::string out = "[";
  for (std::size_t i = 0; i < flags.size(); ++i) {
    if (i > 0) out += ',';
    out += JsonString(FlagName(flags[i]));
  }
  return out + "]";
}

std::string StringsJson(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += ',';
    out += JsonString(v[i]);
  }
  return out + "]";
}

std::vector<std::string> Strings(const json::Value* v) {
  std::vector<std::string> out;
  if (v == nullptr || !v->is_array()) return out;
  for (const json::Value& e : v->array()) {
    if (e.is_string()) out.push_back(e.Str());
  }
  return out;
}

std::string Dash(const std::string& s) { return s.empty() ? "-" : s; }

}  // namespace

std::string_view FlagName(Flag flag) {
  switch (flag) {
    case Flag::kProtect: return "protect";
    case Flag::kTaint: return "taint";
    case Flag::kDelete: return "delete";
    case Flag::kExternal: return "external";
    case Flag::kPendingReplacement: return "pending-replacement";
    case Flag::kRetainOnDelete: return "retain-on-delete";
  }
  return "";
}

std::optional<Flag> ParseFlag(std::string_view name) {
  for (Flag f : kAllFlags) {
    if (FlagName(f) == name) return f;
  }
  return std::nullopt;
}

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
    if (!Glob(config.type, row.type) || !Glob(config.name, row.name) ||
        !Glob(config.urn, row.urn) || !Glob(config.provider, row.provider)) {
      return state::Flow::kContinue;
    }
    if (config.parent && row.parent != *config.parent) {
      return state::Flow::kContinue;
    }
    for (Flag f : config.flags) {
      if (std::find(row.flags.begin(), row.flags.end(), f) == row.flags.end()) {
        return state::Flow::kContinue;
      }
    }
    return on_row(row) ? state::Flow::kContinue : state::Flow::kStop;
  });
  return ReadPath(config.path, handler);
}

// Fields are made terminal-safe one by one (a tab inside one is escaped);
// the separators are real tabs.
std::string RowText(const ResourceRow& row) {
  return TerminalSafe(row.urn) + "\t" + TerminalSafe(row.type) + "\t" +
         TerminalSafe(Dash(row.id)) + "\t" + Dash(Flags(row.flags));
}

std::string RowJson(const ResourceRow& row) {
  std::string out = "{\"index\":" + std::to_string(row.index);
  out += ",\"urn\":" + JsonString(row.urn);
  out += ",\"type\":" + JsonString(row.type);
  out += ",\"name\":" + JsonString(row.name);
  if (!row.id.empty()) out += ",\"id\":" + JsonString(row.id);
  if (!row.parent.empty()) out += ",\"parent\":" + JsonString(row.parent);
  if (!row.provider.empty()) {
    out += ",\"provider\":" + JsonString(row.provider);
  }
  out += ",\"custom\":" + std::string(row.custom ? "true" : "false");
  out += ",\"flags\":" + FlagsJson(row.flags);
  out += ",\"bytes\":" + std::to_string(row.bytes) + "}";
  return out;
}

std::string PendingText(const PendingRow& row) {
  return TerminalSafe(Dash(row.operation)) + "\t" +
         TerminalSafe(Dash(row.urn)) + "\t" + TerminalSafe(Dash(row.type)) +
         "\t" + TerminalSafe(Dash(row.id));
}

std::string PendingJson(const PendingRow& row) {
  std::string out = "{\"index\":" + std::to_string(row.index);
  out += ",\"operation\":" + JsonString(row.operation);
  out += ",\"urn\":" + JsonString(row.urn);
  out += ",\"type\":" + JsonString(row.type);
  if (!row.id.empty()) out += ",\"id\":" + JsonString(row.id);
  return out + "}";
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

namespace {

bool IsLeafValue(const json::Value& v) {
  return !(v.is_object() || v.is_array()) || v.size == 0;
}

void TreeLines(const json::Value& v, const std::string& indent,
               std::string* out) {
  auto line = [&](const std::string& label, const json::Value& e) {
    if (IsLeafValue(e)) {
      *out += TerminalSafe(indent + label + ": " + diff::DisplayJson(e));
      *out += '\n';
    } else {
      *out += TerminalSafe(indent + label + ":") + "\n";
      TreeLines(e, indent + "    ", out);
    }
  };
  if (v.is_object()) {
    for (const json::Member& m : v.object()) line(m.key.Str(), m.value);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size; ++i) {
      line("[" + std::to_string(i) + "]", v.array()[i]);
    }
  }
}

}  // namespace

std::string ShowText(const ShowResult& r) {
  std::string out;
  auto field = [&](std::string_view label, const std::string& value) {
    if (value.empty()) return;
    out += TerminalSafe(std::string(label) + value) + "\n";
  };
  field("URN:       ", r.row.urn);
  field("Type:      ", r.row.type);
  field("ID:        ", r.row.id);
  field("Index:     ", std::to_string(r.row.index));
  field("Custom:    ", r.row.custom ? "true" : "false");
  field("Parent:    ", r.row.parent);
  field("Provider:  ", r.row.provider);
  field("Flags:     ", Flags(r.row.flags));
  if (r.copies > 1) {
    field("Copies:    ",
          std::to_string(r.copies) + " resources share this URN");
  }
  field("Bytes:     ", std::to_string(r.row.bytes));
  auto list = [&](std::string_view title, const std::vector<std::string>& v) {
    if (v.empty()) return;
    out += std::string(title) + "\n";
    for (const std::string& s : v) out += TerminalSafe("    " + s) + "\n";
  };
  list("Dependencies:", r.dependencies);
  if (!r.property_dependencies.empty()) {
    out += "Property dependencies:\n";
    for (const auto& [key, urns] : r.property_dependencies) {
      out += TerminalSafe("    " + key + ":") + "\n";
      for (const std::string& s : urns) {
        out += TerminalSafe("        " + s) + "\n";
      }
    }
  }
  field("Deleted with: ", r.deleted_with);
  list("Replace with:", r.replace_with);
  if (!r.dependents.empty()) {
    out += "Dependents:\n";
    for (const Dependent& d : r.dependents) {
      out += TerminalSafe("    " + d.urn + " (" + d.via + ")") + "\n";
    }
  }
  if (r.inputs) {
    out += "Inputs:\n";
    TreeLines(r.inputs->root(), "    ", &out);
  }
  if (r.outputs) {
    out += "Outputs:\n";
    TreeLines(r.outputs->root(), "    ", &out);
  }
  return out;
}

std::string ShowJson(const ShowResult& r) {
  std::string out = "{\"urn\":" + JsonString(r.row.urn);
  out += ",\"type\":" + JsonString(r.row.type);
  if (!r.row.id.empty()) out += ",\"id\":" + JsonString(r.row.id);
  out += ",\"index\":" + std::to_string(r.row.index);
  out += ",\"custom\":" + std::string(r.row.custom ? "true" : "false");
  if (!r.row.parent.empty()) out += ",\"parent\":" + JsonString(r.row.parent);
  if (!r.row.provider.empty()) {
    out += ",\"provider\":" + JsonString(r.row.provider);
  }
  out += ",\"flags\":" + FlagsJson(r.row.flags);
  out += ",\"copies\":" + std::to_string(r.copies);
  out += ",\"bytes\":" + std::to_string(r.row.bytes);
  out += ",\"dependencies\":" + StringsJson(r.dependencies);
  out += ",\"propertyDependencies\":{";
  bool first = true;
  for (const auto& [key, urns] : r.property_dependencies) {
    if (!first) out += ',';
    first = false;
    out += JsonString(key) + ":" + StringsJson(urns);
  }
  out += "}";
  if (!r.deleted_with.empty()) {
    out += ",\"deletedWith\":" + JsonString(r.deleted_with);
  }
  if (!r.replace_with.empty()) {
    out += ",\"replaceWith\":" + StringsJson(r.replace_with);
  }
  out += ",\"dependents\":[";
  for (std::size_t i = 0; i < r.dependents.size(); ++i) {
    if (i > 0) out += ',';
    out += "{\"urn\":" + JsonString(r.dependents[i].urn) +
           ",\"via\":" + JsonString(r.dependents[i].via) + "}";
  }
  out += "]";
  out += ",\"inputs\":" +
         (r.inputs ? std::string(r.inputs->text()) : std::string("{}"));
  out += ",\"outputs\":" +
         (r.outputs ? std::string(r.outputs->text()) : std::string("{}"));
  return out + "}\n";
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

Result<TreeResult> Tree(const std::string& path) {
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
  if (Status s = ReadPath(path, handler); !s.ok()) return s;
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

namespace {

std::string NodeLabel(const TreeResult::Node& n) {
  std::string label(n.type);
  label += ' ';
  label += n.name;
  if (n.provider) label += " [provider]";
  if (n.deleted) label += " [delete]";
  return label;
}

/// Collects output and hands it to `out` in 64 KiB pieces.
class Chunked {
 public:
  explicit Chunked(std::ostream& out) : out_(out) {}
  ~Chunked() { Flush(); }
  std::string& buffer() { return buffer_; }
  void MaybeFlush() {
    if (buffer_.size() >= (std::size_t{1} << 16)) Flush();
  }
  void Flush() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }

 private:
  std::ostream& out_;
  std::string buffer_;
};

}  // namespace

void WriteTreeText(const TreeResult& tree, std::ostream& stream,
                   std::size_t limit) {
  Chunked out(stream);
  std::vector<bool> printed(tree.size(), false);
  std::size_t shown = 0;
  // Depth first with an explicit stack. `prefix` holds the guide of the
  // current path; a frame remembers how much of it is its own.
  struct Frame {
    std::uint32_t node;
    std::size_t prefix_size;
    bool last, root;
  };
  std::string prefix;
  std::vector<Frame> stack;
  for (std::uint32_t r : tree.roots()) {
    if (limit > 0 && shown == limit) break;
    stack.push_back({r, 0, true, true});
    while (!stack.empty()) {
      Frame f = stack.back();
      stack.pop_back();
      if (printed[f.node]) continue;
      if (limit > 0 && shown == limit) break;
      printed[f.node] = true;
      ++shown;
      prefix.resize(f.prefix_size);
      out.buffer() +=
          TerminalSafe(prefix + (f.root ? "" : (f.last ? "└─ " : "├─ ")) +
                       NodeLabel(tree.node(f.node)));
      out.buffer() += '\n';
      out.MaybeFlush();
      if (!f.root) prefix += f.last ? "   " : "│  ";
      auto children = tree.children(f.node);
      for (std::size_t i = children.size(); i-- > 0;) {
        stack.push_back(
            {children[i], prefix.size(), i + 1 == children.size(), false});
      }
    }
  }
  // Every resource is printed once when none is left out (one member of
  // each parent cycle is a root).
  if (shown < tree.size()) {
    std::size_t omitted = tree.size() - shown;
    out.buffer() += "... " + std::to_string(omitted) + " more resource" +
                    (omitted == 1 ? "" : "s") + " not shown (--limit " +
                    std::to_string(limit) + ")\n";
  }
}

void WriteTreeJson(const TreeResult& tree, std::ostream& stream,
                   std::size_t limit) {
  Chunked out(stream);
  std::vector<bool> printed(tree.size(), false);
  std::size_t shown = 0;
  struct Frame {
    std::uint32_t node;
    std::uint32_t next_child = 0;
    bool any_child = false;
  };
  auto open = [&](std::uint32_t n) {
    printed[n] = true;
    ++shown;
    TreeResult::Node node = tree.node(n);
    std::string& b = out.buffer();
    b += "{\"urn\":" + JsonString(node.urn());
    b += ",\"type\":" + JsonString(node.type);
    b += ",\"name\":" + JsonString(node.name);
    if (node.provider) b += ",\"provider\":true";
    if (node.deleted) b += ",\"delete\":true";
    b += ",\"children\":[";
    out.MaybeFlush();
  };
  out.buffer() += "{\"resources\":[";
  bool first = true;
  std::vector<Frame> stack;
  for (std::uint32_t r : tree.roots()) {
    if (printed[r]) continue;
    if (limit > 0 && shown == limit) break;
    if (!first) out.buffer() += ',';
    first = false;
    open(r);
    stack.push_back({r});
    while (!stack.empty()) {
      Frame& f = stack.back();
      auto children = tree.children(f.node);
      while (f.next_child < children.size() &&
             printed[children[f.next_child]]) {
        ++f.next_child;
      }
      if (f.next_child == children.size() || (limit > 0 && shown == limit)) {
        out.buffer() += "]}";
        stack.pop_back();
        continue;
      }
      std::uint32_t c = children[f.next_child++];
      if (f.any_child) out.buffer() += ',';
      f.any_child = true;
      open(c);
      stack.push_back({c});  // (f is not used after this)
    }
  }
  out.buffer() += ']';
  if (shown < tree.size()) {
    out.buffer() += ",\"truncated\":true,\"omitted\":" +
                    std::to_string(tree.size() - shown);
  }
  out.buffer() += "}\n";
}

std::string TreeText(const TreeResult& tree) {
  std::ostringstream out;
  WriteTreeText(tree, out);
  return out.str();
}

std::string TreeJson(const TreeResult& tree) {
  std::ostringstream out;
  WriteTreeJson(tree, out);
  return out.str();
}

// ---- stats
// --------------------------------------------------------------------

namespace {

/// Counts the secrets, assets and archives of a property value (as Pulumi
/// reads them): a visitor of the property walker. A secret's payload is not
/// looked into; an archive's members may hold assets.
void CountValues(const json::Value& v, StatsResult* s) {
  struct Counter {
    enum { kVisitScalars = false };  // only objects count
    StatsResult* s;
    state::Step Visit(const state::PropertyNode& node, state::PropertyCursor&) {
      switch (node.kind) {
        case state::PropertyKind::kSecret:
          ++s->secrets;
          return state::Step::kSkip;
        case state::PropertyKind::kAsset:
          ++s->assets;
          return state::Step::kSkip;
        case state::PropertyKind::kArchive:
          ++s->archives;
          return state::Step::kDescendRaw;
        case state::PropertyKind::kArray:
        case state::PropertyKind::kObject: return state::Step::kDescend;
        default:
          return node.is_signature() ? state::Step::kDescendRaw
                                     : state::Step::kSkip;
      }
    }
  };
  Counter counter{s};
  state::WalkProperties(v, counter);
}

std::string PackageOf(const std::string& type) {
  if (state::IsProviderType(type)) return type.substr(17);
  return type.substr(0, type.find(':'));
}

}  // namespace

Result<StatsResult> Stats(const std::string& path, std::size_t top) {
  StatsResult s;
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
        if (v.inputs != nullptr) CountValues(*v.inputs, &s);
        if (v.outputs != nullptr) CountValues(*v.outputs, &s);
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
  if (Status st = diff::ReadOrExplain(**input, name, finisher); !st.ok()) {
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
  return s;
}

namespace {

std::string Table(std::string_view title,
                  const std::map<std::string, Tally>& m) {
  std::vector<std::pair<std::string, Tally>> rows(m.begin(), m.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.bytes > b.second.bytes;
  });
  std::string out = std::string(title) + "\n";
  char buf[64];
  for (const auto& [name, t] : rows) {
    std::snprintf(buf, sizeof(buf), "  %8llu %12llu  ",
                  static_cast<unsigned long long>(t.count),
                  static_cast<unsigned long long>(t.bytes));
    out += buf + TerminalSafe(name) + "\n";
  }
  return out;
}

std::string TallyMapJson(const std::map<std::string, Tally>& m) {
  std::string out = "{";
  bool first = true;
  for (const auto& [name, t] : m) {
    if (!first) out += ',';
    first = false;
    out += JsonString(name) + ":{\"count\":" + std::to_string(t.count) +
           ",\"bytes\":" + std::to_string(t.bytes) + "}";
  }
  return out + "}";
}

std::string CountMapJson(const std::map<std::string, std::uint64_t>& m) {
  std::string out = "{";
  bool first = true;
  for (const auto& [name, n] : m) {
    if (!first) out += ',';
    first = false;
    out += JsonString(name) + ":" + std::to_string(n);
  }
  return out + "}";
}

}  // namespace

std::string StatsText(const StatsResult& s) {
  std::string out;
  auto line = [&](std::string_view label, const std::string& value) {
    out += std::string(label) + TerminalSafe(value) + "\n";
  };
  line("envelope:    ", s.envelope);
  line("version:     ", s.version ? std::to_string(*s.version) : "-");
  std::string features;
  for (const std::string& f : s.features) {
    features += (features.empty() ? "" : ", ") + f;
  }
  line("features:    ", features.empty() ? "-" : features);
  line("resources:   ", std::to_string(s.resources.count) + " (" +
                            std::to_string(s.resources.bytes) + " bytes)");
  line("stacks:      ", std::to_string(s.stacks));
  line("projects:    ", std::to_string(s.projects));
  std::string flags;
  for (const auto& [name, n] : s.flags) {
    flags += (flags.empty() ? "" : ", ") + name + " " + std::to_string(n);
  }
  line("flags:       ", flags);
  line("secrets:     ",
       std::to_string(s.secrets) + " (provider " + s.secrets_provider + ")");
  line("assets:      ",
       std::to_string(s.assets) + ", archives " + std::to_string(s.archives));
  std::string pending;
  std::uint64_t total = 0;
  for (const auto& [op, n] : s.pending) {
    pending += ", " + op + " " + std::to_string(n);
    total += n;
  }
  line("pending:     ", std::to_string(total) + pending);
  out += "\n" + Table("by package (count, bytes):", s.by_package);
  out += "\n" + Table("by type (count, bytes):", s.by_type);
  out += "\n" + Table("by provider (count, bytes):", s.by_provider);
  if (!s.largest.empty()) {
    out += "\nlargest resources (bytes):\n";
    char buf[32];
    for (const auto& [bytes, urn] : s.largest) {
      std::snprintf(buf, sizeof(buf), "  %12llu  ",
                    static_cast<unsigned long long>(bytes));
      out += buf + TerminalSafe(urn) + "\n";
    }
  }
  return out;
}

std::string StatsJson(const StatsResult& s) {
  std::string out = "{\"envelope\":" + JsonString(s.envelope);
  out += ",\"version\":" +
         (s.version ? std::to_string(*s.version) : std::string("null"));
  out += ",\"features\":" + StringsJson(s.features);
  out += ",\"resources\":{\"count\":" + std::to_string(s.resources.count) +
         ",\"bytes\":" + std::to_string(s.resources.bytes) + "}";
  out += ",\"stacks\":" + std::to_string(s.stacks);
  out += ",\"projects\":" + std::to_string(s.projects);
  out += ",\"flags\":" + CountMapJson(s.flags);
  out += ",\"secrets\":{\"provider\":" + JsonString(s.secrets_provider) +
         ",\"count\":" + std::to_string(s.secrets) + "}";
  out += ",\"assets\":" + std::to_string(s.assets);
  out += ",\"archives\":" + std::to_string(s.archives);
  out += ",\"pending_operations\":" + CountMapJson(s.pending);
  out += ",\"by_package\":" + TallyMapJson(s.by_package);
  out += ",\"by_type\":" + TallyMapJson(s.by_type);
  out += ",\"by_provider\":" + TallyMapJson(s.by_provider);
  out += ",\"largest\":[";
  for (std::size_t i = 0; i < s.largest.size(); ++i) {
    if (i > 0) out += ',';
    out += "{\"urn\":" + JsonString(s.largest[i].second) +
           ",\"bytes\":" + std::to_string(s.largest[i].first) + "}";
  }
  return out + "]}\n";
}

}  // namespace pstate::inspect
