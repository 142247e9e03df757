#include "crypto/fingerprint.h"
#include "base/wipe.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <cstdlib>

#include "base/hex.h"
#include "crypto/secret_file.h"

namespace pstate::crypto {

Fingerprinter Fingerprinter::WithRandomKey() {
  std::string key(32, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(key.data()),
                 static_cast<int>(key.size())) != 1) {
    std::abort();
  }
  return Fingerprinter(std::move(key));
}

Result<Fingerprinter> Fingerprinter::FromKey(std::string_view key) {
  if (key.empty()) {
    return Result<Fingerprinter>(Errc::kInvalidArgument,
                                 "fingerprint key is empty");
  }
  if (key.size() > kMaxSecretFileBytes) {
    return Result<Fingerprinter>(Errc::kLimit, "fingerprint key is too long");
  }
  return Fingerprinter(std::string(key));
}

Result<Fingerprinter> Fingerprinter::FromKeyFile(
    const std::filesystem::path& path) {
  Result<std::string> key = ReadSecretFile(path);
  if (!key.ok()) return key.status();
  if (key->empty()) {
    return Result<Fingerprinter>(
        Errc::kInvalidArgument,
        "fingerprint key file " + path.string() + " is empty");
  }
  Fingerprinter fingerprinter(*key);
  Wipe(*key);
  return fingerprinter;
}

Fingerprinter::~Fingerprinter() { Wipe(key_); }

std::array<std::uint8_t, 32> Fingerprinter::Mac(std::string_view value) const {
  std::array<std::uint8_t, 32> mac{};
  unsigned int mac_len = 0;
  // HMAC() accepts a null data pointer only with zero length; string_view's
  // data() may be null for a default-constructed view.
  static const unsigned char kEmpty[1] = {0};
  const unsigned char* data =
      value.empty() ? kEmpty
                    : reinterpret_cast<const unsigned char*>(value.data());
  if (HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()), data,
           value.size(), mac.data(), &mac_len) == nullptr ||
      mac_len != mac.size()) {
    std::abort();  // only on a broken OpenSSL
  }
  return mac;
}

std::string Fingerprinter::Fingerprint(std::string_view value) const {
  return kFingerprintPrefix + HexEncode(Mac(value));
}

std::string Fingerprinter::ShortFingerprint(std::string_view value) const {
  return HexEncode(Mac(value)).substr(0, kShortFingerprintHexDigits);
}

}  // namespace pstate::crypto
