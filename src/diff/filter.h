// What `pstate diff` shows of a DiffResult: --type and --urn globs, and
// --ignore KIND for changes nobody reviews. Applied to the typed result
// before any renderer, so text, JSON and the exit code agree.
#ifndef PSTATE_DIFF_FILTER_H_
#define PSTATE_DIFF_FILTER_H_

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "diff/differ.h"

namespace pstate::diff {

struct DiffFilter {
  /// Keep resource entries whose type matches one of these globs (the one
  /// glob dialect, base/glob.h; case-sensitive as Pulumi's type tokens).
  std::vector<std::string> types;
  /// Keep resource entries whose URN (or, for a rename, former URN) matches
  /// one of these globs.
  std::vector<std::string> urns;
  /// --ignore timestamps: drop updates from one RFC 3339 time to another
  /// (property values, the created/modified fields, manifest.time).
  bool ignore_timestamps = false;
  bool empty() const {
    return types.empty() && urns.empty() && !ignore_timestamps;
  }
};

/// The --ignore KINDs: "timestamps". kInvalidArgument names the others.
[[nodiscard]] Status AddIgnoreKind(std::string_view kind, DiffFilter* filter);

/// Drops what `filter` leaves out. A changed resource left with no change
/// counts as unchanged; entries the globs drop are no longer counted in the
/// summary's added/removed/renamed/changed/order counts.
void ApplyFilter(const DiffFilter& filter, DiffResult* result);

}  // namespace pstate::diff

#endif  // PSTATE_DIFF_FILTER_H_
