// `pstate history`: the update history of a DIY backend's stacks
// (backend/backend.h), and what can be done with it: list it, restore a
// version, prune old files, and find the updates that touched a resource.
// Typed results; src/report/history.cc formats them.
#ifndef PSTATE_HISTORY_HISTORY_H_
#define PSTATE_HISTORY_HISTORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backend/backend.h"
#include "base/result.h"
#include "diff/differ.h"

namespace pstate::history {

// ---- pstate history BACKEND_DIR --------------------------------------------

using StackSummary = ::pstate::StackSummary;  // pstate/pstate.h

/// Every stack of the backend holding (or held by) `dir`.
Result<std::vector<StackSummary>> SummarizeBackend(const std::string& dir);

// ---- pstate history STACKREF -----------------------------------------------

/// A stack named by its current checkpoint's path (pstate/pstate.h).
using Target = ::pstate::HistoryTarget;

/// Opens the stack whose checkpoint `path` is; kInvalidArgument when it is
/// not a checkpoint inside a backend.
Result<Target> OpenTarget(const std::string& path);

using CopyState = ::pstate::CopyState;  // pstate/pstate.h
std::string_view CopyStateName(CopyState state);

using UpdateRow = ::pstate::UpdateRow;  // pstate/pstate.h

/// The updates of `target`, newest first; with `verify`, each checkpoint
/// copy is verified (otherwise only the small history files are read).
std::vector<UpdateRow> ListUpdates(const Target& target, bool verify);

// ---- pstate history restore ------------------------------------------------

using RestoreConfig = ::pstate::HistoryRestoreConfig;  // pstate/pstate.h

using RestoreResult = ::pstate::HistoryRestoreResult;

/// Writes the version as a `pulumi stack import` export (`output`), or
/// makes it the stack's current checkpoint (`in_place`, the current one
/// kept as `.bak`). The version must verify without errors (kRefused
/// otherwise); in place is refused (kRefused) while the stack has a lock
/// file.
Result<RestoreResult> Restore(const RestoreConfig& config);

// ---- pstate history prune --------------------------------------------------

/// "30d", "12h", "90m", "45s", "2w" as seconds; nullopt when not one.
std::optional<std::int64_t> ParseDuration(std::string_view text);

using PruneConfig = ::pstate::HistoryPruneConfig;  // pstate/pstate.h

using PruneFile = ::pstate::PruneFile;

using PruneResult = ::pstate::HistoryPruneResult;

/// The history and backup files beyond the retention (every condition
/// given must hold: beyond the newest `keep` updates, older than
/// `older_than_s`), deleted with `yes`. A stack's current checkpoint and
/// its `.bak` are never touched. A stack named directly is refused
/// (kRefused) while locked; in a backend, locked stacks are skipped.
Result<PruneResult> Prune(const PruneConfig& config);

// ---- pstate history blame --------------------------------------------------

/// The API's (pstate/pstate.h).
using BlameConfig = ::pstate::HistoryBlameConfig;
using BlameKind = ::pstate::BlameKind;
using BlameEvent = ::pstate::BlameEvent;
using BlameResult = ::pstate::HistoryBlameResult;
using ::pstate::BlameKindName;

/// The updates in which the resource was created, changed, renamed or
/// deleted, found by diffing consecutive checkpoint copies (diff::Run:
/// only resources whose bytes differ are re-read); with a property path,
/// only changes of that value (or of a value holding it).
Result<BlameResult> Blame(const BlameConfig& config);

}  // namespace pstate::history

#endif  // PSTATE_HISTORY_HISTORY_H_
