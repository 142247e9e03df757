// Planning an edit on the index alone (no bytes): which resources go,
// which change and how, the order they end up in, and every refusal with
// the reason Pulumi would give (reference: state-operations.md §3,
// pulumi-state-format.md §4.5). Pure functions: unit-testable without
// files.
#ifndef PSTATE_EDIT_PLAN_H_
#define PSTATE_EDIT_PLAN_H_

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/fingerprint.h"
#include "base/fingerprint_table.h"
#include "base/result.h"
#include "edit/index.h"
#include "edit/records.h"
#include "json/string_codec.h"

namespace pstate::edit {

/// The API's (pstate/pstate.h: EditOperation, one list of operations).
using Operation = ::pstate::EditOperation;

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
  /// extract: the selection's dependencies (and theirs) come along too.
  bool with_dependencies = false;
  /// move: the selection's ancestors move too (the root stack and
  /// providers excepted).
  bool include_parents = false;
  /// delete: protected resources may go (Pulumi's --force).
  bool force = false;
  /// Write a result that has error findings the input does not have
  /// (never implied by `force`).
  bool allow_new_errors = false;
  std::string pending_type;  ///< clear-pending --type ("" = any)
  std::string pending_urn;   ///< clear-pending --urn ("" = any)
  /// move: the destination's stack and project when it has no resources
  /// to tell them (--stack/--project, or its checkpoint's "stack"); when
  /// it has, they must agree with its URNs.
  std::string dest_stack, dest_project;
  /// The `ls` filters: the resources they match are targets too (with
  /// `urns`, whose entries may also be a resource's unique name).
  state::Selector select;
};

/// Whether `op` takes resources to act on: URNs, unique names and the
/// `ls` filters (Request::select).
bool TakesSelection(Operation op);

/// The resources a request names, resolved on the index.
struct Selection {
  std::vector<std::string> urns;  ///< each once, arguments first
  /// Names or filters were used: the selection is worth printing.
  bool shown = false;
  bool refused = false;
  std::string refusal;
};

/// Resolves `args` and `selector` on `index`: an argument that is a URN
/// stays as it is (Pulumi's exact URNs; an unknown one is refused later
/// with suggestions); any other argument is a resource name (the URN's
/// last part), accepted when exactly one URN has it; then every URN whose
/// resource `selector` matches, in state order. Refused when a name is
/// unknown or ambiguous, or when nothing is selected.
Selection Select(const Index& index, const std::vector<std::string>& args,
                 const state::Selector& selector);

/// How one resource changes (beyond the URN map, which applies to all).
struct ResourceEdit {
  std::optional<std::string> urn;
  std::optional<std::string> id;
  std::optional<std::string> parent;  ///< "" removes the member
  std::optional<bool> protect;
  std::optional<bool> taint;
};

/// A resource the edit adds (move's destination), already written in the
/// layout of the array it joins.
struct Addition {
  std::string urn;
  std::string text;
  std::uint32_t features = 0;  ///< state::ResourceFeatures of the resource
};

/// A set of URNs. Those an index's string table holds (every URN of the
/// state) are a bit each, by string id; any other is held as its
/// fingerprint (base/fingerprint.h), rather than a string and a hash node
/// per URN.
class UrnSet {
 public:
  UrnSet() = default;
  /// A set whose URNs in `strings` (which must outlive it) are bits.
  explicit UrnSet(const StringTable& strings)
      : strings_(&strings), ids_(strings.size(), false) {}
  void Insert(std::string_view urn) {
    if (StrId id = IdOf(urn); id != kNoStr) {
      ids_[id] = true;
    } else {
      others_.Insert(FingerprintOf(urn));
    }
  }
  bool Contains(std::string_view urn) const {
    StrId id = IdOf(urn);
    return id != kNoStr ? ids_[id] : others_.Contains(FingerprintOf(urn));
  }

