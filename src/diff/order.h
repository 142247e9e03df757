// Whether a state's resource order is one Pulumi accepts, checked while the
// state streams past, so `pstate diff` can tell a harmless reordering
// ("order-only") from one that breaks the state ("order-broken").
//
// The rules are Snapshot.VerifyIntegrity's (pkg/resource/deploy/
// snapshot.go; pulumi-state-format.md §4.1 rules 6 and 7): a resource's
// provider reference (`<URN>::<ID>`) must name a provider resource that
// comes earlier, unless the resource is pendingReplacement; its parent,
// each entry of dependencies, of every propertyDependencies list,
// deletedWith and each entry of replaceWith must name a URN that comes
// earlier (the references of pkg/resource/state.go: GetAllDependencies;
// empty strings are skipped). Only references to something that comes
// *later* are order breaks: a reference to nothing in the state is a
// dangling reference, which a reordering can neither cause nor fix.
//
// Memory: two fingerprint sets (16 bytes a URN, at most half full) and
// one record per reference not yet satisfied when it is read.
#ifndef PSTATE_DIFF_ORDER_H_
#define PSTATE_DIFF_ORDER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/fingerprint_table.h"
#include "diff/index.h"
#include "json/value.h"
#include "state/resource.h"
#include "state/schema.h"

namespace pstate::diff {

/// A resource that refers to one that comes after it.
struct OrderBreak {
  std::uint32_t position = 0;  ///< the referring resource's index
  state::RefKind field = state::RefKind::kDependency;
  ResourceKey referrer;  ///< UrnFingerprint of the referring resource's URN
  /// UrnFingerprint of the URN (or, for kProvider, of the whole provider
  /// reference) it needs first.
  ResourceKey target;
  /// The same break in another state: same referrer, same target.
  std::uint64_t PairKey() const;
};

/// What the order check needs of one resource, as fingerprints: made on
/// any thread (OrderChecker::RefsOf), fed in state order (Add).
struct OrderRefs {
  /// UrnFingerprint of the URN; {0, 1} when it has none.
  ResourceKey self{0, 1};
  bool has_urn = false;
  /// A provider resource: the fingerprint of the reference `<URN>::<ID>`
  /// that names it.
  bool provides = false;
  ResourceKey provider_reference;
  /// The URNs (and provider reference) that must come earlier.
  std::vector<std::pair<state::RefKind, ResourceKey>> needs;
};

class OrderChecker {
 public:
  /// Feeds the next resource of the state, in state order.
  void Add(const state::ResourceView& view);
  /// The same for a resource read elsewhere (a worker of the parallel
  /// executor made `refs`).
  void Add(const OrderRefs& refs);
  /// `view`'s references as Add needs them, into `out` (its vector's
  /// room is kept).
  static void RefsOf(const state::ResourceView& view, OrderRefs* out);
  /// The order breaks: references to a URN (or provider) that comes later
  /// in the state, in position order. Call once, after the last Add.
  std::vector<OrderBreak> Finish();

 private:
  OrderRefs scratch_;  ///< Add(view)'s, reused

  FingerprintSet urns_;
  FingerprintSet providers_;  ///< provider references `<URN>::<ID>`
  std::vector<OrderBreak> pending_;
  std::uint32_t position_ = 0;
};

/// The decoded text of the reference in `resource` that a break names
/// (`field`, `target`), or "" when there is none (the resource changed).
std::string OrderTargetText(const json::Value& resource, state::RefKind field,
                            const ResourceKey& target);

}  // namespace pstate::diff

#endif  // PSTATE_DIFF_ORDER_H_
