// Planning an edit on the index alone (no bytes): which resources go,
// which change and how, the order they end up in, and every refusal with
// the reason Pulumi would give (reference: state-operations.md §3,
// pulumi-state-format.md §4.5). Pure functions: unit-testable without
// files.
#ifndef PSTATE_EDIT_PLAN_H_
#define PSTATE_EDIT_PLAN_H_

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/result.h"
#include "edit/index.h"

namespace pstate::edit {

enum class Operation {
  kDelete,
  kRename,
  kRenameStack,
  kReparent,
  kProtect,
  kUnprotect,
  kTaint,
  kUntaint,
  kClearPending,
  kImportPending,
  kRepair,
};

/// "delete", "rename", ... as typed on the command line.
std::string_view OperationName(Operation op);

struct Request {
  Operation op = Operation::kRepair;
  std::vector<std::string> urns;  ///< targets (delete, flags, rename, ...)
  bool all = false;         ///< delete: every resource; flags: every live one
  std::string id;           ///< delete --id; import-pending's ID
  std::string new_name;     ///< rename; rename-stack: the new stack
  std::string new_project;  ///< rename-stack ("" keeps the project)
  std::string new_parent;   ///< reparent
  bool target_dependents = false;
  /// delete: protected resources may go (Pulumi's --force).
  bool force = false;
  /// Write a result that has error findings the input does not have
  /// (never implied by `force`).
  bool allow_new_errors = false;
  std::string pending_type;  ///< clear-pending --type ("" = any)
  std::string pending_urn;   ///< clear-pending --urn ("" = any)
};

/// How one resource changes (beyond the URN map, which applies to all).
struct ResourceEdit {
  std::optional<std::string> urn;
  std::optional<std::string> id;
  std::optional<std::string> parent;  ///< "" removes the member
  std::optional<bool> protect;
  std::optional<bool> taint;
};

struct PendingEdit {
  bool drop = false;
  std::optional<std::string> id;
  std::optional<std::string> type;
};

struct Plan {
  /// Per resource of the index: left out of the output.
  std::vector<bool> drop;
  std::map<std::size_t, ResourceEdit> edits;
  /// Old URN -> new URN, applied to every reference of every resource and
  /// pending operation (parent, dependencies, propertyDependencies,
  /// deletedWith, replaceWith, provider, aliases, viewOf, resource
  /// references in property values).
  std::unordered_map<std::string, std::string> urn_map;
  /// Repair: references to URNs not in this set are removed (dependencies,
  /// propertyDependencies, deletedWith, replaceWith).
  bool prune = false;
  std::unordered_set<std::string> existing;
  /// The output order of the resources kept (positions in the index);
  /// empty keeps the input order.
  std::vector<std::size_t> order;
  std::vector<PendingEdit> pending;
  /// Lines saying what the plan does that the change list cannot show
  /// (repair's reorderings and prunings, warnings such as --force).
  std::vector<std::string> notes;
};

/// A plan, or the reason the edit is refused (exit 1, nothing written).
struct Planned {
  Plan plan;
  bool refused = false;
  std::string refusal;
};

/// Plans `request` on `index`. Usage errors (a malformed URN, a NEW_NAME
/// that is a URN, an unknown --type) are kInvalidArgument.
Result<Planned> MakePlan(const Index& index, const Request& request);

/// The resources after `target` (a position) that depend on that copy
/// only, as Pulumi's OnlyDependsOn counts them (pkg/resource/graph/
/// dependency_graph.go): in one pass down the list, a later resource
/// depends on the target when its parent, dependencies,
/// propertyDependencies, deletedWith or replaceWith name a URN whose
/// copies seen so far are all dependents (one copy, for the lists), or
/// its provider reference names a dependent copy by URN and ID. A copy
/// before the target, or an earlier copy that is not a dependent, answers
/// the reference; a copy later than the referrer does not. Resources
/// marked in `gone` are skipped. In input order.
std::vector<std::size_t> OnlyDependsOn(const Index& index, std::size_t target,
                                       const std::vector<bool>& gone);

/// Positions of the resources that must go with `targets` when they are
/// deleted: OnlyDependsOn of each target in turn, the last first, on what
/// the others left (pkg/cmd/pulumi/state/state_delete.go deletes them one
/// by one). Sorted, targets excluded.
std::vector<std::size_t> Dependents(const Index& index,
                                    const std::vector<std::size_t>& targets);

/// The resources (positions) in an order where every reference that
/// resolves points backwards, moving as little as possible: Kahn's
/// algorithm taking the lowest input position first, so a valid order is
/// kept and a resource that comes too early moves down right after what it
/// needs. `parents` and the URN map of `plan` (when given) are applied
/// first. Fails (kFormat) on a cycle.
Result<std::vector<std::size_t>> TopologicalOrder(const Index& index,
                                                  const std::vector<bool>& drop,
                                                  const Plan* plan);

/// The order `pulumi state repair` sorts the resources into
/// (pkg/resource/deploy/snapshot.go, Toposort): a post-order depth-first
/// search from each resource in input order, so a resource's dependencies
/// (parent, dependencies, propertyDependencies, deletedWith, replaceWith,
/// provider; with duplicates a pending-delete resource needs the last
/// pending-delete copy, any other the last live copy) move up to just
/// before the first resource that needs them. Where Pulumi visits a
/// resource's dependencies in Go map order (none), they are visited lowest
/// position first. Fails (kFormat) on a cycle, naming it.
Result<std::vector<std::size_t>> RepairOrder(const Index& index);

/// The URN `urn` gets under a parent whose URN is `parent_urn` ("" or the
/// root stack: no prefix), keeping its own type and name.
std::string UrnUnderParent(const std::string& urn,
                           const std::string& parent_urn);

}  // namespace pstate::edit

#endif  // PSTATE_EDIT_PLAN_H_
