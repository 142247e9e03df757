// What `pstate diff` keeps of a state's resources: on the shared byte-range
// index (state/resource_index.h), each resource's identity and where its
// bytes are, and beside it a digest of those bytes (BytesDigest) and a
// hash of its type and ID (for renames). About 60 bytes per resource,
// whatever the resource's size.
#ifndef PSTATE_DIFF_INDEX_H_
#define PSTATE_DIFF_INDEX_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/fingerprint.h"
#include "state/resource_index.h"

namespace pstate::diff {

/// A resource's identity: its URN, or for a `delete: true` copy its URN
/// and ID (state-operations.md §4.3), as the program's one 128-bit
/// fingerprint.
using ResourceKey = Fingerprint;

ResourceKey KeyOf(std::string_view urn, bool deleted, std::string_view id);

/// The 128-bit fingerprint of a string (a URN, a provider reference);
/// KeyOf(urn, false, id) == UrnFingerprint(urn).
ResourceKey UrnFingerprint(std::string_view text);

/// 0 when the resource has no ID (components, a delete copy): it cannot
/// take part in a rename.
std::uint64_t TypeIdHash(std::string_view type, std::string_view id);

/// A 64-bit digest of a resource's bytes as written: equal bytes, equal
/// digests; bytes of one length that differ in one 8-byte word always
/// differ; otherwise they differ up to a 2^-64 chance (not cryptographic:
/// whoever writes a state could make two collide, and a changed resource
/// would then look unchanged; nothing security-relevant rests on it). A
/// state's unchanged resources are normally written byte for byte alike,
/// so diff compares these digests and only pairs whose bytes differ are
/// parsed again and compared by meaning (DiffResource: key order, number
/// spellings, ...). Four independent 8-byte lanes: about four times the
/// throughput of one multiply chain. Never store it.
std::uint64_t BytesDigest(std::string_view bytes);

/// What diff's read learns of one resource.
struct IndexEntry {
  ResourceKey key;
  std::uint64_t digest = 0;
  std::uint64_t type_id = 0;
  state::ByteRange range;  ///< the resource's bytes
};

/// One state's resources on the shared byte-range index
/// (state/resource_index.h: identity, byte range, duplicates chained in
/// order, so the k-th copy in one state pairs with the k-th copy in the
/// other), with diff's own columns beside it: the digest of the bytes, the
/// type and ID hash, and whether the resource found its pair.
class ResourceIndex {
 public:
  static constexpr std::uint32_t kNone = state::ResourceIndex::kNone;

  /// Room for `n` entries without growing (a hint: more still fit).
  void Reserve(std::size_t n);
  /// Appends an entry; returns its position (its index in state order).
  std::uint32_t Add(const IndexEntry& entry);
  /// Empty again (a read that starts over); the room stays.
  void Clear();
  /// The first entry with `key` not yet matched, or kNone.
  std::uint32_t FindUnmatched(const ResourceKey& key) const;

  std::size_t size() const { return index_.size(); }
  state::ByteRange range(std::uint32_t i) const { return index_.range(i); }
  std::uint64_t digest(std::uint32_t i) const { return digest_[i]; }
  std::uint64_t type_id(std::uint32_t i) const { return type_id_[i]; }
  bool matched(std::uint32_t i) const { return matched_[i]; }
  void set_matched(std::uint32_t i) { matched_[i] = true; }

 private:
  state::ResourceIndex index_;
  std::vector<std::uint64_t> digest_, type_id_;
  std::vector<bool> matched_;
};

}  // namespace pstate::diff

#endif  // PSTATE_DIFF_INDEX_H_
