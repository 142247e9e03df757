#include "crypto/provider_crypter.h"

#include <utility>

#include "base/wipe.h"

namespace pstate::crypto {

Result<std::string> SecretsCrypter::Decrypt(std::string_view ciphertext) const {
  if (passphrase_) return passphrase_->Decrypt(ciphertext);
  return b64_.Decrypt(ciphertext);
}

std::string SecretsCrypter::Encrypt(std::string_view plaintext) const {
  if (passphrase_) return passphrase_->Encrypt(plaintext);
  return b64_.Encrypt(plaintext);
}

Unlocked Unlock(const state::SecretsProvider& provider,
                const PassphraseSource& passphrase) {
  Unlocked out;
  switch (provider.kind) {
    case state::ProviderKind::kNone: return out;
    case state::ProviderKind::kB64: out.crypter.emplace(); return out;
    case state::ProviderKind::kService:
    case state::ProviderKind::kCloud:
      out.failure = UnlockFailure::kOffline;
      return out;
    case state::ProviderKind::kOther:
      out.failure = UnlockFailure::kUnknown;
      return out;
    case state::ProviderKind::kPassphrase: break;
  }
  if (provider.salt.empty()) {
    out.failure = UnlockFailure::kNoSalt;
    return out;
  }
  Result<std::string> phrase =
      passphrase ? passphrase()
                 : Result<std::string>(Errc::kInvalidArgument,
                                       "no passphrase was given");
  if (!phrase.ok()) {
    out.failure = UnlockFailure::kNoPassphrase;
    out.status = phrase.status();
    return out;
  }
  Result<PassphraseCrypter> crypter =
      PassphraseCrypter::FromSalt(provider.salt, *phrase);
  Wipe(*phrase);
  if (!crypter.ok()) {
    out.failure = UnlockFailure::kBadSalt;
    out.status = crypter.status();
    return out;
  }
  out.crypter.emplace(std::move(crypter).value());
  return out;
}

}  // namespace pstate::crypto
