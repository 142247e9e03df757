#include "edit/plan.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <queue>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_set>

#include "state/urn.h"

namespace pstate::edit {
namespace {

bool ValidUrn(const std::string& urn) {
  return state::ParseUrn(urn).has_value();
}

Status BadUrn(const std::string& what, const std::string& urn) {
  return Status(Errc::kInvalidArgument,
                what + " \"" + urn +
                    "\" is not a URN (urn:pulumi:STACK::"
                    "PROJECT::TYPE::NAME)");
}

Planned Refuse(std::string message) {
  Planned p;
  p.refused = true;
  p.refusal = std::move(message);
  return p;
}

/// The name part of a URN, for Pulumi's dependents listing.
std::string NameOf(std::string_view urn) {
  auto u = state::ParseUrn(urn);
  return std::string(u ? u->name : urn);
}

std::string Ambiguous(const Index& index, const std::string& urn,
                      const std::vector<std::size_t>& at) {
  std::string m =
      "Resource URN ambiguously referred to multiple resources; choose one "
      "with --id. Did you mean:";
  for (std::size_t i : at) {
    const ResourceEntry& r = index.resources_list[i];
    m += "\n  " + (r.id == kNoStr ? std::string("(no id)")
                                  : std::string(index.Text(r.id)));
    if (r.del) m += " (delete: true)";
  }
  (void)urn;
  return m;
}

}  // namespace

std::string NewUrn(const Index& index, const Plan& plan, std::size_t i) {
  auto e = plan.edits.find(i);
  if (e != plan.edits.end() && e->second.urn) return *e->second.urn;
  std::string urn(index.Urn(i));
  auto m = plan.urn_map.find(urn);
  return m == plan.urn_map.end() ? urn : m->second;
}

namespace {

std::string Mapped(const Plan* plan, const std::string& urn) {
  if (plan == nullptr) return urn;
  auto m = plan->urn_map.find(urn);
  return m == plan->urn_map.end() ? urn : m->second;
}

/// Children of each URN (positions), by their parent field.
using Children = std::unordered_map<StrId, std::vector<std::size_t>>;
Children ChildrenByParent(const Index& index) {
  Children out;
  for (std::size_t i = 0; i < index.resources_list.size(); ++i) {
    StrId p = index.resources_list[i].parent;
    if (p != kNoStr) out[p].push_back(i);
  }
  return out;
}

/// Gives `root` the URN `new_urn` and its descendants the URNs their new
/// parent chain implies (`<parent's qualified type>$<type>`), recording
/// each change in `plan`. As Pulumi's rename (state_rename.go,
/// stateReurnOperation), a child is only looked at when its parent's URN
/// changed, and it only changes when its URN does not already carry that
/// parent's qualified type.
void Recompute(const Index& index, const Children& children, std::size_t root,
               const std::string& new_urn, Plan& plan) {
  std::deque<std::pair<std::size_t, std::string>> work{{root, new_urn}};
  std::set<std::size_t> seen;
  while (!work.empty()) {
    auto [i, urn] = work.front();
    work.pop_front();
    if (!seen.insert(i).second) continue;
    std::string old(index.Urn(i));
    if (urn == old) continue;
    plan.edits[i].urn = urn;
    plan.urn_map[old] = urn;
    auto c = children.find(index.resources_list[i].urn);
    if (c == children.end()) continue;
    for (std::size_t child : c->second) {
      if (child == i) continue;
      work.emplace_back(child,
                        UrnUnderParent(std::string(index.Urn(child)), urn));
    }
  }
}

/// `delete --all` (pkg/cmd/pulumi/state/state_delete.go): every resource,
/// walked from the end; a protected one stops it unless forced.
Planned PlanDeleteAll(const Index& index, const Request& req) {
  Planned out;
  Plan& plan = out.plan;
  const auto& list = index.resources_list;
  plan.drop.assign(list.size(), true);
  for (std::size_t i = list.size(); i-- > 0;) {
    if (!list[i].protect) continue;
    std::string urn(index.Urn(i));
    if (!req.force) {
      return Refuse(urn +
                    " can't be safely deleted because it is protected. "
                    "Re-run this command with --force to force deletion");
    }
    plan.notes.push_back("deleting protected resource " + urn +
                         " due to presence of --force");
  }
  return out;
}

Result<Planned> PlanDelete(const Index& index, const Request& req) {
  if (req.all) return PlanDeleteAll(index, req);
  Planned out;
  Plan& plan = out.plan;
  std::vector<std::size_t> targets;
  for (const std::string& urn : req.urns) {
    std::vector<std::size_t> at = index.Find(urn);
    if (at.empty()) return Refuse(NotFound(index, urn));
    if (at.size() > 1 && !req.id.empty()) {
      std::vector<std::size_t> chosen;
      for (std::size_t i : at) {
        if (index.Text(index.resources_list[i].id) == req.id) {
          chosen.push_back(i);
        }
      }
      if (chosen.empty()) {
        return Refuse("No copy of \"" + urn + "\" has the ID \"" + req.id +
                      "\"\n" + Ambiguous(index, urn, at));
      }
      at = chosen;
    }
    if (at.size() > 1) return Refuse(Ambiguous(index, urn, at));
    targets.push_back(at[0]);
  }
  for (std::size_t t : targets) {
    const ResourceEntry& r = index.resources_list[t];
    std::string urn(index.Urn(t));
    if (r.protect && !req.force) {
      return Refuse(urn +
                    " can't be safely deleted because it is protected. "
                    "Re-run this command with --force to force deletion");
    }
    if (r.protect) {
      plan.notes.push_back("deleting protected resource " + urn +
                           " due to presence of --force");
    }
  }
  std::vector<std::size_t> dependents = Dependents(index, targets);
  if (!dependents.empty() && !req.target_dependents) {
    std::string m = std::string(index.Urn(targets[0])) +
                    " can't be safely deleted because the following "
                    "resources depend on it:";
    for (std::size_t d : dependents) {
      std::string_view urn = index.Urn(d);
      std::string name = "\"" + NameOf(urn) + "\"";
      if (name.size() < 15) name.resize(15, ' ');
      m += "\n * " + name + " (" + std::string(urn) + ")";
    }
    m += "\nDelete those resources first or pass --target-dependents.";
    return Refuse(m);
  }
  for (std::size_t d : dependents) {
    const ResourceEntry& r = index.resources_list[d];
    std::string urn(index.Urn(d));
    if (r.protect && !req.force) {
      return Refuse(urn +
                    " can't be safely deleted because it is protected. "
                    "Re-run this command with --force to force deletion");
    }
    if (r.protect) {
      plan.notes.push_back("deleting protected resource " + urn +
                           " due to presence of --force");
    }
  }
  plan.drop.assign(index.resources_list.size(), false);
  for (std::size_t t : targets) plan.drop[t] = true;
  for (std::size_t d : dependents) plan.drop[d] = true;
  return out;
}

Result<Planned> PlanRename(const Index& index, const Request& req) {
  Planned out;
  const std::string& urn = req.urns[0];
  if (req.new_name.empty()) {
    return Status(Errc::kInvalidArgument, "the new name is empty");
  }
  if (req.new_name.rfind("urn:pulumi:", 0) == 0) {
    // Pulumi would build "<type>::urn:pulumi:..." here, a URN nobody can
    // rename back (pulumi/pulumi#11746).
    return Refuse("the new name \"" + req.new_name +
                  "\" is a URN; give only the name part (the type, stack "
                  "and project stay)");
  }
  std::vector<std::size_t> at = index.Find(urn);
  if (at.empty()) return Refuse(NotFound(index, urn));
  if (at.size() > 1) {
    return Refuse("The input URN ambiguously refers to multiple resources");
  }
  auto u = state::ParseUrn(urn);
  std::string renamed =
      state::FormatUrn(u->stack, u->project, u->qualified_type, req.new_name);
  if (renamed == urn) return out;
  if (!index.Find(renamed).empty()) {
    return Refuse(
        "The chosen new urn for the state corresponds to an "
        "already existing resource: " +
        renamed);
  }
  // Children: a name-only rename keeps the qualified type, so a child
  // whose URN carries its parent's qualified type keeps its URN. A child
  // whose URN does not (a parent-type-chain warning: a hand-edited parent,
  // or a `pulumi state move` from before pulumi/pulumi#21953) gets the URN
  // its parent chain implies, as Pulumi's rename gives it, and so on down;
  // every reference to it follows.
  Plan& plan = out.plan;
  Recompute(index, ChildrenByParent(index), at[0], renamed, plan);
  for (const auto& [old, now] : plan.urn_map) {
    if (old == urn) continue;
    if (!index.Find(now).empty() && !plan.urn_map.count(now)) {
      return Refuse("Renaming " + urn + " would give its descendant " + old +
                    " the URN " + now + ", which another resource already has");
    }
    plan.notes.push_back("recomputed the URN of " + old + " to " + now +
                         " (its type did not extend its parent's)");
  }
  plan.notes.SortFrom(0, index, plan);
  return out;
}

/// `pulumi stack rename` on a DIY backend (pkg/resource/edit/
/// operations.go, RenameStack): every URN of the state's stack and project
/// (the root stack resource's, else the first resource's) gets the new
/// stack and project, wherever it is written (urn, parent, dependencies,
/// propertyDependencies, deletedWith, replaceWith, provider references,
/// aliases, viewOf, resource references in property values, pending
/// operations); the root stack resource is named `<project>-<stack>`. URNs
/// of other stacks or projects stay.
Result<Planned> PlanRenameStack(const Index& index, const Request& req) {
  auto bad_name = [](const std::string& name) {
    return name.empty() || name.find("::") != std::string::npos ||
           name.find('/') != std::string::npos;
  };
  if (bad_name(req.new_name)) {
    return Status(Errc::kInvalidArgument,
                  "the new stack name \"" + req.new_name +
                      "\" must be a bare name (no \"/\" or \"::\")");
  }
  if (!req.new_project.empty() && bad_name(req.new_project)) {
    return Status(Errc::kInvalidArgument,
                  "--project \"" + req.new_project +
                      "\" must be a bare name (no \"/\" or \"::\")");
  }
  Planned out;
  Plan& plan = out.plan;
  const auto& list = index.resources_list;
  std::optional<state::Urn> old;
  for (std::size_t i = 0; i < list.size() && !old; ++i) {
    if (index.Text(list[i].type) == state::kRootStackType) {
      old = state::ParseUrn(index.Urn(i));
    }
  }
  for (std::size_t i = 0; i < list.size() && !old; ++i) {
    old = state::ParseUrn(index.Urn(i));
  }
  if (!old) {
    plan.notes.push_back("the state has no resource URN: nothing to rename");
    return out;
  }
  state::StackProject from{std::string(old->stack), std::string(old->project)};
  state::StackProject to{
      req.new_name, req.new_project.empty() ? from.project : req.new_project};
  auto renamed = [&](std::string_view urn) {
    return state::RestackUrn(urn, from, to);
  };
  auto map = [&](std::string_view urn) {
    if (plan.urn_map.count(std::string(urn))) return;
    if (auto now = renamed(urn)) plan.urn_map[std::string(urn)] = *now;
  };
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (auto now = renamed(index.Urn(i))) plan.edits[i].urn = *now;
    map(index.Urn(i));
    ForEachReference(index, list[i],
                     [&](RefKind, StrId urn) { map(index.Text(urn)); });
  }
  for (const PendingEntry& p : index.pending) map(p.urn);
  for (const auto& [was, now] : plan.urn_map) {
    if (!index.Find(now).empty() && !plan.urn_map.count(now)) {
      return Refuse("Renaming the stack would give " + was + " the URN " + now +
                    ", which another resource already has");
    }
  }
  return out;
}

Result<Planned> PlanReparent(const Index& index, const Request& req) {
  Planned out;
  Plan& plan = out.plan;
  const std::string& urn = req.urns[0];
  std::vector<std::size_t> at = index.Find(urn);
  if (at.empty()) return Refuse(NotFound(index, urn));
  if (at.size() > 1) {
    return Refuse("The input URN ambiguously refers to multiple resources");
  }
  std::vector<std::size_t> parent_at = index.Live(req.new_parent);
  if (parent_at.empty()) parent_at = index.Find(req.new_parent);
  if (parent_at.empty()) return Refuse(NotFound(index, req.new_parent));
  if (parent_at.size() > 1) {
    return Refuse(
        "The new parent URN ambiguously refers to multiple "
        "resources");
  }
  if (req.new_parent == urn) {
    return Refuse("A resource cannot be its own parent");
  }
  auto children = ChildrenByParent(index);
  // The new parent must not sit below the resource.
  {
    StrId new_parent = index.resources_list[parent_at[0]].urn;
    std::deque<StrId> work{index.resources_list[at[0]].urn};
    std::set<StrId> seen;
    while (!work.empty()) {
      StrId u = work.front();
      work.pop_front();
      if (!seen.insert(u).second) continue;
      if (u == new_parent) {
        return Refuse(req.new_parent + " is a descendant of " + urn +
                      ": reparenting would make a cycle");
      }
      auto c = children.find(u);
      if (c == children.end()) continue;
      for (std::size_t i : c->second) {
        work.push_back(index.resources_list[i].urn);
      }
    }
  }
  std::size_t target = at[0];
  if (index.Text(index.resources_list[target].parent) != req.new_parent) {
    plan.edits[target].parent = req.new_parent;
  }
  Recompute(index, children, target, UrnUnderParent(urn, req.new_parent), plan);
  for (const auto& [old, renamed] : plan.urn_map) {
    if (!index.Find(renamed).empty() && !plan.urn_map.count(renamed)) {
      return Refuse("Moving " + old + " would give it the URN " + renamed +
                    ", which another resource already has");
    }
  }
  plan.drop.assign(index.resources_list.size(), false);
  auto order = TopologicalOrder(index, plan.drop, &plan);
  if (!order.ok()) return Refuse(order.status().message());
  bool identity = true;
  for (std::size_t i = 0; i < order->size(); ++i) {
    if ((*order)[i] != i) identity = false;
  }
  if (!identity) {
    plan.order = std::move(*order);
    std::size_t np = parent_at[0];
    plan.notes.push_back("moved " + urn + " and its descendants after " +
                         std::string(index.Urn(np)));
  }
  return out;
}

Result<Planned> PlanFlag(const Index& index, const Request& req) {
  Planned out;
  Plan& plan = out.plan;
  bool value = req.op == Operation::kProtect || req.op == Operation::kTaint;
  bool is_protect =
      req.op == Operation::kProtect || req.op == Operation::kUnprotect;
  std::vector<std::size_t> targets;
  if (req.all) {
    for (std::size_t i = 0; i < index.resources_list.size(); ++i) {
      if (!index.resources_list[i].del) targets.push_back(i);
    }
  } else {
    std::string missing;
    for (const std::string& urn : req.urns) {
      std::vector<std::size_t> live = index.Live(urn);
      if (live.empty()) {
        if (!missing.empty()) missing += "\n";
        missing += NotFound(index, urn);
        if (!index.Find(urn).empty()) {
          missing += " (only copies pending deletion, which are skipped)";
        }
        continue;
      }
      targets.insert(targets.end(), live.begin(), live.end());
    }
    if (!missing.empty()) return Refuse(missing);
  }
  for (std::size_t t : targets) {
    const ResourceEntry& r = index.resources_list[t];
    bool current = is_protect ? r.protect : r.taint;
    if (current == value) continue;
    if (is_protect) {
      plan.edits[t].protect = value;
    } else {
      plan.edits[t].taint = value;
    }
  }
  return out;
}

bool KnownOperationType(const std::string& type) {
  return type == "creating" || type == "updating" || type == "deleting" ||
         type == "reading" || type == "importing";
}

Result<Planned> PlanClearPending(const Index& index, const Request& req) {
  Planned out;
  Plan& plan = out.plan;
  if (!req.pending_type.empty() && !KnownOperationType(req.pending_type)) {
    return Status(Errc::kInvalidArgument,
                  "--type \"" + req.pending_type +
                      "\" is not one of creating, updating, deleting, "
                      "reading, importing");
  }
  plan.pending.resize(index.pending.size());
  std::size_t cleared = 0;
  for (std::size_t i = 0; i < index.pending.size(); ++i) {
    const PendingEntry& p = index.pending[i];
    if (!req.pending_type.empty() && p.type != req.pending_type) continue;
    if (!req.pending_urn.empty() && p.urn != req.pending_urn) continue;
    plan.pending[i].drop = true;
    ++cleared;
  }
  if (cleared == 0) plan.notes.push_back("no pending operation matched");
  return out;
}

Result<Planned> PlanImportPending(const Index& index, const Request& req) {
  Planned out;
  Plan& plan = out.plan;
  if (req.id.empty()) {
    return Status(Errc::kInvalidArgument, "the ID to import is empty");
  }
  plan.pending.resize(index.pending.size());
  std::size_t found = 0;
  for (std::size_t i = 0; i < index.pending.size(); ++i) {
    const PendingEntry& p = index.pending[i];
    if (p.urn != req.urns[0] || p.type != "creating") continue;
    plan.pending[i].id = req.id;
    plan.pending[i].type = "importing";
    ++found;
  }
  if (found == 0) {
    std::string m =
        "No pending \"creating\" operation for \"" + req.urns[0] + "\"";
    std::string listed;
    for (const PendingEntry& p : index.pending) {
      if (p.type == "creating") listed += "\n  " + p.urn;
    }
    if (!listed.empty()) m += "; pending creates:" + listed;
    return Refuse(m);
  }
  return out;
}

/// `pstate extract`: the selected resources (every copy of each URN), the
/// resources they need to be a valid state, transitively: parents and
/// providers, and with `with_dependencies` what dependencies,
/// propertyDependencies, deletedWith and replaceWith name. Everything else
/// is dropped; references to what is dropped are pruned (as repair prunes
/// them), pending operations of dropped resources go, and the envelope
/// stays.
Planned PlanExtract(const Index& index, const Request& req) {
  Planned out;
  Plan& plan = out.plan;
  const auto& list = index.resources_list;
  std::vector<bool> keep(list.size(), false);
  std::vector<std::size_t> work;
  auto add = [&](StrId urn) {
    for (std::size_t i : index.FindId(urn)) {
      if (keep[i]) continue;
      keep[i] = true;
      work.push_back(i);
    }
  };
  for (const std::string& urn : req.urns) {
    StrId id = index.strings.Find(urn);
    if (!index.HasResource(id)) return Refuse(NotFound(index, urn));
    add(id);
  }
  std::size_t selected = work.size();
  while (!work.empty()) {
    std::size_t i = work.back();
    work.pop_back();
    ForEachReference(index, list[i], [&](RefKind kind, StrId urn) {
      switch (kind) {
        case RefKind::kParent:
        case RefKind::kProvider: add(urn); break;
        case RefKind::kDependency:
        case RefKind::kPropertyDependency:
        case RefKind::kDeletedWith:
        case RefKind::kReplaceWith:
          if (req.with_dependencies) add(urn);
          break;
        default: break;
      }
    });
  }
  plan.drop.assign(list.size(), false);
  plan.existing = UrnSet(index.strings);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    plan.drop[i] = !keep[i];
    if (!keep[i]) continue;
    ++kept;
    plan.existing.Insert(index.Urn(i));
  }
  plan.prune = true;
  plan.pending.resize(index.pending.size());
  for (std::size_t i = 0; i < index.pending.size(); ++i) {
    plan.pending[i].drop = !plan.existing.Contains(index.pending[i].urn);
  }
  plan.notes.push_back(
      "extracted " + std::to_string(kept) + " of " +
      std::to_string(list.size()) + " resources: " + std::to_string(selected) +
      " selected, " + std::to_string(kept - selected) +
      (req.with_dependencies ? " parents, providers and dependencies"
                             : " parents and providers") +
      " they need");
  return out;
}

