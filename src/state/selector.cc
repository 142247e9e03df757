#include "state/selector.h"

#include "base/glob.h"
#include "state/urn.h"

namespace pstate::state {
namespace {

bool Glob(const std::optional<std::string>& pattern, std::string_view s) {
  return !pattern || GlobMatch(*pattern, s);
}

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

bool Selector::Matches(const Selectable& r) const {
  if (!Glob(type, r.type) || !Glob(urn, r.urn) || !Glob(provider, r.provider)) {
    return false;
  }
  if (name) {
    auto parsed = ParseUrn(r.urn);
    if (!GlobMatch(*name, parsed ? parsed->name : std::string_view())) {
      return false;
    }
  }
  if (parent && r.parent != *parent) return false;
  for (Flag f : flags) {
    if ((r.flags & FlagBit(f)) == 0) return false;
  }
  return true;
}

}  // namespace pstate::state
