// The `pstate redact` pass: rewrites a state so that it can be shared
// without its secrets, while `pstate verify` still accepts it.
//
// What is replaced (pulumi-state-format.md §3, §5):
//  - every secret object, wherever it sits in the file (resources, pending
//    operations, snippets, extensions, unknown members, a second envelope,
//    inside another secret's members), keeps its signature and key order,
//    but every "ciphertext" or "plaintext" member (duplicates and case
//    variants included) becomes a placeholder (or a keyed fingerprint, see
//    RedactOptions::fingerprinter). An object is a secret when any of its
//    signature members says so (state/secret_object.h), so a duplicate
//    signature key cannot hide one;
//  - the secrets provider keeps its "type"; every string and number under
//    its "state" is replaced (booleans and null stay: they are settings,
//    not secrets). A passphrase "salt" becomes kRedactedSalt and a cloud
//    "encryptedkey" kRedactedBase64, so both keep the shape verify checks;
//  - checkpoint "config": every {"secure": "..."} value;
//  - metadata.integrity_error.env_vars: every value; .command (Pulumi's
//    argv): everything after the program and subcommand words;
//  - optionally plain values under property names matching a glob, and the
//    values the leak scanner reports.
// Reference fields (urn, parent, provider, dependencies,
// propertyDependencies, deletedWith, replaceWith, id) are never changed, even
// when the leak scanner reports a secret inside one: rewriting them would
// break the state. Such leaks are counted in RedactStats::reference_leaks so
// the command can say so. Duplicate keys: every occurrence is rewritten, so
// the output is safe whichever one a reader keeps.
// Everything else is shared with the input, so it is written back exactly.
#ifndef PSTATE_REDACT_REDACTOR_H_
#define PSTATE_REDACT_REDACTOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "crypto/fingerprint.h"
#include "json/parser.h"
#include "json/value.h"
#include "redact/anonymizer.h"
#include "scan/known_secrets.h"
#include "state/property.h"
#include "state/provider.h"
#include "state/reader.h"

namespace pstate::redact {

/// The decoded text every redacted plain value becomes.
inline constexpr std::string_view kRedactedText = "[redacted by pstate]";
/// A plaintext secret's JSON text after redaction: the JSON string
/// "[redacted by pstate]", so the plaintext stays valid JSON text.
inline constexpr std::string_view kRedactedPlaintext =
    "\"[redacted by pstate]\"";
/// Standard base64 of kRedactedPlaintext: service / b64 ciphertexts and a
/// cloud provider's "encryptedkey".
inline constexpr std::string_view kRedactedBase64 =
    "IltyZWRhY3RlZCBieSBwc3RhdGVdIg==";
/// A passphrase/cloud-shaped ciphertext: "v1:", 12 zero bytes as nonce,
/// then kRedactedPlaintext as the 22-byte "ciphertext". It decrypts under
/// no key (the tag cannot verify).
inline constexpr std::string_view kRedactedCiphertext =
    "v1:AAAAAAAAAAAAAAAA:IltyZWRhY3RlZCBieSBwc3RhdGVdIg==";
/// A passphrase salt state with the shape Pulumi writes: 8 zero bytes of
/// salt, then kRedactedCiphertext as the check value. Every passphrase is
/// "incorrect" for it.
inline constexpr std::string_view kRedactedSalt =
    "v1:AAAAAAAAAAA=:v1:AAAAAAAAAAAAAAAA:IltyZWRhY3RlZCBieSBwc3RhdGVdIg==";

struct RedactOptions {
  /// When set, secrets become keyed fingerprints instead of placeholders:
  ///  - ciphertexts (secrets, secure config): the 32 HMAC-SHA256 bytes of the
  ///    ciphertext, written in the provider's ciphertext shape
  ///    ("v1:AAAAAAAAAAAAAAAA:<base64 of the 32 bytes>", or plain base64 for
  ///    service and b64 states);
  ///  - plaintexts: the JSON text "\"hmac-sha256:<hex>\"" of the HMAC of the
  ///    secret's value as FingerprintText defines it (the decoded string, or
  ///    compact JSON for other values);
  ///  - env vars, --also values and leaks: the string "hmac-sha256:<hex>" of
  ///    the same FingerprintText. A plain "hunter2" and a plaintext secret
  ///    "hunter2" fingerprint alike, and `pstate scan` with the same key
  ///    shows the first 12 hex digits of that HMAC.
  /// The provider's state always gets fixed placeholders.
  std::optional<crypto::Fingerprinter> fingerprinter;
  /// Shell-style globs (`*`, `?`, case-insensitive) on property names: plain
  /// values under a matching name inside a resource's "inputs"/"outputs"
  /// (any depth) and checkpoint config keys are redacted.
  std::vector<std::string> also;
  /// Redact every value the leak scanner reports (the default: a shared
  /// state must not carry plaintext credentials).
  bool leaks = true;
  /// Without `leaks`: still run the leak scanner and count what it reports
  /// in RedactStats::kept_leaks, so the command can say what was left.
  bool count_kept_leaks = false;
  /// With `leaks` or `count_kept_leaks`: every secret plaintext of the state
  /// (collected by a first pass), so copies of them in plain values are
  /// redacted too. Null when the input can be read only once (standard input).
  const scan::KnownSecrets* known_secrets = nullptr;
  /// --anonymize: every string of the state, after redaction, through the
  /// anonymizer (which Run teaches in its first pass). Not owned.
  Anonymizer* anonymizer = nullptr;
};

/// What a run replaced (counts only; never values).
/// The API's (pstate/pstate.h).
using RedactStats = ::pstate::RedactResult;

/// A state::StateWriter pass. One instance per input; not thread-safe.
class Redactor {
 public:
  explicit Redactor(RedactOptions options);
  ~Redactor();
  Redactor(const Redactor&) = delete;
  Redactor& operator=(const Redactor&) = delete;

