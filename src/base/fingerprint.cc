#include "base/fingerprint.h"

#include <cstddef>
#include <cstring>

namespace pstate {

Fingerprint FingerprintOf(std::string_view s) {
  // Two independent 64-bit hashes over 8-byte words, each finalized with
  // Mix64.
  std::uint64_t h1 = 0x9e3779b97f4a7c15ULL ^ s.size();
  std::uint64_t h2 = 0xc2b2ae3d27d4eb4fULL + s.size();
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, s.data() + i, 8);
    h1 = (h1 ^ Mix64(w)) * 0x100000001b3ULL;
    h2 = (h2 + w) * 0xff51afd7ed558ccdULL;
    h2 ^= h2 >> 29;
  }
  std::uint64_t tail = 0;
  // (An empty view may have a null data(): no memcpy from it.)
  if (i < s.size()) std::memcpy(&tail, s.data() + i, s.size() - i);
  h1 = (h1 ^ Mix64(tail ^ 0x1234567ULL)) * 0x100000001b3ULL;
  h2 = (h2 + tail) * 0xff51afd7ed558ccdULL;
  Fingerprint f{Mix64(h1), Mix64(h2 ^ 0x9e3779b97f4a7c15ULL)};
  if (f.empty()) f.lo = 1;
  return f;
}

}  // namespace pstate
