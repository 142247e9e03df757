#include "diff/order.h"

#include <algorithm>

#include "base/fingerprint.h"
#include "state/urn.h"

namespace pstate::diff {
namespace {

using pstate::Mix64;

/// The fingerprint of a JSON string's decoded text (never {0, 0}, which
/// marks an empty slot: base/fingerprint.h).
ResourceKey FingerprintOf(std::string_view decoded) {
  return UrnFingerprint(decoded);
}

ResourceKey FingerprintOf(const json::Value& s) {
  if (!s.has_escapes) return FingerprintOf(s.raw());
  return FingerprintOf(s.Str());
}

bool NonEmptyString(const json::Value* v) {
  return v != nullptr && v->is_string() && v->size > 0;
}

/// Calls `f(kind, string value)` on every reference of `view` to another
/// resource's URN (the dependency fields of state::kReferenceFields but
/// the provider reference), skipping empty strings, as GetAllDependencies
/// does.
template <typename F>
void ForEachUrnReference(const state::ResourceView& view, F&& f) {
  state::ForEachReference(view, [&](const state::ReferenceTarget& t) {
    if (!t.field.dependency || t.field.kind == state::RefKind::kProvider) {
      return;
    }
    if (NonEmptyString(&t.value)) f(t.field.kind, t.value);
  });
}

}  // namespace

std::uint64_t OrderBreak::PairKey() const {
  return Mix64(referrer.hi ^ Mix64(referrer.lo + target.hi) ^
               Mix64(target.lo + 0x9e3779b97f4a7c15ULL));
}

void OrderChecker::RefsOf(const state::ResourceView& view, OrderRefs* out) {
  out->has_urn = view.urn != nullptr && view.urn->is_string();
  out->self = out->has_urn ? FingerprintOf(*view.urn) : ResourceKey{0, 1};
  out->needs.clear();
  // Rule 6: the provider comes first, unless pendingReplacement.
  if (NonEmptyString(view.provider) &&
      !state::ResourceView::Flag(view.pending_replacement)) {
    out->needs.emplace_back(state::RefKind::kProvider,
                            FingerprintOf(*view.provider));
  }
  // Rule 7: every URN it depends on comes first.
  ForEachUrnReference(view, [&](state::RefKind field, const json::Value& v) {
    out->needs.emplace_back(field, FingerprintOf(v));
  });
  out->provides = out->has_urn && view.type != nullptr &&
                  view.type->is_string() &&
                  state::IsProviderType(view.type->Str());
  if (out->provides) {
    // Rule 5: the reference `<URN>::<ID>`, an empty ID as Pulumi's
    // unknown ID.
    std::string scratch;
    out->provider_reference = FingerprintOf(state::FormatProviderReference(
        view.urn->Str(), state::ResourceView::View(view.id, &scratch)));
  }
}

void OrderChecker::Add(const state::ResourceView& view) {
  RefsOf(view, &scratch_);
  Add(scratch_);
}

void OrderChecker::Add(const OrderRefs& refs) {
  for (const auto& [field, target] : refs.needs) {
    const FingerprintSet& seen =
        field == state::RefKind::kProvider ? providers_ : urns_;
    if (!seen.Contains(target)) {
      pending_.push_back({position_, field, refs.self, target});
    }
  }
  // The resource is known only after its own checks (a resource that
  // names itself needs an earlier copy).
  if (refs.has_urn) urns_.Insert(refs.self);
  if (refs.provides) providers_.Insert(refs.provider_reference);
  ++position_;
}

std::vector<OrderBreak> OrderChecker::Finish() {
  std::vector<OrderBreak> out;
  for (const OrderBreak& b : pending_) {
    const FingerprintSet& all =
        b.field == state::RefKind::kProvider ? providers_ : urns_;
    if (all.Contains(b.target)) out.push_back(b);
  }
  pending_.clear();
  pending_.shrink_to_fit();
  return out;
}

std::string OrderTargetText(const json::Value& resource, state::RefKind field,
                            const ResourceKey& target) {
  state::ResourceView view = state::ResourceView::Of(resource);
  std::string found;
  if (field == state::RefKind::kProvider) {
    if (NonEmptyString(view.provider) &&
        FingerprintOf(*view.provider) == target) {
      found = view.provider->Str();
    }
    return found;
  }
  ForEachUrnReference(view, [&](state::RefKind f, const json::Value& v) {
    if (found.empty() && f == field && FingerprintOf(v) == target) {
      found = v.Str();
    }
  });
  return found;
}

}  // namespace pstate::diff
