// Rewriting files in place (`--in-place`): read a file, write its new
// content to a temporary file, rename that over it. Two such runs on one
// file, or one run and another writer, must never lose an edit silently.
//
// The contract (docs/cli.md, "Concurrent use"):
//  - A RewriteGuard holds an exclusive advisory lock (flock(2)) on each file
//    it guards for its whole lifetime: the read, the write and the rename.
//    A second pstate rewriting the same file waits for the first, then
//    locks the file the path names now (the first run's result, renamed
//    into place) and reads that: both edits are kept, one after the other.
//  - Check() says whether every guarded path still names the file that was
//    locked, with the size and modification time it had when it was locked.
//    A writer that takes no lock (an editor, a script, `pulumi` itself) is
//    noticed, and the rewrite is refused (kRefused) instead of silently
//    overwriting that writer's change. OutputOptions::guard makes Commit()
//    check just before its rename and copy the `.bak` from the locked file
//    itself, never from whatever the name points to by then.
//  - Several files (a command that rewrites two) are locked in (device,
//    inode) order, so two runs that lock the same files in another order
//    cannot deadlock. Two names of one file are locked once.
//  - What cannot be locked is not an error: a path that does not open or is
//    not a regular file is left to the reader to report, and a file system
//    without flock (some network file systems) keeps only the Check().
#ifndef PSTATE_IO_REWRITE_GUARD_H_
#define PSTATE_IO_REWRITE_GUARD_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"

namespace pstate::io {

/// The identity of a file as it was locked.
struct FileIdentity {
  dev_t dev = 0;
  ino_t ino = 0;
  std::int64_t size = 0;
  std::int64_t mtime_ns = 0;
};

class RewriteGuard {
 public:
  RewriteGuard() = default;
  ~RewriteGuard();
  RewriteGuard(RewriteGuard&& other) noexcept;
  RewriteGuard& operator=(RewriteGuard&& other) noexcept;
  RewriteGuard(const RewriteGuard&) = delete;
  RewriteGuard& operator=(const RewriteGuard&) = delete;

  /// Locks the files `paths` name (see the contract above), waiting while
  /// another process holds a lock on any of them. Fails only with kIo when
  /// a lock cannot be waited for (the wait was interrupted).
  static Result<RewriteGuard> Acquire(const std::vector<std::string>& paths);

  /// Ok while every guarded path names the locked file, unchanged; else
  /// kRefused naming the path and what changed.
  Status Check() const;

  /// The locked file that `path` (after symbolic links) names now, open for
  /// reading: kRefused when it names none of them (it was replaced) or the
  /// file changed since it was locked. -1 when the guard holds no file
  /// (nothing could be locked). Valid while the guard lives.
  Result<int> LockedFileAt(const std::string& path) const;

 private:
  struct Held {
    std::vector<std::string> paths;  ///< every name given for this file
    int fd = -1;
    FileIdentity identity;
  };
  void Release();

  std::vector<Held> held_;
};

}  // namespace pstate::io

#endif  // PSTATE_IO_REWRITE_GUARD_H_
