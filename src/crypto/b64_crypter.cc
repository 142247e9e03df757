#include "crypto/b64_crypter.h"

#include "base/base64.h"

namespace pstate::crypto {

Result<std::string> B64Crypter::Decrypt(std::string_view ciphertext) const {
  Result<std::string> plaintext = Base64Decode(ciphertext);
  if (!plaintext.ok()) {
    return Result<std::string>(Errc::kSyntax, "b64 secret is not base64: " +
                                                  plaintext.status().message());
  }
  return plaintext;
}

std::string B64Crypter::Encrypt(std::string_view plaintext) const {
  return Base64Encode(plaintext);
}

}  // namespace pstate::crypto
