// Verifying the recorded `hash` of an asset or archive by recomputing it the
// way Pulumi's engine does (reference: shared/reference/asset-hashing.md).
// Offline only: http(s) content is never fetched.
#ifndef PSTATE_ASSET_HASH_HASHER_H_
#define PSTATE_ASSET_HASH_HASHER_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "asset_hash/spec.h"

namespace pstate::asset_hash {

/// The API's AssetStatus (pstate/pstate.h says what each means).
using Status = ::pstate::AssetStatus;

/// "ok", "mismatch", "missing", "error", "unverifiable", "no-hash".
std::string_view StatusName(Status status);

struct Outcome {
  Status status = Status::kError;
  Source source = Source::kNone;
  std::optional<std::string> actual;  ///< lowercase hex SHA-256, when computed
  std::string message;                ///< reason; never empty except for kOk
};

/// Computes the object's hash as the engine would and compares it with
/// spec.hash. ok = equal; mismatch = differ; no-hash = nothing (or "")
/// recorded but content hashable (actual set); missing = a referenced file or
/// directory does not exist; error = cannot be hashed; unverifiable = needs
/// an http(s) fetch, or a hash-only placeholder with no content (top level
/// or as a member). Never throws, never prints, never touches the network.
Outcome Hash(const Spec& spec, const Options& options);

/// What an audit note is about: an enum the compiler checks, so the
/// finding code a note becomes is a switch with no silent default.
enum class NoteCode {
  kAbsolutePath,     ///< asset-absolute-path
  kPathEscapesRoot,  ///< asset-path-escapes-root
  kBackslashPath,    ///< asset-backslash-path
  kHashMalformed,    ///< asset-hash-malformed
};

/// The note's stable name, e.g. "asset-absolute-path".
std::string_view NoteCodeName(NoteCode code);

struct AuditNote {
  NoteCode code = NoteCode::kHashMalformed;
  std::string message;
};

inline constexpr NoteCode kNoteAbsolutePath = NoteCode::kAbsolutePath;
inline constexpr NoteCode kNotePathEscapesRoot = NoteCode::kPathEscapesRoot;
inline constexpr NoteCode kNoteBackslashPath = NoteCode::kBackslashPath;
inline constexpr NoteCode kNoteHashMalformed = NoteCode::kHashMalformed;

/// Portability and hygiene notes on the top-level object only (the caller
/// recurses into members): an absolute `path` or a `file:` URI (breaks on
/// other machines), a relative `path` that leaves `root` once cleaned, a
/// backslash in `path`, `uri` or a member name, and a non-empty recorded
/// hash that is not 64 lowercase hex digits.
std::vector<AuditNote> Audit(const Spec& spec, const Options& options);

/// SHA-256 of no bytes: the hash of an empty asset.
inline constexpr std::string_view kEmptyAssetHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
/// SHA-256 of 1024 zero bytes: the tar stream of an archive with no members.
inline constexpr std::string_view kEmptyArchiveHash =
    "5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef";

}  // namespace pstate::asset_hash

#endif  // PSTATE_ASSET_HASH_HASHER_H_
