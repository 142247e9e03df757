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

struct StackSummary {
  backend::Stack stack;
  std::size_t updates = 0;
  std::optional<backend::HistoryEntry> last;  ///< the newest update
  /// Resources of the current checkpoint; nullopt when it cannot be read
  /// (`error` says why).
  std::optional<std::uint64_t> resources;
  std::string error;
  std::uint64_t history_bytes = 0;  ///< history records and copies
  std::uint64_t backup_bytes = 0;   ///< .pulumi/backups/ files
  bool locked = false;
};

/// Every stack of the backend holding (or held by) `dir`.
Result<std::vector<StackSummary>> SummarizeBackend(const std::string& dir);

// ---- pstate history STACKREF -----------------------------------------------

/// A stack named by its current checkpoint's path, with its history.
struct Target {
  backend::Stack stack;
  std::vector<backend::HistoryEntry> history;  ///< oldest first
};

/// Opens the stack whose checkpoint `path` is; kInvalidArgument when it is
/// not a checkpoint inside a backend.
Result<Target> OpenTarget(const std::string& path);

enum class CopyState {
  kMissing,   ///< the update kept no checkpoint copy
  kPresent,   ///< a copy exists (not verified)
  kVerified,  ///< the copy verifies without errors
  kInvalid,   ///< the copy has errors or cannot be read
};
std::string_view CopyStateName(CopyState state);

struct UpdateRow {
  backend::HistoryEntry entry;
  CopyState copy = CopyState::kMissing;
  std::uint64_t errors = 0;  ///< with kInvalid
};

/// The updates of `target`, newest first; with `verify`, each checkpoint
/// copy is verified (otherwise only the small history files are read).
std::vector<UpdateRow> ListUpdates(const Target& target, bool verify);

// ---- pstate history restore ------------------------------------------------

struct RestoreConfig {
  std::string ref;  ///< CHECKPOINT@VERSION
  std::string output;
  bool in_place = false;
};

struct RestoreResult {
  std::string version_file;  ///< the file the version was read from
  std::string written;       ///< the output, or the stack's checkpoint
  std::string backup;        ///< with in_place: the `.bak` kept
  /// From the current checkpoint to the restored version.
  diff::DiffSummary changes;
};

/// Writes the version as a `pulumi stack import` export (`output`), or
/// makes it the stack's current checkpoint (`in_place`, the current one
/// kept as `.bak`). The version must verify without errors (kRefused
/// otherwise); in place is refused (kRefused) while the stack has a lock
/// file.
Result<RestoreResult> Restore(const RestoreConfig& config);

// ---- pstate history prune --------------------------------------------------

/// "30d", "12h", "90m", "45s", "2w" as seconds; nullopt when not one.
std::optional<std::int64_t> ParseDuration(std::string_view text);

struct PruneConfig {
  std::string target;  ///< a backend directory or a stack's checkpoint
  std::optional<std::size_t> keep;           ///< newest updates kept
  std::optional<std::int64_t> older_than_s;  ///< only files older than this
  std::int64_t now_unix_nano = 0;            ///< "now" for older_than_s
  bool yes = false;                          ///< delete (else list only)
};

struct PruneFile {
  std::string stack;  ///< qualified name
  std::string kind;   ///< "history", "checkpoint-copy", "backup"
  std::string path;
  std::uint64_t bytes = 0;
  std::int64_t unix_nano = 0;
};

struct PruneResult {
  std::vector<PruneFile> files;  ///< beyond the retention
  std::uint64_t bytes = 0;
  bool deleted = false;
  std::vector<std::string> locked;  ///< stacks skipped: a lock file exists
};

/// The history and backup files beyond the retention (every condition
/// given must hold: beyond the newest `keep` updates, older than
/// `older_than_s`), deleted with `yes`. A stack's current checkpoint and
/// its `.bak` are never touched. A stack named directly is refused
/// (kRefused) while locked; in a backend, locked stacks are skipped.
Result<PruneResult> Prune(const PruneConfig& config);

// ---- pstate history blame --------------------------------------------------

struct BlameConfig {
  std::string ref;  ///< a stack's checkpoint
  std::string urn;
  std::string path;  ///< "": any change; else a Pulumi property path
};

enum class BlameKind { kPresent, kCreated, kChanged, kRenamed, kDeleted };
std::string_view BlameKindName(BlameKind kind);

struct BlameEvent {
  BlameKind kind = BlameKind::kChanged;
  backend::HistoryEntry entry;  ///< the update that made the change
  /// Updates between the previous version read and this one that kept no
  /// checkpoint copy: the change happened in one of them or in this one.
  std::vector<int> uncertain;
  std::string urn;   ///< the URN after the update
  std::string from;  ///< a rename's old URN
  /// Changed properties (inputs, outputs) and fields, as diff reports
  /// them; values of secrets are "[secret]" (diff's masking). With a
  /// property path: only the properties on that path, no fields.
  diff::ResourceChanges changes;
};

struct BlameResult {
  std::vector<BlameEvent> events;  ///< oldest first
  std::size_t versions = 0;        ///< checkpoint copies compared
};

/// The updates in which the resource was created, changed, renamed or
/// deleted, found by diffing consecutive checkpoint copies (diff::Run:
/// only resources whose bytes differ are re-read); with a property path,
/// only changes of that value (or of a value holding it).
Result<BlameResult> Blame(const BlameConfig& config);

}  // namespace pstate::history

#endif  // PSTATE_HISTORY_HISTORY_H_
