// Choosing resources as people think of them: the filters `pstate ls` takes
// (--type, --name, --urn, --provider GLOB; --parent URN; --flag F), shared
// by ls and by every edit operation that takes URNs (and extract), so the
// two always select the same resources. Globs are the one dialect of
// base/glob.h, case-sensitive (types and URNs are case-sensitive
// identifiers in Pulumi).
#ifndef PSTATE_STATE_SELECTOR_H_
#define PSTATE_STATE_SELECTOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace pstate::state {

/// The API's (pstate/pstate.h).
using Flag = ::pstate::ResourceFlag;
inline constexpr auto& kAllFlags = ::pstate::kResourceFlags;

/// "protect", "taint", "delete", "external", "pending-replacement",
/// "retain-on-delete".
std::string_view FlagName(Flag flag);
std::optional<Flag> ParseFlag(std::string_view name);

/// A set of flags, one bit per Flag (bit `static_cast<int>(flag)`).
using FlagSet = std::uint8_t;
inline constexpr FlagSet FlagBit(Flag flag) {
  return static_cast<FlagSet>(1U << static_cast<unsigned>(flag));
}

struct ResourceFlags;  // state/resource.h
/// The flags of `flags` that are set, as a FlagSet.
FlagSet ToFlagSet(const ResourceFlags& flags);

/// What a selector looks at of one resource.
struct Selectable {
  std::string_view urn, type, parent;
  /// The provider reference as written (`<URN>::<ID>`).
  std::string_view provider;
  FlagSet flags = 0;
};

/// Every filter given must match; none given matches everything.
/// The filters are the API's ResourceFilter (pstate/pstate.h).
struct Selector : ResourceFilter {
  bool Matches(const Selectable& resource) const;
};

}  // namespace pstate::state

#endif  // PSTATE_STATE_SELECTOR_H_