Result<Planned> PlanRepair(const Index& index, const Request& req) {
  (void)req;
  Planned out;
  Plan& plan = out.plan;
  const auto& list = index.resources_list;
  // pkg/resource/deploy/snapshot.go, Repair: Toposort, then Prune on the
  // sorted list.
  auto sorted = RepairOrder(index);
  if (!sorted.ok()) return Refuse(sorted.status().message());
  const std::vector<std::size_t>& order = *sorted;
  // Prune: in the new order, a resource whose parent is present gets the
  // URN its parent's (new) type chain implies, else its parent is cleared
  // and its URN loses the prefix; either way its children follow, since
  // they come later.
  // Per URN id: seen yet; and the new URN of those that change (few).
  std::vector<bool> seen(index.strings.size(), false);
  std::unordered_map<StrId, std::string> changed;
  // The notes are typed records (records.h), rendered when printed.
  auto at = [](std::size_t i) { return static_cast<std::uint32_t>(i); };
  for (std::size_t i : order) {
    const ResourceEntry& r = list[i];
    std::string urn(index.Urn(i));
    std::string now = urn;
    if (r.parent != kNoStr) {
      if (!seen[r.parent]) {
        plan.edits[i].parent = "";
        now = UrnUnderParent(urn, "");
        plan.notes.push_back(Note{Note::Kind::kClearedParent, {}, at(i), 0});
      } else {
        auto p = changed.find(r.parent);
        now = UrnUnderParent(urn, p == changed.end()
                                      ? std::string(index.Text(r.parent))
                                      : p->second);
      }
    }
    if (now != urn) {
      plan.edits[i].urn = now;
      plan.urn_map[urn] = now;
      changed[r.urn] = now;
    } else {
      changed.erase(r.urn);
    }
    seen[r.urn] = true;
  }
  for (const auto& [old, renamed] : plan.urn_map) {
    plan.notes.push_back(
        Note{Note::Kind::kRenamed, {}, at(index.Find(old).front()), 0});
  }
  plan.notes.SortFrom(0, index, plan);
  plan.existing = UrnSet(index.strings);
  for (std::size_t i = 0; i < list.size(); ++i) {
    plan.existing.Insert(NewUrn(index, plan, i));
  }
  plan.prune = true;
  for (std::size_t i : order) {
    ForEachReference(index, list[i], [&](RefKind kind, StrId id) {
      if (kind == RefKind::kParent || kind == RefKind::kProvider ||
          kind == RefKind::kAlias || kind == RefKind::kViewOf ||
          kind == RefKind::kProperty) {
        return;
      }
      if (plan.existing.Contains(Mapped(&plan, std::string(index.Text(id))))) {
        return;
      }
      plan.notes.push_back(Note{Note::Kind::kRemovedDangling, kind, at(i), id});
    });
    if (list[i].provider != kNoStr) {
      std::string provider(index.Text(list[i].provider));
      std::size_t cut = provider.rfind("::");
      std::string p =
          cut == std::string::npos ? provider : provider.substr(0, cut);
      if (!plan.existing.Contains(Mapped(&plan, p))) {
        plan.notes.push_back(Note{Note::Kind::kNoProvider, {}, at(i), 0});
      }
    }
  }
  plan.drop.assign(list.size(), false);
  // A resource moved up when one that came before it now comes after it.
  std::vector<std::size_t> lowest_after(order.size() + 1, list.size());
  for (std::size_t k = order.size(); k-- > 0;) {
    lowest_after[k] = std::min(lowest_after[k + 1], order[k]);
  }
  bool identity = true;
  for (std::size_t k = 0; k < order.size(); ++k) {
    std::size_t i = order[k];
    if (i != k) identity = false;
    if (lowest_after[k + 1] < i) {
      plan.notes.push_back(Note{Note::Kind::kMovedUp, {}, at(i), at(k)});
    }
  }
  if (!identity) plan.order = order;
  return out;
}

}  // namespace

