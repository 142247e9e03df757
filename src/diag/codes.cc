#include "diag/codes.h"

#include <array>

namespace pstate {

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

}  // namespace pstate

namespace pstate::diag {
namespace {

constexpr Severity E = Severity::kError;
constexpr Severity W = Severity::kWarning;
constexpr Severity N = Severity::kNote;

constexpr std::array kCodes = {
    CodeInfo{Code::kIoError, "io-error", E,
             "The input could not be read or decompressed."},
    CodeInfo{Code::kJsonSyntax, "json-syntax", E,
             "The input is not valid JSON."},
    CodeInfo{Code::kJsonInvalidUtf8, "json-invalid-utf8", E,
             "A string contains bytes that are not valid UTF-8."},
    CodeInfo{Code::kJsonTooDeep, "json-too-deep", E,
             "Values are nested deeper than pstate accepts."},
    CodeInfo{Code::kNotAState, "not-a-state", E,
             "The JSON document is not a Pulumi state export or checkpoint."},
    CodeInfo{
        Code::kVersionUnsupported, "version-unsupported", E,
        "The state's version is too old, too new or not a version number."},
    CodeInfo{
        Code::kJsonDuplicateKey, "json-duplicate-key", W,
        "An object has the same key twice; Pulumi keeps only the last one."},
    CodeInfo{Code::kFieldType, "field-type", E,
             "A known field has the wrong JSON type."},
    CodeInfo{Code::kFieldMissing, "field-missing", E,
             "A required field is missing or empty."},
    CodeInfo{Code::kFieldUnknown, "field-unknown", N,
             "A field Pulumi does not know; Pulumi ignores it."},
    CodeInfo{Code::kFieldCase, "field-case", N,
             "A field name in another letter case than Pulumi writes; Go "
             "matches it case-insensitively."},
    CodeInfo{Code::kFieldValue, "field-value", E,
             "A known field has a value Pulumi does not accept."},
    CodeInfo{Code::kFeaturesUnsupported, "features-unsupported", E,
             "The state needs features this Pulumi format does not define; "
             "Pulumi refuses to load it."},
    CodeInfo{Code::kFeaturesIgnored, "features-ignored", W,
             "A features list on a state version below 4; Pulumi ignores it."},
    CodeInfo{Code::kFeaturesUnsorted, "features-unsorted", N,
             "The features list is not sorted or has duplicates, unlike what "
             "Pulumi writes."},
    CodeInfo{Code::kManifestMissing, "manifest-missing", N,
             "The deployment has no manifest; Pulumi reads the zero manifest."},
    CodeInfo{Code::kManifestTime, "manifest-time", E,
             "The manifest time is not an RFC 3339 timestamp."},
    CodeInfo{Code::kManifestMagic, "manifest-magic", E,
             "The manifest magic is not the SHA-256 of the manifest version."},
    CodeInfo{Code::kManifestPlugin, "manifest-plugin", E,
             "A manifest plugin entry is malformed."},
    CodeInfo{Code::kUrnMalformed, "urn-malformed", E,
             "A URN is not of the form "
             "urn:pulumi:<stack>::<project>::<type>::<name>."},
    CodeInfo{Code::kUrnTypeMismatch, "urn-type-mismatch", E,
             "A resource's URN names a different type than its type field."},
    CodeInfo{Code::kUrnStackMismatch, "urn-stack-mismatch", W,
             "Resources belong to more than one stack or project."},
    CodeInfo{Code::kParentTypeChain, "parent-type-chain", W,
             "A child's qualified type does not extend its parent's."},
    CodeInfo{Code::kComponentHasId, "component-has-id", E,
             "A resource with custom false has an id."},
    CodeInfo{Code::kProviderMalformed, "provider-malformed", E,
             "A provider reference is not <provider URN>::<id> with a provider "
             "type."},
    CodeInfo{Code::kProviderUnknown, "provider-unknown", E,
             "A provider reference names no earlier provider resource with "
             "that id."},
    CodeInfo{Code::kProviderResourceInvalid, "provider-resource-invalid", E,
             "A provider resource's URN and id do not form a valid provider "
             "reference."},
    CodeInfo{Code::kDependencyMissing, "dependency-missing", E,
             "A parent or dependency names a URN that is not in the state."},
    CodeInfo{
        Code::kDependencyOrder, "dependency-order", E,
        "A parent or dependency comes after the resource that refers to it."},
    CodeInfo{Code::kUrnDuplicate, "urn-duplicate", E,
             "A URN occurs more than once without the copies being marked for "
             "deletion."},
    CodeInfo{Code::kSnippetUuid, "snippet-uuid", E,
             "A snippet has no uuid or shares it with another snippet."},
    CodeInfo{Code::kPendingOperationType, "pending-operation-type", E,
             "A pending operation has an unknown type."},
    CodeInfo{Code::kPendingOperation, "pending-operation", W,
             "An operation was interrupted; Pulumi asks to resolve it on the "
             "next update."},
    CodeInfo{
        Code::kIntegrityErrorRecorded, "integrity-error-recorded", W,
        "Pulumi recorded an integrity error when it last saved this state."},
    CodeInfo{Code::kSigUnknown, "sig-unknown", E,
             "A property value has a signature Pulumi does not recognize."},
    CodeInfo{Code::kSigOutputValue, "sig-output-value", E,
             "An output value signature, which Pulumi never writes to state."},
    CodeInfo{Code::kAssetInvalid, "asset-invalid", E,
             "An asset object has fields of the wrong type."},
    CodeInfo{Code::kArchiveInvalid, "archive-invalid", E,
             "An archive object has fields of the wrong type or a member that "
             "is not an asset or archive."},
    CodeInfo{Code::kSecretInvalid, "secret-invalid", E,
             "A secret object needs exactly one of ciphertext or plaintext as "
             "a non-empty string."},
    CodeInfo{Code::kSecretPlaintextInvalid, "secret-plaintext-invalid", E,
             "A secret's plaintext is not the JSON text of a property value."},
    CodeInfo{Code::kSecretCiphertextMalformed, "secret-ciphertext-malformed", E,
             "A ciphertext is not shaped as the secrets provider writes it."},
    CodeInfo{
        Code::kResourceRefInvalid, "resource-ref-invalid", E,
        "A resource reference lacks its urn or has fields of the wrong type."},
    CodeInfo{Code::kResourceRefDangling, "resource-ref-dangling", W,
             "A resource reference names a URN that is not in the state."},
    CodeInfo{Code::kFloatInvalid, "float-invalid", E,
             "A special float value is not 16 lowercase hex digits."},
    CodeInfo{Code::kBytesInvalid, "bytes-invalid", E,
             "A byte string value is not valid standard base64."},
    CodeInfo{Code::kSecretsProviderUnknown, "secrets-provider-unknown", E,
             "The secrets provider type is not one Pulumi knows."},
    CodeInfo{Code::kSecretsProviderState, "secrets-provider-state", E,
             "The secrets provider's state is malformed."},
    CodeInfo{Code::kSecretsProviderMissing, "secrets-provider-missing", E,
             "The state holds ciphertexts but names no secrets provider to "
             "decrypt them."},
    CodeInfo{Code::kConfigSecureInvalid, "config-secure-invalid", E,
             "A secure config value is malformed."},
    CodeInfo{Code::kAssetHashMismatch, "asset-hash-mismatch", E,
             "The content no longer hashes to the recorded hash."},
    CodeInfo{Code::kAssetMissing, "asset-missing", E,
             "A file or directory the asset refers to does not exist."},
    CodeInfo{Code::kAssetError, "asset-error", E,
             "The asset or archive cannot be hashed."},
    CodeInfo{Code::kAssetUnverifiable, "asset-unverifiable", N,
             "The content cannot be checked offline (remote URI or hash-only "
             "placeholder)."},
    CodeInfo{Code::kAssetNoHash, "asset-no-hash", N,
             "No hash is recorded for this asset or archive."},
    CodeInfo{Code::kAssetAbsolutePath, "asset-absolute-path", W,
             "An absolute path breaks on any other machine."},
    CodeInfo{Code::kAssetPathEscapesRoot, "asset-path-escapes-root", W,
             "A path leaves the asset root directory."},
    CodeInfo{Code::kAssetBackslashPath, "asset-backslash-path", W,
             "A path or member name contains a backslash."},
    CodeInfo{Code::kAssetHashMalformed, "asset-hash-malformed", W,
             "A recorded hash is not 64 lowercase hex digits."},
    CodeInfo{
        Code::kLeakKnownSecret, "leak-known-secret", E,
        "The plaintext of a secret appears in a value that is not secret."},
    CodeInfo{
        Code::kLeakAdditionalSecretOutput, "leak-additional-secret-output", E,
        "An output listed in additionalSecretOutputs is stored in plaintext."},
    CodeInfo{Code::kLeakSecretMismatch, "leak-secret-mismatch", E,
             "A property is secret in inputs but plaintext in outputs, or the "
             "reverse."},
    CodeInfo{Code::kLeakCredentialProperty, "leak-credential-property", E,
             "A property named like a credential holds a plaintext value."},
    CodeInfo{Code::kLeakCredentialFormat, "leak-credential-format", E,
             "A plaintext value has the format of a well-known credential."},
    CodeInfo{
        Code::kLeakPasswordHash, "leak-password-hash", W,
        "A non-secret value is a password hash, which can be cracked offline."},
    CodeInfo{Code::kLeakSecretInName, "leak-secret-in-name", N,
             "A resource's URN contains the plaintext of a secret; names are "
             "never redacted."},
    CodeInfo{Code::kSchemaType, "schema-type", E,
             "A property value does not fit its type in the provider's package "
             "schema."},
    CodeInfo{Code::kSchemaRequired, "schema-required", E,
             "A property the package schema requires is absent or null (a "
             "warning in outputs)."},
    CodeInfo{Code::kSchemaPropertyUnknown, "schema-property-unknown", N,
             "A property the package schema does not declare."},
    CodeInfo{
        Code::kSchemaSecretPlaintext, "schema-secret-plaintext", W,
        "A property the package schema marks secret is stored in plaintext."},
    CodeInfo{Code::kSchemaResourceUnknown, "schema-resource-unknown", W,
             "The package schema has no resource of this type (removed or "
             "renamed)."},
    CodeInfo{Code::kSchemaPackageMissing, "schema-package-missing", N,
             "The state uses a package for which no schema was given."},
    CodeInfo{Code::kSchemaVersionMismatch, "schema-version-mismatch", N,
             "No schema of the provider's version was given; another version "
             "was used."},
    CodeInfo{Code::kSchemaRefInvalid, "schema-ref-invalid", W,
             "A $ref inside a package schema points nowhere; values of that "
             "type are not checked."},
};

}  // namespace

const CodeInfo& Info(Code code) {
  return kCodes[static_cast<std::size_t>(code)];
}

std::span<const CodeInfo> AllCodes() { return kCodes; }

std::optional<Code> FindCode(std::string_view name) {
  for (const CodeInfo& info : kCodes) {
    if (info.name == name) return info.code;
  }
  return std::nullopt;
}

bool IsFatal(Code code) {
  switch (code) {
    case Code::kIoError:
    case Code::kJsonSyntax:
    case Code::kJsonInvalidUtf8:
    case Code::kJsonTooDeep:
    case Code::kNotAState:
    case Code::kVersionUnsupported: return true;
    default: return false;
  }
}

}  // namespace pstate::diag
