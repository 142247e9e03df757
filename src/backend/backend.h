// A Pulumi DIY backend on disk (a local directory, or a bucket synced to
// one): its stacks, their update history, backups and locks, laid out as
// Pulumi's pkg/backend/diy writes them (store.go, backend.go, lock.go):
//
//   .pulumi/stacks/<stack>.json[.gz|.zst]              legacy layout
//   .pulumi/stacks/<project>/<stack>.json[.gz|.zst]    project layout
//   <checkpoint>.bak                                   previous checkpoint
//   .pulumi/history/[<project>/]<stack>/<name>-<unixnano>.history.json[...]
//       backend.UpdateInfo of one update (kind, result, times, changes)
//   .pulumi/history/[<project>/]<stack>/<name>-<unixnano>.checkpoint.json[...]
//       the checkpoint after that update (absent when none was copied)
//   .pulumi/backups/[<project>/]<stack>/<stack>.<unixnano>.json[...]
//   .pulumi/locks/organization/<project>/<stack>/<lockid>.json   (project)
//   .pulumi/locks/<stack>/<lockid>.json                          (legacy)
//
// <name> is the stack's name when the update ran: `pulumi stack rename`
// moves the history directory but not the file names, so a history
// directory can hold files of several names.
#ifndef PSTATE_BACKEND_BACKEND_H_
#define PSTATE_BACKEND_BACKEND_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace pstate::backend {

/// One stack of a backend (the API's, pstate/pstate.h).
using Stack = ::pstate::BackendStack;

/// The directory holding `.pulumi` for `path`: `path` itself, the
/// directory above when `path` is the `.pulumi` directory, or the nearest
/// ancestor (of a file or directory inside the backend) that holds one.
/// kNotFound when there is none.
Result<std::string> FindRoot(const std::string& path);

/// Every stack of the backend at `root` (both layouts), by project, then
/// name. Files that are not checkpoints (`.bak`, tags, retained copies)
/// are skipped, as Pulumi's ListReferences skips them.
Result<std::vector<Stack>> ListStacks(const std::string& root);

/// The stack whose checkpoint `path` is (a file under
/// `.pulumi/stacks/`). kInvalidArgument when `path` is not one.
Result<Stack> StackOfCheckpoint(const std::string& path);

/// backend.UpdateInfo (the API's, pstate/pstate.h).
using UpdateInfo = ::pstate::UpdateInfo;

/// Parses the text of a `.history.json` file as Go's encoding/json fills
/// backend.UpdateInfo: keys match fields case-insensitively, the last of
/// duplicate keys wins, unknown keys are ignored; a field of the wrong
/// type is kFormat naming `name` and the field.
Result<UpdateInfo> ParseUpdateInfo(std::string text, const std::string& name);

/// One update of a stack's history (the API's, pstate/pstate.h).
using HistoryEntry = ::pstate::HistoryEntry;

/// The history of `stack`, oldest first (numbered from 1). No history
/// directory is an empty history. A history file that cannot be read or
/// parsed fails, naming it.
Result<std::vector<HistoryEntry>> ReadHistory(const Stack& stack);

/// A file of `.pulumi/backups/` for a stack.
struct BackupFile {
  std::string path;
  std::int64_t unix_nano = 0;
  std::uint64_t bytes = 0;
};
std::vector<BackupFile> ListBackups(const Stack& stack);

/// The lock files of `stack` (any lock id), by name.
std::vector<std::string> ListLocks(const Stack& stack);

/// The size of a file; 0 when it cannot be read.
std::uint64_t FileBytes(const std::string& path);

/// "2026-11-20T10:00:00Z" (UTC, whole seconds) for Unix seconds.
std::string FormatUnixSeconds(std::int64_t seconds);

/// A state input with a version: "PATH@VERSION" split at its last '@'.
struct VersionRef {
  std::string path;
  std::string version;  ///< "~K", "N", an RFC 3339 time, or "bak"
};

/// `text` as PATH@VERSION, or nullopt when it has no '@' or nothing on a
/// side of it.
std::optional<VersionRef> SplitVersionRef(const std::string& text);

/// The file holding `version` of `stack` whose history is `history`:
///   ~K    K updates before the current state (~0: the current checkpoint)
///   N     the state after update N (1 = oldest)
///   TIME  the state in force at that RFC 3339 instant: after the last
///         update whose history file was written at or before it
///   bak   the `.bak` copy of the current checkpoint
/// A version that does not exist, or whose update kept no checkpoint copy,
/// is kNotFound naming `display` and the versions there are (count, first,
/// last).
Result<std::string> ResolveVersion(const Stack& stack,
                                   const std::vector<HistoryEntry>& history,
                                   std::string_view version,
                                   const std::string& display);

/// What io::SetPathResolver calls for an input path that names no file:
/// PATH@VERSION resolved to the file holding that version (a checkpoint
/// copy, the current checkpoint or its `.bak`). `text` unchanged when it
/// is not PATH@VERSION with PATH a file; failures as ResolveVersion.
Result<std::string> ResolveInputPath(const std::string& text);

}  // namespace pstate::backend

#endif  // PSTATE_BACKEND_BACKEND_H_