std::string NotFound(const Index& index, const std::string& urn) {
  std::string m = "No such resource \"" + urn + "\" exists in the state";
  std::vector<std::string> near = Suggest(index, urn);
  if (!near.empty()) {
    m += "\nDid you mean:";
    for (const std::string& s : near) m += "\n  " + s;
  }
  return m;
}

std::string_view OperationName(Operation op) {
  switch (op) {
    case Operation::kDelete: return "delete";
    case Operation::kRename: return "rename";
    case Operation::kRenameStack: return "rename-stack";
    case Operation::kReparent: return "reparent";
    case Operation::kProtect: return "protect";
    case Operation::kUnprotect: return "unprotect";
    case Operation::kTaint: return "taint";
    case Operation::kUntaint: return "untaint";
    case Operation::kClearPending: return "clear-pending";
    case Operation::kImportPending: return "import-pending";
    case Operation::kRepair: return "repair";
    case Operation::kExtract: return "extract";
  }
  return "";
}

std::string UrnUnderParent(const std::string& urn,
                           const std::string& parent_urn) {
  auto u = state::ParseUrn(urn);
  if (!u) return urn;
  std::string qualified(u->type());
  if (!parent_urn.empty()) {
    auto p = state::ParseUrn(parent_urn);
    if (p && p->type() != state::kRootStackType) {
      qualified = std::string(p->qualified_type) + "$" + qualified;
    }
  }
  return state::FormatUrn(u->stack, u->project, qualified, u->name);
}

