// The deployment's secrets provider, parsed once (SecretsProvidersV1:
// `{"type", "state"}`; the providers' state shapes are those of
// pkg/secrets/{passphrase,service,cloud,b64} in pulumi/pulumi).
//
// Every command that needs to know how secrets are encrypted asks this
// model instead of comparing the type string itself.
#ifndef PSTATE_STATE_PROVIDER_H_
#define PSTATE_STATE_PROVIDER_H_

#include <string>
#include <string_view>

#include "json/value.h"

namespace pstate::state {

enum class ProviderKind {
  kNone,        ///< no provider (absent, null, or no "type")
  kPassphrase,  ///< passphrase: AES-256-GCM, key from PBKDF2 over the salt
  kService,     ///< Pulumi Cloud: cannot be decrypted offline
  kCloud,       ///< a KMS key (awskms://, gcpkms://, azurekeyvault://, ...)
  kB64,         ///< base64 "encryption", for tests
  kOther,       ///< a type Pulumi does not define
};

/// "none", "passphrase", "service", "cloud", "b64", "other".
std::string_view ProviderKindName(ProviderKind kind);

struct SecretsProvider {
  ProviderKind kind = ProviderKind::kNone;
  std::string type;  ///< as written (decoded)
  /// kPassphrase: state.salt ("v1:<salt>:v1:<nonce>:<ciphertext>").
  std::string salt;
  /// kCloud: state.url (the key URL) and state.encryptedkey (base64).
  std::string url;
  std::string encrypted_key;
  /// kService: state.owner, state.project, state.stack.
  std::string owner, project, stack;

  /// Ciphertexts look like the passphrase provider's (v1:<nonce>:<ct>):
  /// passphrase and cloud providers both write that shape.
  bool writes_v1_ciphertexts() const {
    return kind == ProviderKind::kPassphrase || kind == ProviderKind::kCloud;
  }
  /// Secrets can be decrypted without a service or key management system.
  bool offline() const {
    return kind == ProviderKind::kPassphrase || kind == ProviderKind::kB64;
  }
};

/// Reads a `secrets_providers` value. Fields that are missing or not
/// strings are left empty: judging the shape is verify's job.
SecretsProvider ParseSecretsProvider(const json::Value& value);

}  // namespace pstate::state

#endif  // PSTATE_STATE_PROVIDER_H_
