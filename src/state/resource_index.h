// The one byte-range index of a state's resources, shared by the commands
// that read a state once and then go back to single resources by their
// bytes (diff pairs resources and parses only the pairs that differ; edit
// plans on its index and splices the resources it rewrites).
//
// For each resource, in state order: a 128-bit key (the fingerprint of its
// identity: its URN, or what the command makes of it) and the byte range
// its JSON text has in the decoded input. Resources are found by key
// through an open-addressing table of positions, at most half full;
// resources with one key (duplicates, a `delete: true` copy beside its
// replacement) are chained in state order, so the k-th copy of a key in
// one state can pair with the k-th copy in another. About 44 bytes per
// resource, whatever its size: the bytes stay in the file.
//
// Commands keep what else they need about a resource in their own
// columns, indexed by the same position (diff: a digest of the bytes and a
// type and ID hash; edit: the fields an edit is planned on).
#ifndef PSTATE_STATE_RESOURCE_INDEX_H_
#define PSTATE_STATE_RESOURCE_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/chunked_vector.h"
#include "base/fingerprint.h"

namespace pstate::state {

/// [begin, end) of the decoded input.
struct ByteRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

class ResourceIndex {
 public:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

  /// Room for `n` resources in the table without rehashing (a hint: more
  /// still fit).
  void Reserve(std::size_t n);
  /// Appends a resource; returns its position (its index in state order).
  std::uint32_t Add(const Fingerprint& key, ByteRange range);
  /// Forgets every resource (a repeated "resources" member).
  void Clear();

  std::size_t size() const { return entries_.size(); }
  const Fingerprint& key(std::uint32_t i) const { return entries_[i].key; }
  ByteRange range(std::uint32_t i) const { return entries_[i].range; }
  /// The first resource with `key` in state order, or kNone.
  std::uint32_t First(const Fingerprint& key) const;
  /// The next resource after `i` with the same key, or kNone.
  std::uint32_t Next(std::uint32_t i) const { return entries_[i].next; }

  /// Bytes held (entries and table).
  std::size_t memory() const;

 private:
  struct Entry {
    Fingerprint key;
    ByteRange range;
    std::uint32_t next = kNone;
  };
  void Grow();
  void Rehash(std::size_t slots);
  /// The slot of `key`'s chain, or the empty slot where it would go.
  std::size_t Slot(const Fingerprint& key) const;

  /// In chunks: no doubling slack (a quarter of the entries, on average)
  /// and no copy while the index grows.
  ChunkedVector<Entry> entries_;
  /// Per slot: the first and last position of a key's chain, or kNone;
  /// size a power of two (the key is read from the entry: a
  /// FingerprintTable would hold each key twice).
  std::vector<std::uint32_t> first_, last_;
};

}  // namespace pstate::state

#endif  // PSTATE_STATE_RESOURCE_INDEX_H_
