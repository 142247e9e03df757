// The inspection commands' core: `pstate ls`, `show`, `tree`, `stats`
// (issue 13 §1). Each reads the state once, streaming, and returns data;
// report/inspect.h turns that data into text or JSON. Memory: ls keeps
// nothing per resource; show keeps the one resource and the URNs that
// refer to it; tree keeps about 32 bytes and the name per resource
// (TreeResult; the tree cannot be printed before its last resource is
// read); stats keeps counters per package, type and provider and the N
// largest resources.
#ifndef PSTATE_INSPECT_INSPECT_H_
#define PSTATE_INSPECT_INSPECT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "diff/resource_diff.h"
#include "json/document.h"
#include "state/selector.h"

namespace pstate::inspect {

/// The flags and their names are state/selector.h's (shared with edit).
using Flag = state::Flag;
using state::FlagName;
using state::kAllFlags;
using state::ParseFlag;

/// The API's (pstate/pstate.h).
using ResourceRow = ::pstate::ResourceRow;

using PendingRow = ::pstate::PendingRow;

/// The filters (state::Selector: shell globs of base/glob.h,
/// case-sensitive; every filter given must match), the same edit's
/// selections use.
/// state::ReadOptions::on_progress: (bytes read, input size or 0).
using Progress = std::function<void(std::uint64_t, std::uint64_t)>;

struct ListConfig : state::Selector {
  std::string path;      ///< "-" reads standard input
  bool pending = false;  ///< list pending operations instead
  Progress on_progress;
  /// Threads that read resources (engine::Options::jobs): rows still come
  /// in state order, and the same rows.
  int jobs = 1;
};

/// Streams the rows that match to `on_row` (or `on_pending`), on the
/// calling thread, in state order; `on_row` returns false to stop early (a
/// --limit reached). An engine pass: with `jobs` > 1 on a plain file,
/// workers read the resources and build rows, the calling thread gets them
/// in order.
Status List(const ListConfig& config,
            const std::function<bool(const ResourceRow&)>& on_row,
            const std::function<bool(const PendingRow&)>& on_pending);

// ---- show -------------------------------------------------------------------

struct ShowConfig {
  std::string path;
  std::string urn;                   ///< or:
  std::optional<std::size_t> index;  ///< position in `resources`
  bool show_secrets = false;
  /// As diff::DiffConfig::passphrase.
  std::function<Result<std::string>()> passphrase;
};

using Dependent = ::pstate::Dependent;

/// The API's (pstate/pstate.h): inputs and outputs for display
/// (diff::DisplayValue: secrets hidden or, with show_secrets, shown).
using ShowResult = ::pstate::ShowResult;

/// kNotFound when no resource has the URN (or index).
Result<ShowResult> Show(const ShowConfig& config);

// ---- tree -------------------------------------------------------------------

/// The API's (pstate/pstate.h), built here.
using TreeResult = ::pstate::TreeResult;

/// Children hang under the first live resource with their parent's URN;
/// resources whose parent is missing (and members of a parent cycle) are
/// roots, as `pulumi stack` shows orphans. Building it needs about 64
/// bytes more a resource (a URN fingerprint table), freed before it is
/// returned.
Result<TreeResult> Tree(const std::string& path,
                        const Progress& on_progress = {});

// ---- stats ------------------------------------------------------------------

/// The API's (pstate/pstate.h).
using Tally = ::pstate::Tally;

using StatsResult = ::pstate::StatsResult;

/// Where a resource's bytes go (the API's, pstate/pstate.h).
using Sections = ::pstate::StatsSections;

/// Why a state is big: `stats`' byte split (the API's).
using SizeStats = ::pstate::StatsSizes;

/// How many of each type's largest properties `stats` lists.
inline constexpr std::size_t kTopProperties = 3;

struct StatsConfig {
  std::string path;                             ///< "-" reads standard input
  std::size_t top = 10;                         ///< the N largest resources
  std::size_t top_properties = kTopProperties;  ///< per type, with sizes
  Progress on_progress;
  int jobs = 1;  ///< as ListConfig::jobs; the result does not change
};

/// An engine pass: each resource is counted and split on a worker, the
/// counts are summed in state order. `sizes`, when given, gets the byte
/// split.
Result<StatsResult> Stats(const StatsConfig& config,
                          SizeStats* sizes = nullptr);

}  // namespace pstate::inspect

#endif  // PSTATE_INSPECT_INSPECT_H_
