// Whether a string found under a credential-looking name is plausibly the
// credential itself rather than a reference, flag or redaction marker.
//
// Not plausible (so not reported):
//  - empty, or shorter than kMinCredentialLength (6) bytes after trimming
//    surrounding ASCII white space: short values under such names are
//    overwhelmingly modes and flags ("none", "basic", "iam"); a real
//    5-character password is missed, a deliberate trade for few false
//    positives;
//  - booleans and null-ish words in any case (true false yes no on off null
//    nil none undefined), and numbers (optional sign, digits, one '.'): numeric
//    values under these names are lengths, TTLs and counts;
//  - redaction markers, i.e. values that say "the secret was removed":
//    REDACTED, hidden, masked, omitted, sensitive, (sensitive value) in any
//    case, <words> and [words] wrappers of letters, digits, space, - _ .
//    ("<secret>", "[secret]" from Pulumi's blinding crypter,
//    "<your-password>"), and runs of one mask character (*, x, X, #, ., •) of
//    any length. Weak but real passwords such as "changeme" or "password" ARE
//    plausible: a literal default password in state is still a live
//    credential in plaintext;
//  - Pulumi's unknown-value sentinels (04da6b54-80e4-46f7-96ec-b56ff0331ba9
//    and the other typed sentinels);
//  - references to where a secret is kept: AWS ARNs (arn:<partition>:...),
//    Azure resource ids (/subscriptions/...), Azure Key Vault secret URIs
//    (https://<vault>.vault.azure.net/...), GCP secret names
//    (projects/<p>/secrets/<s>...), and template or environment references
//    (${...}, {{...}}, $NAME, %NAME%);
//  - file system paths with an unambiguous prefix (~/ ./ ../ /etc/ /var/
//    /run/ /home/ /tmp/ /root/ /opt/ /usr/ /Users/ /mnt/ /secrets/ /vault/):
//    a path names where the credential lives.
// Everything else is plausible, including UUIDs (many API keys are UUIDs).
#ifndef PSTATE_SCAN_CREDENTIAL_VALUE_H_
#define PSTATE_SCAN_CREDENTIAL_VALUE_H_

#include <cstddef>
#include <string_view>

namespace pstate::scan {

inline constexpr std::size_t kMinCredentialLength = 6;

/// True when `value` (a string under a credential property name) plausibly
/// is the credential itself (rules above).
bool IsPlausibleCredentialValue(std::string_view value);

}  // namespace pstate::scan

#endif  // PSTATE_SCAN_CREDENTIAL_VALUE_H_