std::vector<std::size_t> OnlyDependsOn(const Index& index, std::size_t target,
                                       const std::vector<bool>& gone) {
  const auto& list = index.resources_list;
  const ResourceEntry& t = list[target];
  auto id_of = [&](const ResourceEntry& r) {
    return r.id == kNoStr ? std::string_view() : index.Text(r.id);
  };
  // Per URN: the IDs of the copies seen so far that depend on the target,
  // and how many seen so far do not (pkg/resource/graph/
  // dependency_graph.go, OnlyDependsOn). Every copy before the target is
  // a non-dependent; a copy after a referrer is not seen yet.
  std::unordered_map<StrId, std::vector<std::string_view>> dependent;
  std::vector<std::uint32_t> others(index.strings.size(), 0);
  for (std::size_t i = 0; i < target; ++i) {
    if (!gone[i]) ++others[list[i].urn];
  }
  dependent[t.urn].push_back(id_of(t));
  std::vector<std::size_t> out;
  for (std::size_t i = target + 1; i < list.size(); ++i) {
    if (gone[i]) continue;
    const ResourceEntry& c = list[i];
    bool is = false;
    if (!(c.urn == t.urn && id_of(c) == id_of(t))) {
      ForEachReference(index, c, [&](RefKind kind, StrId urn) {
        if (is) return;
        auto d = dependent.find(urn);
        std::size_t n = d == dependent.end() ? 0 : d->second.size();
        switch (kind) {
          case RefKind::kParent: is = n > 0 && others[urn] == 0; break;
          case RefKind::kDependency:
          case RefKind::kPropertyDependency:
          case RefKind::kDeletedWith:
          case RefKind::kReplaceWith: is = n == 1 && others[urn] == 0; break;
          case RefKind::kProvider: {
            // A provider reference names URN and ID: any dependent copy
            // with that ID answers it.
            if (n == 0) break;
            std::string_view ref = index.Text(c.provider);
            std::string_view id = ref.substr(ref.rfind("::") + 2);
            for (std::string_view have : d->second) {
              if (have == id) is = true;
            }
            break;
          }
          default: break;
        }
      });
    }
    if (is) {
      dependent[c.urn].push_back(id_of(c));
      out.push_back(i);
    } else {
      ++others[c.urn];
    }
  }
  return out;
}

