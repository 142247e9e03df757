// An asset or archive object from Pulumi state, and the options that say
// where and how far to read it.
#ifndef PSTATE_ASSET_HASH_SPEC_H_
#define PSTATE_ASSET_HASH_SPEC_H_

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pstate/pstate.h"

namespace pstate::asset_hash {

/// The API's (pstate/pstate.h).
using Kind = ::pstate::AssetKind;
/// Which field the engine reads (the API's AssetSource says which).
using Source = ::pstate::AssetSource;

/// An asset or archive object as decoded from state by the caller (strings
/// already JSON-unescaped).
///
/// The special members are declared here and defaulted after the class:
/// `assets` holds pairs of this still-incomplete type, and with implicit
/// members clang (on libstdc++) instantiates the vector's destructor while
/// std::pair<std::string, Spec> is itself being instantiated, which fails.
struct Spec {
  Spec();
  Spec(const Spec&);
  Spec(Spec&&) noexcept;
  Spec& operator=(const Spec&);
  Spec& operator=(Spec&&) noexcept;
  ~Spec();

  Kind kind = Kind::kAsset;
  std::optional<std::string> hash, text, path,
      uri;                  // absent when the key is absent
  bool has_assets = false;  // the `assets` key was present
  /// Archive members in file order. Hashing sorts them bytewise by key; when
  /// a key repeats, the last occurrence wins (as Go's JSON decoding does).
  std::vector<std::pair<std::string, Spec>> assets;
};

inline Spec::Spec() = default;
inline Spec::Spec(const Spec&) = default;
inline Spec::Spec(Spec&&) noexcept = default;
inline Spec& Spec::operator=(const Spec&) = default;
inline Spec& Spec::operator=(Spec&&) noexcept = default;
inline Spec::~Spec() = default;

/// Default safety limits. 8 GiB of content covers real deployment bundles
/// (Lambda packages are capped at 250 MiB unzipped) while a zip bomb stops
/// after seconds of hashing; 250000 members bounds the duplicate-name set
/// and a zip's central directory held by libarchive; 32 nested archive maps
/// is far beyond what any program writes.
inline constexpr std::uint64_t kDefaultMaxExpandedBytes = std::uint64_t{8}
                                                          << 30;
inline constexpr std::uint64_t kDefaultMaxMembers = 250000;
inline constexpr int kDefaultMaxNesting = 32;

/// Default limits per run (one Auditor: every item of every file of one
/// `pstate assets` or `verify --assets`): the API's pstate::AssetTotals
/// says why they are what they are. A whole file's hash is computed once
/// per run (keyed on device, inode, size and modification time), so
/// repeats of one file cost nothing.
inline constexpr std::uint64_t kDefaultMaxTotalBytes = AssetTotals{}.max_bytes;
inline constexpr std::uint64_t kDefaultMaxTotalMembers =
    AssetTotals{}.max_members;
inline constexpr std::uint64_t kDefaultMaxTotalExpandedBytes =
    AssetTotals{}.max_expanded_bytes;

/// What to do with a file outside `root` (an absolute path, a file: URI, a
/// `../` path or a symlink leading out). An offline check run on a state
/// from elsewhere must not read and publish the hash of any local file the
/// state names: a full SHA-256 of a short secret (a PIN, a password file)
/// is a brute-force oracle.
enum class OutsideRoot {
  kRefuse,          ///< not opened: status unverifiable (the CLI default)
  kReadHashHidden,  ///< read and compared, but the hash is never reported
  kRead,            ///< read like any file (the engine's behaviour; tests)
};

class RunBudget;

struct Options {
  /// Where relative paths resolve (Pulumi: the program's working directory).
  std::filesystem::path root = ".";
  /// Limit on content bytes read for one object: file bytes and decompressed
  /// member bytes (tar headers and padding are not counted).
  std::uint64_t max_expanded_bytes = kDefaultMaxExpandedBytes;
  /// Limit on members enumerated for one archive, duplicates included.
  std::uint64_t max_members = kDefaultMaxMembers;
  /// Limit on archive-in-asset-map nesting (the top-level archive is 0).
  int max_nesting = kDefaultMaxNesting;

  /// Files outside `root` (see OutsideRoot).
  OutsideRoot outside_root = OutsideRoot::kRefuse;
  /// Limits per run: content bytes hashed (files and members), archive
  /// members enumerated, and member bytes read out of tar, tgz and zip files.
  std::uint64_t max_total_bytes = kDefaultMaxTotalBytes;
  std::uint64_t max_total_members = kDefaultMaxTotalMembers;
  std::uint64_t max_total_expanded_bytes = kDefaultMaxTotalExpandedBytes;
  /// The run these totals are counted in, shared by every Hash() call that
  /// gets these options (thread-safe). Null: each Hash() call is a run.
  std::shared_ptr<RunBudget> run;
};

/// The field the engine would read for `spec` (see Source).
Source SourceOf(const Spec& spec);

}  // namespace pstate::asset_hash

#endif  // PSTATE_ASSET_HASH_SPEC_H_
