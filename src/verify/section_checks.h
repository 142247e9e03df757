// Checks of the deployment's sections other than resources: manifest,
// secrets provider, checkpoint config, metadata, snippets, extensions.
#ifndef PSTATE_VERIFY_SECTION_CHECKS_H_
#define PSTATE_VERIFY_SECTION_CHECKS_H_

#include <set>
#include <string>
#include <vector>

#include "json/value.h"
#include "state/provider.h"
#include "verify/check_context.h"

namespace pstate::verify {

/// time is RFC 3339, magic is SHA-256 of version (or both empty), plugins
/// are well formed (pulumi-state-format.md §1.7, §4.3).
void CheckManifest(const json::Value& manifest, Reporter& reporter);

/// Known provider type and a state shaped as that provider writes it.
/// Returns the provider as the state model reads it.
state::SecretsProvider CheckSecretsProvider(const json::Value& provider,
                                            Reporter& reporter);

/// Checkpoint config: "<namespace>:<name>" keys, secure values well formed.
/// A checkpoint's config comes before the deployment's secrets provider, so
/// with `provider` unknown ("") every secure value that is not shaped like
/// a passphrase/cloud ciphertext is added to `unshaped` (located, message
/// to be completed) for the caller to report once the provider is known.
void CheckConfig(const json::Value& config, state::ProviderKind provider,
                 Reporter& reporter,
                 std::vector<diag::Finding>* unshaped = nullptr);

void CheckMetadata(const json::Value& metadata, Reporter& reporter);

/// Field types, and uuid present and unique (`uuids` spans all snippets).
void CheckSnippet(const json::Value& snippet, std::set<std::string>& uuids,
                  Reporter& reporter);

void CheckExtension(const json::Value& extension, Reporter& reporter);

}  // namespace pstate::verify

#endif  // PSTATE_VERIFY_SECTION_CHECKS_H_