  void Process(state::Leaf& leaf, state::Context& context);

  const RedactStats& stats() const { return stats_; }

 private:
  class LeakHook;

  json::Value RedactResource(const json::Value& resource, json::Arena& arena,
                             std::string_view base_pointer);
  json::Value RedactConfig(const json::Value& config, json::Arena& arena,
                           std::string_view pointer);
  /// Fills leak_values_ with the leaking values of `value` (a resource, or
  /// with `config` a checkpoint's config) at `pointer`, unless leaks are
  /// kept (then only counted).
  void CollectLeaks(const json::Value& value, std::string_view pointer,
                    bool config);
  /// The replacement of `v` when it is one of leak_values_.
  std::optional<json::Value> LeakValue(const json::Value& v,
                                       json::Arena& arena);
  json::Value RedactProvider(const json::Value& provider, json::Arena& arena);
  json::Value RedactProviderState(const json::Value& state, json::Arena& arena);
  json::Value RedactMetadata(const json::Value& metadata, json::Arena& arena);
  json::Value RedactIntegrityError(const json::Value& error,
                                   json::Arena& arena);
  json::Value RedactCommand(const json::Value& command, json::Arena& arena);
  json::Value RedactPendingOperation(const json::Value& op, json::Arena& arena,
                                     std::string_view base_pointer);
  /// The replacement for a secret object (nullopt when it is not one).
  std::optional<json::Value> RedactSecret(const json::Value& value,
                                          json::Arena& arena);
  /// The same for a node of the property walker (state/property.h).
  std::optional<json::Value> RedactSecretNode(const state::PropertyNode& node,
                                              json::Arena& arena);
  /// For a leaf outside the modelled places: every secret object, and any
  /// integrity_error, secrets_providers or {"secure": ...} config value
  /// found at any depth (a second envelope), redacted.
  json::Value RedactAnywhere(const json::Value& value, json::Arena& arena);
  /// `value` with every secret object in it (at any depth) redacted.
  json::Value RedactSecretsIn(const json::Value& value, json::Arena& arena);
  /// The replacement for a secret's "plaintext" member.
  json::Value PlaintextFor(const json::Value& plaintext, json::Arena& arena);
  /// A ciphertext-shaped replacement for the ciphertext `escaped`.
  json::Value CiphertextFor(const json::Value& ciphertext, json::Arena& arena,
                            bool config);
  /// The replacement for a plain value (string, number, bool).
  json::Value PlainFor(const json::Value& value, json::Arena& arena);
  /// Every non-null scalar in `value` replaced (secrets as secrets, other
  /// signature objects untouched).
  json::Value RedactPlainTree(const json::Value& value, json::Arena& arena,
                              std::uint64_t* counter);
  bool MatchesAlso(const json::Value& key) const;
  /// `value` with every string the anonymizer rewrites replaced.
  json::Value Anonymize(const json::Value& value, json::Arena& arena);

  RedactOptions options_;
  RedactStats stats_;
  /// The secrets provider's kind, once seen.
  state::ProviderKind provider_ = state::ProviderKind::kNone;
  LeakHook* leak_hook_ = nullptr;
  std::unordered_set<const json::Value*> leak_values_;
  std::string scratch_;
  json::Parser parser_;
};

}  // namespace pstate::redact

#endif  // PSTATE_REDACT_REDACTOR_H_
