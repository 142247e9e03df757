// Limits and shared work across every asset hashed in one run, so that the
// cost of a run is bounded by the run, not multiplied by how many times a
// state names the same big file or archive (review finding F7).
#ifndef PSTATE_ASSET_HASH_RUN_BUDGET_H_
#define PSTATE_ASSET_HASH_RUN_BUDGET_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>

#include "asset_hash/spec.h"
#include "base/result.h"

namespace pstate::asset_hash {

/// Which file a hash belongs to: a file that changed in any way stat(2)
/// sees gets a new identity.
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;

  auto Tie() const { return std::tie(device, inode, size, mtime_ns, ctime_ns); }
  bool operator<(const FileIdentity& o) const { return Tie() < o.Tie(); }
};

/// Thread-safe: the hashing threads of one run share it.
class RunBudget {
 public:
  /// Takes the limits from `options` and resolves its root once.
  explicit RunBudget(const Options& options);
  RunBudget(const RunBudget&) = delete;
  RunBudget& operator=(const RunBudget&) = delete;

  /// Count `n` more units; kLimit once the run's total is exceeded (and for
  /// every later call).
  [[nodiscard]] pstate::Status AddBytes(std::uint64_t n);
  [[nodiscard]] pstate::Status AddMembers(std::uint64_t n);
  [[nodiscard]] pstate::Status AddExpandedBytes(std::uint64_t n);

  /// The SHA-256 (hex) of a whole file already hashed in this run.
  std::optional<std::string> FindFileHash(const FileIdentity& id) const;
  void StoreFileHash(const FileIdentity& id, const std::string& hex);

  /// The root with symbolic links resolved (realpath), or "" when it cannot
  /// be resolved (then every file counts as outside).
  const std::string& canonical_root() const { return canonical_root_; }

 private:
  std::uint64_t max_bytes_, max_members_, max_expanded_;
  std::atomic<std::uint64_t> bytes_{0}, members_{0}, expanded_{0};
  std::string canonical_root_;
  mutable std::mutex mutex_;
  std::map<FileIdentity, std::string> hashes_;
};

/// Whether `path` lies inside `canonical_root` once symbolic links and
/// "."/".." are resolved. A path that does not exist is judged by its
/// existing parent, so "missing" is never reported for a file outside.
bool InsideRoot(const std::string& path, const std::string& canonical_root);

}  // namespace pstate::asset_hash

#endif  // PSTATE_ASSET_HASH_RUN_BUDGET_H_
