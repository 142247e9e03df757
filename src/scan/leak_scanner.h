// Secrets stored in the clear inside one resource: the rules behind
// `pstate scan` (docs/scan.md), usable by other passes (`redact --leaks`).
//
// Rules, checked on a resource object (an element of "resources" or a pending
// operation's "resource"):
//  leak-additional-secret-output
//      a name in `additionalSecretOutputs` whose `outputs.<name>` is present,
//      not null, not "" / {} / [], and not a secret object.
//  leak-secret-mismatch
//      a top-level property that is a secret object in `inputs` but a
//      non-empty plaintext value in `outputs`, or the reverse; the plaintext
//      side is the location. (`__inputs` inside Kubernetes outputs is
//      compared with `inputs` the same way.) When the secret's value is
//      known (a `plaintext` secret, or decryptable) and differs from the
//      plaintext side (e.g. an output that is a hash of a secret input), it
//      is not reported.
//  leak-known-secret
//      a non-secret string (a property value at any depth in inputs or
//      outputs, the `id` or `importID`) containing the plaintext of a
//      known secret (KnownSecrets: matchable plaintexts of the whole state).
//      A value that is the resource's own name, its type token or its
//      auto-name (name + "-" + 7 hex digits) is not reported: names repeat.
//  leak-secret-in-name (note)
//      the URN contains a known secret. A URN (and so a type token or a
//      resource name) is never reported as a leak: names repeat values by
//      design, and no redaction can change one without breaking references.
//  leak-password-hash (warning)
//      a non-secret string that is a password hash (detect::IsPasswordHash).
//  leak-credential-property
//      a non-secret string under a credential property name
//      (detect::IsCredentialPropertyName on the nearest member name; for the
//      "value" of a name/value pair, the pair's "name": Kubernetes env, ECS
//      environment/secrets, Elastic Beanstalk settings), plausible
//      (detect::IsPlausibleCredentialValue), not an application-encrypted blob
//      (detect::IsEncryptedBlob), not a passphrase-ciphertext shape,
//      not a setting word (required, optional, enabled, disabled, default,
//      auto, automatic, manual, managed, inherit, generated, random, ...: the
//      values of enum-typed properties such as EC2's `httpTokens`);
//      a `kubeconfig`-named value counts only when it carries credential
//      material (token, password, client-key-data, ...), not when it only
//      points at an exec plugin or a file.
//  leak-credential-format
//      a well-known credential format (detect::DetectCredentialFormat) inside a
//      non-secret string in inputs, outputs, `id` or the URN.
// Anything inside a secret object is secret and never reported (any
// signature member saying "secret" makes one, state/secret_object.h).
// Placeholders written by `pstate redact` count as empty, so a redacted state
// scans clean. Duplicate keys: the last "inputs"/"outputs"/... is the one
// compared (Go's choice); every "inputs"/"outputs" member is searched. One
// value
// gets at most one finding: a property flagged by a structural rule
// (additional-secret-output, mismatch) is not searched further, and for a
// string the first of known-secret, credential-property, credential-format
// that applies wins.
//
// Messages name the kind and the property, never the value: a value is
// described by a 12-hex-digit keyed fingerprint (crypto::Fingerprinter::
// ShortFingerprint of FingerprintText), so equal values give equal
// fingerprints within a run. Every known plaintext in the finding's URN,
// pointer and message is replaced by KnownSecrets::Mask's "***", so a
// secret that is also a name or a key is never printed.
#ifndef PSTATE_SCAN_LEAK_SCANNER_H_
#define PSTATE_SCAN_LEAK_SCANNER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "crypto/fingerprint.h"
#include "diag/codes.h"
#include "json/parser.h"
#include "json/value.h"
#include "scan/known_secrets.h"

namespace pstate::scan {

struct LeakOptions {
  /// Required: one per run, so equal values match across findings.
  const crypto::Fingerprinter* fingerprinter = nullptr;
  /// Optional: the state's known secrets (leak-known-secret needs it).
  const KnownSecrets* known_secrets = nullptr;
  /// Optional: decrypts `ciphertext` secrets so leak-secret-mismatch can
  /// compare values (null: only `plaintext` secrets are compared).
  const Decryptor* decryptor = nullptr;
  bool additional_secret_outputs = true;
  bool secret_mismatch = true;
  bool known_secret = true;
  bool credential_property = true;
  bool credential_format = true;
};

struct Leak {
  diag::Code code = diag::Code::kLeakCredentialFormat;
  /// Never contains the secret; ends with "(hmac-sha256 <12 hex>)", the
  /// start of the keyed HMAC of the value (not the finding's fingerprint).
  std::string message;
  std::string pointer;  ///< RFC 6901 pointer of the leaking value
  std::uint64_t offset =
      0;            ///< the value's absolute offset (json::Value::offset)
  std::string urn;  ///< the resource's URN ("" if it has none)
  /// The leaking string value inside the resource tree; nullptr when the
  /// leak is not a single string (an object or array output, ...).
  const json::Value* value = nullptr;
};

class LeakScanner {
 public:
  explicit LeakScanner(const LeakOptions& options);

  /// Replaces LeakOptions::decryptor (e.g. once the provider is known).
  void set_decryptor(const Decryptor* decryptor) {
    options_.decryptor = decryptor;
  }

  /// Scans one resource object (a leaf of "resources" or a pending
  /// operation's "resource"); `base_pointer` is that object's pointer.
  /// Appends leaks in document order within each rule.
  void ScanResource(const json::Value& resource, std::string_view base_pointer,
                    std::vector<Leak>* out);
  /// Scans a checkpoint's stack configuration (the "config" object of a
  /// file-backend checkpoint, at `base_pointer`): its plaintext values are
  /// read as property values are, so a credential under a credential-like
  /// key ("proj:adminPassword"), a known secret's plaintext or a credential
  /// format is a leak; "secure" values are ciphertext.
  void ScanConfig(const json::Value& config, std::string_view base_pointer,
                  std::vector<Leak>* out);

 private:
  struct Walk;
  struct Visitor;  // of the property walker (state/property.h)
  /// Scans one inputs/outputs object, the member `key` (as spelled in the
  /// file, for pointers) of the field `section` ("inputs" or "outputs").
  void ScanProperties(const json::Value& props, std::string_view key,
                      std::string_view section, Walk& walk);
  /// The properties `props` at the walk's pointer.
  void WalkSection(const json::Value& props, std::string_view section,
                   Walk& walk);
  bool ScanString(const json::Value& value, std::string_view nearest_key,
                  bool by_name, Walk& walk);
  std::string Fingerprint(const json::Value& value) const;
  bool IsCredentialName(std::string_view key);
  /// The compact JSON of a secret's value, when known.
  std::optional<std::string> SecretValueText(const json::Value& secret);

  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const {
      return std::hash<std::string_view>{}(s);
    }
  };

  LeakOptions options_;
  std::vector<std::size_t> ids_;
  std::string scratch_;
  json::Parser parser_;
  std::unordered_map<std::string, bool, StringHash, std::equal_to<>>
      name_cache_;
};

/// The text a value is fingerprinted over, the one definition scan and
/// redact share: the decoded string for a string, the compact JSON text
/// (keys in document order) for any other value.
std::string FingerprintText(const json::Value& value);

/// Short fingerprint of a value: the first 12 hex digits of the HMAC of
/// FingerprintText (used by the scanner; exposed for tests and redact).
std::string ValueFingerprint(const crypto::Fingerprinter& fingerprinter,
                             const json::Value& value);

}  // namespace pstate::scan

#endif  // PSTATE_SCAN_LEAK_SCANNER_H_
