// Reading small files that hold secrets (passphrase files, fingerprint keys).
#ifndef PSTATE_CRYPTO_SECRET_FILE_H_
#define PSTATE_CRYPTO_SECRET_FILE_H_

#include <cstddef>
#include <filesystem>
#include <string>

#include "base/result.h"

namespace pstate::crypto {

/// Secret files larger than this are refused: a passphrase or key file of
/// megabytes is a wrong path, not a secret.
inline constexpr std::size_t kMaxSecretFileBytes = 1 << 20;

/// The exact bytes of `path`. Errors: kNotFound (missing), kIo (unreadable or
/// not a regular file), kLimit (over kMaxSecretFileBytes). Messages name the
/// path, never the contents.
Result<std::string> ReadSecretFile(const std::filesystem::path& path);

}  // namespace pstate::crypto

#endif  // PSTATE_CRYPTO_SECRET_FILE_H_
