// Every finding code pstate can report, with its default severity.
//
// Codes are stable: tools match on the names, and docs/diagnostics.md
// explains each one. Add new codes at the end of their group; never rename.
#ifndef PSTATE_DIAG_CODES_H_
#define PSTATE_DIAG_CODES_H_

#include <optional>
#include <span>
#include <string_view>

#include "pstate/pstate.h"

namespace pstate::diag {

/// The API's (pstate/pstate.h).
using Severity = ::pstate::Severity;

/// "error", "warning" or "note" (the API's, defined in codes.cc).
using ::pstate::SeverityName;

enum class Code {
  // Reading: these stop the input (exit 2).
  kIoError,
  kJsonSyntax,
  kJsonInvalidUtf8,
  kJsonTooDeep,
  kNotAState,
  kVersionUnsupported,
  // JSON shape.
  kJsonDuplicateKey,
  kFieldType,
  kFieldMissing,
  kFieldUnknown,
  kFieldCase,
  kFieldValue,
  // Envelope.
  kFeaturesUnsupported,
  kFeaturesIgnored,
  kFeaturesUnsorted,
  // Manifest.
  kManifestMissing,
  kManifestTime,
  kManifestMagic,
  kManifestPlugin,
  // Resources and integrity.
  kUrnMalformed,
  kUrnTypeMismatch,
  kUrnStackMismatch,
  kParentTypeChain,
  kComponentHasId,
  kProviderMalformed,
  kProviderUnknown,
  kProviderResourceInvalid,
  kDependencyMissing,
  kDependencyOrder,
  kUrnDuplicate,
  kSnippetUuid,
  kPendingOperationType,
  kPendingOperation,
  kIntegrityErrorRecorded,
  // Property values.
  kSigUnknown,
  kSigOutputValue,
  kAssetInvalid,
  kArchiveInvalid,
  kSecretInvalid,
  kSecretPlaintextInvalid,
  kSecretCiphertextMalformed,
  kResourceRefInvalid,
  kResourceRefDangling,
  kFloatInvalid,
  kBytesInvalid,
  // Secrets provider.
  kSecretsProviderUnknown,
  kSecretsProviderState,
  kSecretsProviderMissing,
  kConfigSecureInvalid,
  // Asset audit (pstate assets, verify --assets).
  kAssetHashMismatch,
  kAssetMissing,
  kAssetError,
  kAssetUnverifiable,
  kAssetNoHash,
  kAssetAbsolutePath,
  kAssetPathEscapesRoot,
  kAssetBackslashPath,
  kAssetHashMalformed,
  // Plaintext secrets (pstate scan).
  kLeakKnownSecret,
  kLeakAdditionalSecretOutput,
  kLeakSecretMismatch,
  kLeakCredentialProperty,
  kLeakCredentialFormat,
  kLeakPasswordHash,
  kLeakSecretInName,
  // Package schemas (verify --schema; scan --schema: secret-plaintext).
  kSchemaType,
  kSchemaRequired,
  kSchemaPropertyUnknown,
  kSchemaSecretPlaintext,
  kSchemaResourceUnknown,
  kSchemaPackageMissing,
  kSchemaVersionMismatch,
  kSchemaRefInvalid,
};

struct CodeInfo {
  Code code;
  std::string_view name;     ///< stable kebab-case name
  Severity severity;         ///< default severity
  std::string_view summary;  ///< one line, used for SARIF rule descriptions
};

const CodeInfo& Info(Code code);
std::span<const CodeInfo> AllCodes();
std::optional<Code> FindCode(std::string_view name);

/// True for codes that mean the input could not be read as a state.
bool IsFatal(Code code);

}  // namespace pstate::diag

#endif  // PSTATE_DIAG_CODES_H_
