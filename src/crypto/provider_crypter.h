// The one way from a state's secrets provider (state/provider.h) to the
// crypter that opens its secrets. scan (--decrypt), diff and show
// (--show-secrets), decrypt and encrypt all unlock a provider here and
// differ only in what they say when it cannot be unlocked.
//
// Pulumi's own counterpart is the secrets manager its providers build from
// a deployment (pkg/secrets/{b64,passphrase}/manager.go): b64 needs no key,
// passphrase derives one from the salt state, service and cloud need a
// service or a key management system pstate cannot reach offline.
#ifndef PSTATE_CRYPTO_PROVIDER_CRYPTER_H_
#define PSTATE_CRYPTO_PROVIDER_CRYPTER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "crypto/b64_crypter.h"
#include "crypto/passphrase.h"
#include "state/provider.h"

namespace pstate::crypto {

/// Encrypts and decrypts the secrets of one state: the b64 provider's
/// crypter or the passphrase provider's. Const calls are thread-safe.
class SecretsCrypter {
 public:
  /// The b64 provider's (no key).
  SecretsCrypter() = default;
  explicit SecretsCrypter(PassphraseCrypter passphrase)
      : passphrase_(std::move(passphrase)) {}

  /// Errors: those of B64Crypter::Decrypt or PassphraseCrypter::Decrypt.
  Result<std::string> Decrypt(std::string_view ciphertext) const;
  std::string Encrypt(std::string_view plaintext) const;

 private:
  std::optional<PassphraseCrypter> passphrase_;  ///< nullopt: b64
  B64Crypter b64_;
};

/// Why a provider's secrets cannot be opened.
enum class UnlockFailure : std::uint8_t {
  kNone,          ///< unlocked, or no provider: nothing to open
  kNoSalt,        ///< passphrase provider whose state has no salt string
  kNoPassphrase,  ///< the passphrase source failed (`status` says why)
  kBadSalt,       ///< PassphraseCrypter::FromSalt failed (`status`)
  kOffline,       ///< service or cloud: its key is not reachable offline
  kUnknown,       ///< a provider type Pulumi does not define
};

struct Unlocked {
  /// Set when the secrets can be opened.
  std::optional<SecretsCrypter> crypter;
  UnlockFailure failure = UnlockFailure::kNone;
  /// kNoPassphrase: the source's error (kInvalidArgument "no passphrase
  /// was given" when there is no source); kBadSalt: FromSalt's (kCrypto
  /// for a wrong passphrase). Ok otherwise.
  Status status;
};

/// Gives the passphrase; an error with kInvalidArgument means none was
/// given.
using PassphraseSource = std::function<Result<std::string>()>;

/// The crypter for `provider`. No provider (ProviderKind::kNone) gives
/// neither a crypter nor a failure; b64 needs nothing. For passphrase the
/// salt is checked first, then `passphrase` is asked (only then, and at
/// most once), then the key is derived; the passphrase is wiped after.
Unlocked Unlock(const state::SecretsProvider& provider,
                const PassphraseSource& passphrase);

}  // namespace pstate::crypto

#endif  // PSTATE_CRYPTO_PROVIDER_CRYPTER_H_
