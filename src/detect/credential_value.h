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
//
// Password hashes and application-encrypted blobs are not plaintext
// credentials either (IsPasswordHash, IsEncryptedBlob below): scan reports a
// hash as its own, lower-severity finding (leak-password-hash) and leaves an
// encrypted blob alone.
#ifndef PSTATE_DETECT_CREDENTIAL_VALUE_H_
#define PSTATE_DETECT_CREDENTIAL_VALUE_H_

#include <cstddef>
#include <string_view>

namespace pstate::detect {

inline constexpr std::size_t kMinCredentialLength = 6;

/// True when `value` (a string under a credential property name) plausibly
/// is the credential itself (rules above).
bool IsPlausibleCredentialValue(std::string_view value);

/// A password hash in one of the formats password stores write, the whole
/// value (surrounding ASCII white space trimmed):
///  - bcrypt: $2$, $2a$, $2b$, $2x$, $2y$ + 2-digit cost + '$' + 53 characters
///    of bcrypt's base64 alphabet;
///  - crypt(3): $1$ (MD5), $5$ (SHA-256), $6$ (SHA-512), $apr1$ (Apache MD5),
///    $y$ (yescrypt), $7$ (scrypt), optional "rounds=N$", salt, hash;
///  - $argon2i$, $argon2d$, $argon2id$ (PHC string: params, salt, hash);
///  - Django/passlib: pbkdf2_sha1$, pbkdf2_sha256$, pbkdf2_sha512$,
///    bcrypt_sha256$, argon2$, scrypt$ with '$'-separated fields;
///  - LDAP: {SSHA}, {SHA}, {SSHA256}, {SSHA512}, {CRYPT}, {PBKDF2...}
///    followed by the digest.
bool IsPasswordHash(std::string_view value);

/// A value an application encrypted before storing it (so it is not a
/// plaintext credential): SOPS "ENC[...]", ejson "EJ[1:...]", Vault transit
/// "vault:vN:...", Ansible Vault "$ANSIBLE_VAULT;", an armored PGP message,
/// an age file, or an AWS KMS ciphertext blob (base64 starting "AQICAH" or
/// "AQIBAH", at least 100 characters).
bool IsEncryptedBlob(std::string_view value);

/// The minimum strength for a secret to be searched for elsewhere in the
/// state (`pstate scan`'s leak-known-secret): after trimming, at least
/// kMinStrongSecretLength (8) bytes, at least two character classes (lower
/// case, upper case, digits, other), at least 5 distinct bytes and a Shannon
/// entropy of at least kMinStrongSecretBits (2.5) bits per byte. A word
/// ("Private", "production"), a repeated pattern or a short code does not
/// qualify: found elsewhere it is far more often a name than a leak.
inline constexpr std::size_t kMinStrongSecretLength = 8;
inline constexpr double kMinStrongSecretBits = 2.5;
bool IsStrongSecret(std::string_view value);

}  // namespace pstate::detect

#endif  // PSTATE_DETECT_CREDENTIAL_VALUE_H_