std::vector<std::size_t> Dependents(const Index& index,
                                    const std::vector<std::size_t>& targets) {
  std::vector<bool> gone(index.resources_list.size(), false);
  // Each target in turn, last first (dependents come later, so this is
  // the order pkg/cmd/pulumi/state/state_delete.go's
  // computeStateDeleteOrder gives a valid state), on what the earlier
  // ones left.
  std::vector<std::size_t> order = targets;
  std::sort(order.rbegin(), order.rend());
  std::vector<std::size_t> out;
  for (std::size_t t : order) {
    if (gone[t]) continue;
    for (std::size_t d : OnlyDependsOn(index, t, gone)) {
      gone[d] = true;
      out.push_back(d);
    }
    gone[t] = true;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  std::vector<std::size_t> kept;
  for (std::size_t d : out) {
    if (std::find(targets.begin(), targets.end(), d) == targets.end()) {
      kept.push_back(d);
    }
  }
  return kept;
}

Result<std::vector<std::size_t>> RepairOrder(const Index& index) {
  const auto& list = index.resources_list;
  std::size_t n = list.size();
  // Per URN: its last pending-delete copy and its last other copy
  // (Toposort's oldsByURN and newsByURN).
  std::unordered_map<StrId, std::pair<std::size_t, std::size_t>> copies;
  constexpr std::size_t kNone = ~std::size_t{0};
  for (std::size_t i = 0; i < n; ++i) {
    auto [it, added] = copies.try_emplace(list[i].urn, kNone, kNone);
    (list[i].del ? it->second.first : it->second.second) = i;
  }
  // What resource `i` needs, each once, lowest position first (Pulumi
  // visits them in Go map order, which has none: this is the one order
  // pstate picks).
  auto needs = [&](std::size_t i) {
    std::vector<std::size_t> out;
    ForEachReference(index, list[i], [&](RefKind kind, StrId urn) {
      if (kind == RefKind::kAlias || kind == RefKind::kViewOf ||
          kind == RefKind::kProperty) {
        return;
      }
      auto c = copies.find(urn);
      if (c == copies.end()) return;
      auto [old, live] = c->second;
      std::size_t pick = old != kNone && live != kNone
                             ? (list[i].del ? old : live)
                             : (old != kNone ? old : live);
      out.push_back(pick);
    });
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };
  // A post-order depth-first search from each resource in input order
  // (topoVisit), without recursion: a chain of any length fits.
  enum : std::uint8_t { kNew, kVisiting, kDone };
  std::vector<std::uint8_t> mark(n, kNew);
  struct Frame {
    std::size_t node;
    std::vector<std::size_t> next;
    std::size_t at = 0;
  };
  std::vector<Frame> stack;
  std::vector<std::size_t> order;
  order.reserve(n);
  for (std::size_t s = 0; s < n; ++s) {
    if (mark[s] != kNew) continue;
    mark[s] = kVisiting;
    stack.push_back({s, needs(s)});
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.at < top.next.size()) {
        std::size_t d = top.next[top.at++];
        if (mark[d] == kVisiting) {
          std::string m = "the resources have cyclic dependencies:";
          bool in = false;
          for (const Frame& f : stack) {
            if (f.node == d) in = true;
            if (in) m += "\n  " + std::string(index.Urn(f.node));
          }
          return Status(Errc::kFormat, m);
        }
        if (mark[d] == kNew) {
          mark[d] = kVisiting;
          stack.push_back({d, needs(d)});
        }
        continue;
      }
      mark[top.node] = kDone;
      order.push_back(top.node);
      stack.pop_back();
    }
  }
  return order;
}

