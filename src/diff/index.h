// The index `pstate diff` builds over one state: each resource's identity
// as a 128-bit fingerprint -> where its bytes are, a digest of those bytes
// (BytesDigest) and a hash of its type and ID (for renames). About 48
// bytes per resource, whatever the resource's size.
#ifndef PSTATE_DIFF_INDEX_H_
#define PSTATE_DIFF_INDEX_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/fingerprint.h"

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

struct IndexEntry {
  ResourceKey key;
  std::uint64_t digest = 0;
  std::uint64_t type_id = 0;
  std::uint64_t offset = 0;  ///< the resource's bytes: [offset, end)
  std::uint64_t end = 0;
  std::uint32_t next = kNone;  ///< the next entry with the same key
  bool matched = false;
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
};

/// Entries in state order, found by key through an open-addressing table
/// of positions (4 bytes a slot, the key read from the entry: a
/// FingerprintTable would hold each key twice). Duplicates of a key are
/// chained in order, so the k-th copy in one state pairs with the k-th copy
/// in the other.
class ResourceIndex {
 public:
  /// Room for `n` entries without growing (a hint: more still fit).
  void Reserve(std::size_t n) { entries_.reserve(n); }
  /// Appends an entry; returns its position (its index in state order).
  std::uint32_t Add(const IndexEntry& entry);
  /// The first entry with `key` not yet matched, or kNone.
  std::uint32_t FindUnmatched(const ResourceKey& key) const;

  std::vector<IndexEntry>& entries() { return entries_; }
  const std::vector<IndexEntry>& entries() const { return entries_; }

 private:
  void Grow();
  std::size_t Slot(const ResourceKey& key) const;

  std::vector<IndexEntry> entries_;
  /// Index of the first entry of each key, or kNone; size a power of two.
  std::vector<std::uint32_t> table_;
  std::vector<std::uint32_t> last_;  ///< per slot: the chain's last entry
};

}  // namespace pstate::diff

#endif  // PSTATE_DIFF_INDEX_H_
