// The one 128-bit fingerprint of a string (a URN, a provider reference, a
// type and ID) that every command keeps instead of the string: verify's
// integrity rules, diff's index, edit's plan. Not cryptographic: the odds
// that two of a state's strings collide are about n^2 / 2^129, nil for any
// state, but an adversary who writes the state could make two collide, so
// nothing security-relevant may rest on it (a collision makes two URNs look
// like one to an integrity rule, never reveals or changes a secret).
// Fingerprints are not stable across versions of pstate: never store them.
#ifndef PSTATE_BASE_FINGERPRINT_H_
#define PSTATE_BASE_FINGERPRINT_H_

#include <cstdint>
#include <string_view>

namespace pstate {

struct Fingerprint {
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;
  /// {0, 0} is never a string's fingerprint: tables use it for an empty
  /// slot.
  bool empty() const { return hi == 0 && lo == 0; }
  friend bool operator==(const Fingerprint&, const Fingerprint&) = default;
};

/// A strong 64-bit finalizer (MurmurHash3's fmix64): every input bit
/// affects every output bit.
inline std::uint64_t Mix64(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

/// The fingerprint of `text`'s bytes (callers pass decoded JSON strings,
/// so two spellings of one URN get one fingerprint). Never {0, 0}.
Fingerprint FingerprintOf(std::string_view text);

}  // namespace pstate

#endif  // PSTATE_BASE_FINGERPRINT_H_