Result<std::vector<std::size_t>> TopologicalOrder(const Index& index,
                                                  const std::vector<bool>& drop,
                                                  const Plan* plan) {
  const auto& list = index.resources_list;
  std::size_t n = list.size();
  auto kept = [&](std::size_t i) { return drop.empty() || !drop[i]; };
  // Final URN -> kept positions.
  std::unordered_map<std::string, std::vector<std::size_t>> at;
  for (std::size_t i = 0; i < n; ++i) {
    if (!kept(i)) continue;
    at[plan != nullptr ? NewUrn(index, *plan, i) : std::string(index.Urn(i))]
        .push_back(i);
  }
  std::vector<std::vector<std::size_t>> needed_by(n);
  std::vector<std::size_t> waiting(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (!kept(i)) continue;
    std::optional<std::string> parent;
    if (plan != nullptr) {
      auto e = plan->edits.find(i);
      if (e != plan->edits.end()) parent = e->second.parent;
    }
    std::set<std::size_t> deps;
    auto add = [&](const std::string& urn) {
      auto it = at.find(Mapped(plan, urn));
      if (it == at.end()) return;
      // With duplicates, a pending-delete resource needs the
      // pending-delete copy, any other the live copy
      // (pkg/resource/deploy/snapshot.go, Toposort).
      std::size_t pick = it->second[0];
      for (std::size_t c : it->second) {
        if (list[c].del == list[i].del) {
          pick = c;
          break;
        }
      }
      if (pick != i) deps.insert(pick);
    };
    ForEachReference(index, list[i], [&](RefKind kind, StrId urn) {
      if (kind == RefKind::kAlias || kind == RefKind::kViewOf ||
          kind == RefKind::kProperty) {
        return;
      }
      if (kind == RefKind::kParent && parent) return;
      add(std::string(index.Text(urn)));
    });
    if (parent && !parent->empty()) add(*parent);
    for (std::size_t d : deps) {
      needed_by[d].push_back(i);
      ++waiting[i];
    }
  }
  std::priority_queue<std::size_t, std::vector<std::size_t>,
                      std::greater<std::size_t>>
      ready;
  std::size_t total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!kept(i)) continue;
    ++total;
    if (waiting[i] == 0) ready.push(i);
  }
  std::vector<std::size_t> order;
  order.reserve(total);
  while (!ready.empty()) {
    std::size_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (std::size_t j : needed_by[i]) {
      if (--waiting[j] == 0) ready.push(j);
    }
  }
  if (order.size() != total) {
    std::string m = "the resources have cyclic dependencies:";
    std::size_t shown = 0;
    for (std::size_t i = 0; i < n && shown < 5; ++i) {
      if (kept(i) && waiting[i] > 0) {
        m += "\n  " + std::string(index.Urn(i));
        ++shown;
      }
    }
    return Status(Errc::kFormat, m);
  }
  return order;
}

bool TakesSelection(Operation op) {
  switch (op) {
    case Operation::kDelete:
    case Operation::kRename:
    case Operation::kReparent:
    case Operation::kProtect:
    case Operation::kUnprotect:
    case Operation::kTaint:
    case Operation::kUntaint:
    case Operation::kImportPending:
    case Operation::kExtract: return true;
    case Operation::kRenameStack:
    case Operation::kClearPending:
    case Operation::kRepair: return false;
  }
  return false;
}

namespace {

/// The URNs whose name part is `name`, each once, in state order.
std::vector<std::string> UrnsNamed(const Index& index, std::string_view name) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < index.resources_list.size(); ++i) {
    if (!index.IsFirstCopy(i)) continue;
    auto u = state::ParseUrn(index.Urn(i));
    if (u && u->name == name) out.emplace_back(index.Urn(i));
  }
  return out;
}

/// Whether `arg` is meant as a URN (a malformed one is a usage error, not
/// a name).
bool LooksLikeUrn(std::string_view arg) { return arg.starts_with("urn:"); }

/// `name` resolved to its one URN, or the refusal.
std::optional<std::string> ResolveName(const Index& index,
                                       const std::string& name,
                                       std::string* refusal) {
  std::vector<std::string> urns = UrnsNamed(index, name);
  if (urns.size() == 1) return urns[0];
  if (urns.empty()) {
    *refusal = "No resource is named \"" + name +
               "\" (and it is not a URN); `pstate ls STATE --name '*" + name +
               "*'` lists similar names";
    return std::nullopt;
  }
  *refusal = "The name \"" + name +
             "\" is ambiguous: " + std::to_string(urns.size()) +
             " resources have it; give one of their URNs:";
  for (const std::string& u : urns) *refusal += "\n  " + u;
  return std::nullopt;
}

}  // namespace

Selection Select(const Index& index, const std::vector<std::string>& args,
                 const state::Selector& selector) {
  Selection out;
  std::unordered_set<std::string> seen;
  auto add = [&](std::string urn) {
    if (seen.insert(urn).second) out.urns.push_back(std::move(urn));
  };
  for (const std::string& arg : args) {
    if (LooksLikeUrn(arg)) {
      add(arg);
      continue;
    }
    out.shown = true;
    auto urn = ResolveName(index, arg, &out.refusal);
    if (!urn) {
      out.refused = true;
      return out;
    }
    add(*urn);
  }
  if (!selector.empty()) {
    out.shown = true;
    for (std::size_t i = 0; i < index.resources_list.size(); ++i) {
      if (selector.Matches(SelectableOf(index, i))) {
        add(std::string(index.Urn(i)));
      }
    }
  }
  if (out.urns.empty()) {
    out.refused = true;
    out.refusal = "the selection matches no resource: nothing to do";
  }
  return out;
}

Result<Planned> MakePlan(const Index& index, const Request& request) {
  Request req = request;
  std::vector<std::string> selected;
  if (TakesSelection(req.op) && !req.all) {
    Selection s = Select(index, req.urns, req.select);
    if (s.refused) return Refuse(s.refusal);
    req.urns = std::move(s.urns);
    if (s.shown) selected = req.urns;
    bool single = req.op == Operation::kRename ||
                  req.op == Operation::kReparent ||
                  req.op == Operation::kImportPending;
    if (single && req.urns.size() != 1) {
      std::string m = std::string(OperationName(req.op)) +
                      " acts on one resource; the selection has " +
                      std::to_string(req.urns.size()) + ":";
      for (const std::string& u : req.urns) m += "\n  " + u;
      return Refuse(m);
    }
  }
  if (!req.new_parent.empty() && !LooksLikeUrn(req.new_parent)) {
    std::string refusal;
    auto urn = ResolveName(index, req.new_parent, &refusal);
    if (!urn) return Refuse(refusal);
    req.new_parent = *urn;
  }
  for (const std::string& urn : req.urns) {
    if (!ValidUrn(urn)) return BadUrn("the argument", urn);
  }
  if (!req.new_parent.empty() && !ValidUrn(req.new_parent)) {
    return BadUrn("the new parent", req.new_parent);
  }
  if (!req.pending_urn.empty() && !ValidUrn(req.pending_urn)) {
    return BadUrn("--urn", req.pending_urn);
  }
  Result<Planned> planned = Planned{};
  switch (req.op) {
    case Operation::kDelete: planned = PlanDelete(index, req); break;
    case Operation::kRename: planned = PlanRename(index, req); break;
    case Operation::kRenameStack: planned = PlanRenameStack(index, req); break;
    case Operation::kReparent: planned = PlanReparent(index, req); break;
    case Operation::kProtect:
    case Operation::kUnprotect:
    case Operation::kTaint:
    case Operation::kUntaint: planned = PlanFlag(index, req); break;
    case Operation::kClearPending:
      planned = PlanClearPending(index, req);
      break;
    case Operation::kImportPending:
      planned = PlanImportPending(index, req);
      break;
    case Operation::kRepair: planned = PlanRepair(index, req); break;
    case Operation::kExtract: planned = PlanExtract(index, req); break;
  }
  if (planned.ok()) {
    Plan& plan = planned->plan;
    if (plan.drop.empty()) plan.drop.assign(index.resources_list.size(), false);
    if (plan.pending.empty()) plan.pending.resize(index.pending.size());
    plan.selected = std::move(selected);
  }
  return planned;
}

}  // namespace pstate::edit

