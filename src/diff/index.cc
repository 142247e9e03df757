#include "diff/index.h"

#include <cstring>

#include "base/fingerprint.h"

namespace pstate::diff {
ResourceKey KeyOf(std::string_view urn, bool deleted, std::string_view id) {
  ResourceKey key = FingerprintOf(urn);
  if (deleted) {
    Fingerprint of_id = FingerprintOf(id);
    key.hi = Mix64(key.hi ^ of_id.hi ^ 0xde1e7edULL);
    key.lo = Mix64(key.lo + of_id.lo);
  }
  return key;
}

ResourceKey UrnFingerprint(std::string_view text) {
  return FingerprintOf(text);
}

std::uint64_t TypeIdHash(std::string_view type, std::string_view id) {
  if (id.empty()) return 0;
  Fingerprint t = FingerprintOf(type);
  Fingerprint i = FingerprintOf(id);
  std::uint64_t h = Mix64(t.hi ^ Mix64(i.hi + 1));
  return h == 0 ? 1 : h;
}

std::uint64_t BytesDigest(std::string_view bytes) {
  constexpr std::uint64_t kMul = 0xff51afd7ed558ccdULL;
  // Each step is a bijection of a lane for a given word.
  auto step = [](std::uint64_t h, std::uint64_t w) {
    h = (h ^ w) * kMul;
    return h ^ (h >> 29);
  };
  std::uint64_t h0 = 0x243f6a8885a308d3ULL, h1 = 0x13198a2e03707344ULL,
                h2 = 0xa4093822299f31d0ULL, h3 = 0x082efa98ec4e6c89ULL;
  const char* p = bytes.data();
  std::size_t n = bytes.size();
  for (; n >= 32; p += 32, n -= 32) {
    std::uint64_t w[4];
    std::memcpy(w, p, 32);
    h0 = step(h0, w[0]);
    h1 = step(h1, w[1]);
    h2 = step(h2, w[2]);
    h3 = step(h3, w[3]);
  }
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h0 = step(h0, w);
  }
  if (n > 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h1 = step(h1, w);
  }
  // Each stage is a bijection of one lane given the others.
  std::uint64_t size = static_cast<std::uint64_t>(bytes.size());
  return Mix64(h0 + Mix64(h1 + Mix64(h2 + Mix64(h3 ^ size))));
}

void ResourceIndex::Reserve(std::size_t n) {
  index_.Reserve(n);
  digest_.reserve(n);
  type_id_.reserve(n);
  matched_.reserve(n);
}

std::uint32_t ResourceIndex::Add(const IndexEntry& entry) {
  digest_.push_back(entry.digest);
  type_id_.push_back(entry.type_id);
  matched_.push_back(false);
  return index_.Add(entry.key, entry.range);
}

std::uint32_t ResourceIndex::FindUnmatched(const ResourceKey& key) const {
  std::uint32_t i = index_.First(key);
  while (i != kNone && matched_[i]) i = index_.Next(i);
  return i;
}

void ResourceIndex::Clear() {
  index_.Clear();
  digest_.clear();
  type_id_.clear();
  matched_.clear();
}

}  // namespace pstate::diff