 private:
  StrId IdOf(std::string_view urn) const {
    if (strings_ == nullptr) return kNoStr;
    StrId id = strings_->Find(urn);
    return id < ids_.size() ? id : kNoStr;
  }
  const StringTable* strings_ = nullptr;
  std::vector<bool> ids_;
  FingerprintTable<NoValue> others_;
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
  /// Exact provider references (`<URN>::<ID>`) replaced as a whole, before
  /// urn_map applies to their URN part (move: a provider the destination
  /// already has under another ID).
  std::unordered_map<std::string, std::string> provider_refs;
  /// Resources added before the first and after the last one (move).
  std::vector<Addition> prepend, append;
  /// Repair: references to URNs not in this set are removed (dependencies,
  /// propertyDependencies, deletedWith, replaceWith).
  bool prune = false;
  UrnSet existing;
  /// The output order of the resources kept (positions in the index);
  /// empty keeps the input order.
  std::vector<std::size_t> order;
  std::vector<PendingEdit> pending;
  /// The URNs selected by names or filters (Selection::shown), to print.
  std::vector<std::string> selected;
  /// The input's escaping when the caller has read it (InputStyle in
  /// splice.h); else Assemble reads it.
  std::optional<json::EscapeStyle> style;
  /// Lines saying what the plan does that the change list cannot show
  /// (repair's reorderings and prunings, warnings such as --force):
  /// repair's are typed records (a repair of a long chain has one a
  /// resource), rendered from the index and this plan when printed.
  Notes notes;
};

/// The final URN of resource `i` of `index` under `plan`.
std::string NewUrn(const Index& index, const Plan& plan, std::size_t i);

/// A plan, or the reason the edit is refused (exit 1, nothing written).
struct Planned {
  Plan plan;
  bool refused = false;
  std::string refusal;
};

/// `pstate edit move`: the plans of both states.
struct MovePlan {
  /// The source without the moved resources.
  Plan source;
  /// The destination: its root stack to create ("" when it has one), then
  /// the resources to add after its own, in order: source positions with
  /// their edit (new URN and parent). Rendered against `rewrite` by the
  /// caller into destination.prepend/append.
  Plan destination;
  std::string new_root;
  std::vector<std::pair<std::size_t, ResourceEdit>> added;
  /// Old URN -> new URN for every resource that goes (and the source's
  /// root stack -> the destination's), provider references, and the
  /// destination's URNs after the move (references to others are pruned).
  Plan rewrite;
  std::vector<std::string> selected;
  std::vector<std::string> notes;
  /// Old URN -> new URN of each resource that moves, in source order, and
  /// of each provider copied to the destination; providers the destination
  /// already has (same URN and ID, or same inputs) are reused.
  std::vector<std::pair<std::string, std::string>> moved;
  std::vector<std::pair<std::string, std::string>> providers_copied;
  std::vector<std::pair<std::string, std::string>> providers_reused;
};

/// A dependency the move would cut (the API's, pstate/pstate.h).
using BrokenDependency = ::pstate::MoveBrokenDependency;

struct PlannedMove {
  MovePlan plan;
  bool refused = false;
  std::string refusal;
  /// Why a move was refused, when dependencies would break.
  std::vector<BrokenDependency> broken;
};

/// Whether the destination's provider `destination` (a position) has the
/// inputs of the source's `source`: then a provider the destination has
/// under another ID is reused.
using SameInputs =
    std::function<bool(std::size_t source, std::size_t destination)>;

/// Plans `pulumi state move` (pkg/cmd/pulumi/state/state_move.go) from
/// `source` to `destination`, offline. What moves: the selection
/// (request.urns, names and request.select; naming the root stack means
/// its children), every descendant of it (providers excepted), and with
/// request.include_parents its ancestors (the root stack and providers
/// excepted). Every provider a moved resource uses is copied (it stays in
/// the source): the destination's copy with the same URN is reused when it
/// has the same ID or the same inputs. URNs get the destination's stack
/// and project; a moved resource whose parent stays is re-parented to the
/// destination's root stack, and its qualified type follows its new
/// parent. Refused: a provider named, a URN not in the source, a pending
/// operation on a moved resource, a moved URN the destination already has,
/// a destination whose stack cannot be told (no resources), and, unlike
/// Pulumi (which drops such references with a warning), any dependency
/// that would cross the two files.
Result<PlannedMove> PlanMove(const Index& source, const Index& destination,
                             const Request& request,
                             const SameInputs& same_inputs);

/// "No such resource ... exists in the state", with suggestions.
std::string NotFound(const Index& index, const std::string& urn);

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
