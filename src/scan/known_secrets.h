// scan's names for the known-secret search, which lives below both scan and
// verify (pstate/secrets/known_secrets.h: verify masks with it too).
#ifndef PSTATE_SCAN_KNOWN_SECRETS_H_
#define PSTATE_SCAN_KNOWN_SECRETS_H_

#include "secrets/known_secrets.h"

namespace pstate::scan {

using secrets::Decryptor;
using secrets::IsMatchableSecret;
using secrets::kMaskedText;
using secrets::kMinKnownSecretLength;
using secrets::KnownSecrets;
using secrets::SecretCollector;

}  // namespace pstate::scan

#endif  // PSTATE_SCAN_KNOWN_SECRETS_H_
