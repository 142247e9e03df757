// Keyed fingerprints of secret values: lets reports and redacted copies say
// "these two values are equal" without revealing them. HMAC-SHA256, so
// without the key a fingerprint cannot be used to test guesses offline.
//
// One definition serves `pstate scan` and `pstate redact --fingerprint`: both
// fingerprint a value's text as scan::FingerprintText defines it (the
// decoded string, or compact JSON for other values). redact writes the full
// Fingerprint ("hmac-sha256:" + 64 hex); scan prints ShortFingerprint, the
// first 12 of those hex digits. So under one key the two outputs match.
#ifndef PSTATE_CRYPTO_FINGERPRINT_H_
#define PSTATE_CRYPTO_FINGERPRINT_H_

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "base/result.h"

namespace pstate::crypto {

inline constexpr char kFingerprintPrefix[] = "hmac-sha256:";
inline constexpr std::size_t kShortFingerprintHexDigits = 12;

/// Equal values give equal fingerprints under one key; different keys give
/// unrelated fingerprints. Immutable and safe to share between threads.
class Fingerprinter {
 public:
  /// A 32-byte key from the system random source: fingerprints only
  /// correlate within one run. Aborts if the random source fails.
  static Fingerprinter WithRandomKey();

  /// The file's exact bytes are the key (no trimming), so fingerprints are
  /// stable across runs that share the file. Empty file: kInvalidArgument;
  /// other errors as ReadSecretFile.
  static Result<Fingerprinter> FromKeyFile(const std::filesystem::path& path);

  /// `key` used as is; kInvalidArgument when empty.
  static Result<Fingerprinter> FromKey(std::string_view key);

  Fingerprinter(const Fingerprinter&) = default;
  Fingerprinter& operator=(const Fingerprinter&) = default;
  ~Fingerprinter();

  /// "hmac-sha256:" + 64 lowercase hex digits of HMAC-SHA256(key, value).
  std::string Fingerprint(std::string_view value) const;

  /// The first 12 hex digits of the same HMAC, no prefix (for scan
  /// findings): always a prefix of Fingerprint(value)'s digest.
  std::string ShortFingerprint(std::string_view value) const;

 private:
  explicit Fingerprinter(std::string key) : key_(std::move(key)) {}
  std::array<std::uint8_t, 32> Mac(std::string_view value) const;

  std::string key_;
};

}  // namespace pstate::crypto

#endif  // PSTATE_CRYPTO_FINGERPRINT_H_