namespace pstate::edit {
namespace {

PlannedMove RefuseMove(std::string message) {
  PlannedMove p;
  p.refused = true;
  p.refusal = std::move(message);
  return p;
}

bool IsProvider(const Index& index, std::size_t i) {
  return state::IsProviderType(index.Text(index.resources_list[i].type));
}

}  // namespace

Result<PlannedMove> PlanMove(const Index& source, const Index& destination,
                             const Request& req,
                             const SameInputs& same_inputs) {
  PlannedMove out;
  MovePlan& mp = out.plan;
  const auto& list = source.resources_list;
  Selection sel = Select(source, req.urns, req.select);
  if (sel.refused) return RefuseMove(sel.refusal);
  for (const std::string& urn : sel.urns) {
    if (!ValidUrn(urn)) return BadUrn("the argument", urn);
  }
  if (sel.shown) mp.selected = sel.urns;

  StrId root = kNoStr;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (source.Text(list[i].type) == state::kRootStackType) {
      root = list[i].urn;
      break;
    }
  }
  Children children = ChildrenByParent(source);
  std::vector<bool> moved(list.size(), false);
  std::vector<std::size_t> work;
  auto push_children = [&](StrId urn) {
    auto c = children.find(urn);
    if (c == children.end()) return;
    for (std::size_t child : c->second) {
      if (!IsProvider(source, child)) work.push_back(child);
    }
  };
  for (const std::string& urn : sel.urns) {
    std::vector<std::size_t> at = source.Find(urn);
    if (at.empty()) return RefuseMove(NotFound(source, urn));
    if (IsProvider(source, at[0])) {
      return RefuseMove(
          "cannot move providers. Only resources can be moved, and "
          "providers will be included automatically (" +
          urn + ")");
    }
    if (list[at[0]].urn == root) {
      push_children(root);  // the root stack: all its children
      continue;
    }
    for (std::size_t i : at) work.push_back(i);
  }
  // Descendants (pkg/resource/graph: ChildrenOf, providers excepted).
  auto close = [&] {
    while (!work.empty()) {
      std::size_t i = work.back();
      work.pop_back();
      if (moved[i]) continue;
      moved[i] = true;
      push_children(list[i].urn);
    }
  };
  close();
  if (req.include_parents) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!moved[i]) continue;
      for (StrId p = list[i].parent; p != kNoStr && p != root;) {
        std::vector<std::size_t> at = source.FindId(p);
        if (at.empty() || IsProvider(source, at[0]) || moved[at[0]]) break;
        for (std::size_t a : at) moved[a] = true;
        p = list[at[0]].parent;
      }
    }
  }
  std::size_t count = 0;
  std::vector<bool> moved_urn(source.strings.size(), false);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!moved[i]) continue;
    ++count;
    moved_urn[list[i].urn] = true;
  }
  if (count == 0) {
    return RefuseMove("the selection moves no resource: nothing to do");
  }
  for (const PendingEntry& p : source.pending) {
    StrId id = source.strings.Find(p.urn);
    if (id != kNoStr && moved_urn[id]) {
      return RefuseMove(
          "cannot move " + p.urn + ": it has a pending \"" + p.type +
          "\" operation; resolve it first (`pstate edit clear-pending` or "
          "`import-pending`)");
    }
  }

  // Dependencies that would cross the two files (Pulumi drops them with
  // a warning; a state that silently loses a dependency deploys in the
  // wrong order, so pstate refuses and lists them).
  std::vector<BrokenDependency> cut;
  for (std::size_t i = 0; i < list.size(); ++i) {
    ForEachReference(source, list[i], [&](RefKind kind, StrId urn) {
      bool structural =
          kind == RefKind::kParent || kind == RefKind::kDependency ||
          kind == RefKind::kPropertyDependency ||
          kind == RefKind::kDeletedWith || kind == RefKind::kReplaceWith;
      if (!structural || urn == root) return;
      std::vector<std::size_t> at = source.FindId(urn);
      if (at.empty()) return;  // dangling already: not this move's doing
      bool moving = moved[i] && !moved_urn[urn] && !IsProvider(source, at[0]);
      if (!moving && (moved[i] || !moved_urn[urn])) return;
      BrokenDependency b{std::string(source.Urn(i)),
                         std::string(source.Text(urn)), moving};
      if (!cut.empty() && cut.back().resource == b.resource &&
          cut.back().target == b.target && cut.back().moving == b.moving) {
        return;
      }
      cut.push_back(std::move(b));
    });
  }
  if (!cut.empty()) {
    std::vector<std::string> broken;
    for (const BrokenDependency& b : cut) {
      broken.push_back(b.resource + (b.moving ? " (moving)" : " (staying)") +
                       " depends on " + b.target +
                       (b.moving ? " (staying)" : " (moving)"));
    }
    std::string m = "the move would break " + std::to_string(broken.size()) +
                    (broken.size() == 1 ? " dependency" : " dependencies") +
                    " between the two states:";
    for (std::size_t k = 0; k < broken.size() && k < 10; ++k) {
      m += "\n  " + broken[k];
    }
    if (broken.size() > 10) {
      m += "\n  ... and " + std::to_string(broken.size() - 10) + " more";
    }
    m += "\nMove them together (name them too, or --include-parents), or "
         "remove the dependency first: nothing written";
    PlannedMove refused = RefuseMove(m);
    refused.broken = std::move(cut);
    return refused;
  }

  // The destination's stack and project: its root stack's, else its first
  // resource's.
  const auto& dlist = destination.resources_list;
  std::string root_urn;
  for (std::size_t i = 0; i < dlist.size(); ++i) {
    if (destination.Text(dlist[i].type) == state::kRootStackType) {
      root_urn = std::string(destination.Urn(i));
      break;
    }
  }
  std::optional<state::Urn> dest_urn;
  if (!root_urn.empty()) {
    dest_urn = state::ParseUrn(root_urn);
  } else if (!dlist.empty()) {
    dest_urn = state::ParseUrn(destination.Urn(0));
  }
  std::string dstack, dproject;
  if (dest_urn) {
    dstack = dest_urn->stack;
    dproject = dest_urn->project;
    for (auto [given, has, what] :
         {std::tuple{&req.dest_stack, &dstack, "stack"},
          std::tuple{&req.dest_project, &dproject, "project"}}) {
      if (!given->empty() && *given != *has) {
        return RefuseMove(std::string("the destination's ") + what + " is \"" +
                          *has + "\" (its URNs), not \"" + *given +
                          "\": nothing written");
      }
    }
  } else if (req.dest_stack.empty() || req.dest_project.empty()) {
    // Pulumi's state move knows both from the backend; a file alone may
    // not say (a fresh `pulumi stack init` export names neither).
    return RefuseMove(
        "cannot tell the destination's stack and project: it has no "
        "resources and its checkpoint does not name them; give --stack and "
        "--project (nothing written)");
  } else {
    dstack = req.dest_stack;
    dproject = req.dest_project;
  }
  if (root_urn.empty()) {
    root_urn = state::FormatUrn(dstack, dproject, state::kRootStackType,
                                dproject + "-" + dstack);
    mp.new_root = root_urn;
  }
  std::unordered_set<std::string> dest_urns;
  for (std::size_t i = 0; i < dlist.size(); ++i) {
    dest_urns.emplace(destination.Urn(i));
  }
  Plan& rw = mp.rewrite;
  if (root != kNoStr) rw.urn_map[std::string(source.Text(root))] = root_urn;

  // New URNs, parents first (a parent's new URN gives its children's
  // qualified type).
  std::vector<std::optional<std::string>> new_urn(list.size());
  std::unordered_map<StrId, std::string> new_of;
  std::vector<std::pair<std::size_t, ResourceEdit>> moved_edits;
  auto rename = [&](std::size_t i, const std::string& parent_urn) {
    auto u = state::ParseUrn(source.Urn(i));
    std::string base = u ? std::string(u->type()) : std::string();
    std::string qualified = base;
    if (!parent_urn.empty()) {
      auto p = state::ParseUrn(parent_urn);
      if (p && p->type() != state::kRootStackType) {
        qualified = std::string(p->qualified_type) + "$" + base;
      }
    }
    return state::FormatUrn(dstack, dproject, qualified,
                            u ? u->name : source.Urn(i));
  };
  std::function<const std::string&(std::size_t)> resolve =
      [&](std::size_t i) -> const std::string& {
    if (auto f = new_of.find(list[i].urn); f != new_of.end()) return f->second;
    std::string parent;
    StrId p = list[i].parent;
    if (p != kNoStr) {
      std::vector<std::size_t> at = source.FindId(p);
      parent =
          !at.empty() && moved[at[0]] && at[0] != i ? resolve(at[0]) : root_urn;
    }
    return new_of.emplace(list[i].urn, rename(i, parent)).first->second;
  };
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!moved[i]) continue;
    const std::string& urn = resolve(i);
    if (dest_urns.count(urn)) {
      return RefuseMove("resource " + urn +
                        " already exists in destination stack: nothing "
                        "written");
    }
    rw.urn_map[std::string(source.Urn(i))] = urn;
    mp.moved.emplace_back(source.Urn(i), urn);
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!moved[i]) continue;
    ResourceEdit e;
    e.urn = new_of[list[i].urn];
    if (list[i].parent != kNoStr) {
      std::vector<std::size_t> at = source.FindId(list[i].parent);
      e.parent =
          !at.empty() && moved[at[0]] ? new_of[list[i].parent] : root_urn;
    }
    moved_edits.emplace_back(i, std::move(e));
  }

  // Providers: copied, stack and project rewritten, re-parented to the
  // destination's root unless their parent moves; reused when the
  // destination has the URN with the same ID, or with the same inputs
  // (then references take the destination's ID).
  std::vector<bool> copy(list.size(), false);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!moved[i] || list[i].provider_urn == kNoStr) continue;
    std::string_view why;
    auto ref =
        state::ParseProviderReference(source.Text(list[i].provider), &why);
    if (!ref) continue;
    for (std::size_t p : source.FindId(list[i].provider_urn)) {
      if (source.Text(list[p].id) == ref->id) copy[p] = true;
    }
  }
  std::vector<std::pair<std::size_t, ResourceEdit>> providers;
  for (std::size_t p = 0; p < list.size(); ++p) {
    if (!copy[p]) continue;
    auto u = state::ParseUrn(source.Urn(p));
    if (!u) continue;
    std::string purn =
        state::FormatUrn(dstack, dproject, u->qualified_type, u->name);
    rw.urn_map[std::string(source.Urn(p))] = purn;
    std::string_view pid = source.Text(list[p].id);
    std::vector<std::size_t> there = destination.Find(purn);
    if (!there.empty()) {
      bool same_id = false;
      for (std::size_t q : there) {
        if (destination.Text(dlist[q].id) == pid) same_id = true;
      }
      if (same_id) {
        mp.providers_reused.emplace_back(source.Urn(p), purn);
        continue;
      }
      if (same_inputs && same_inputs(p, there[0])) {
        rw.provider_refs[std::string(source.Urn(p)) + "::" + std::string(pid)] =
            purn + "::" + std::string(destination.Text(dlist[there[0]].id));
        mp.providers_reused.emplace_back(source.Urn(p), purn);
        continue;
      }
      return RefuseMove("provider " + purn +
                        " already exists in destination stack with another "
                        "ID and other inputs: nothing written");
    }
    mp.providers_copied.emplace_back(source.Urn(p), purn);
    ResourceEdit e;
    e.urn = purn;
    if (list[p].parent != kNoStr) {
      e.parent = moved_urn[list[p].parent] ? new_of[list[p].parent] : root_urn;
    }
    providers.emplace_back(p, std::move(e));
  }
  mp.added = std::move(providers);
  for (auto& m : moved_edits) mp.added.push_back(std::move(m));

  // References to what the destination will not have are pruned (a
  // copied provider's dependencies on resources that stay).
  rw.prune = true;
  for (const std::string& urn : dest_urns) rw.existing.Insert(urn);
  rw.existing.Insert(root_urn);
  for (const auto& [i, e] : mp.added) rw.existing.Insert(*e.urn);

  mp.source.drop = moved;
  mp.source.pending.resize(source.pending.size());
  mp.destination.drop.assign(dlist.size(), false);
  mp.destination.pending.resize(destination.pending.size());
  mp.notes.push_back(
      "moved " + std::to_string(count) +
      (count == 1 ? " resource" : " resources") + " and copied " +
      std::to_string(mp.added.size() - moved_edits.size()) +
      (mp.added.size() - moved_edits.size() == 1 ? " provider" : " providers"));
  return out;
}

}  // namespace pstate::edit
