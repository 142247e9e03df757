// The `b64` secrets provider Pulumi uses in tests
// (sdk/go/common/resource/config/crypt.go base64Crypter): the "ciphertext" is
// the standard base64 of the plaintext JSON text. No key, no protection.
#ifndef PSTATE_CRYPTO_B64_CRYPTER_H_
#define PSTATE_CRYPTO_B64_CRYPTER_H_

#include <string>
#include <string_view>

#include "base/result.h"

namespace pstate::crypto {

class B64Crypter {
 public:
  /// Base64Decode of `ciphertext` (kSyntax when it is not base64).
  Result<std::string> Decrypt(std::string_view ciphertext) const;
  /// Base64Encode of `plaintext`.
  std::string Encrypt(std::string_view plaintext) const;
};

}  // namespace pstate::crypto

#endif  // PSTATE_CRYPTO_B64_CRYPTER_H_
