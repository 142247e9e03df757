// Pulumi's special property values: objects keyed by the signature key
// (pulumi-state-format.md §3, sdk/go/common/resource/sig/sig.go).
#ifndef PSTATE_STATE_SIGNATURE_H_
#define PSTATE_STATE_SIGNATURE_H_

#include <string_view>

#include "pstate/json/value.h"

namespace pstate::state {

inline constexpr std::string_view kSigKey = "4dabf18193072939515e22adb298388d";
inline constexpr std::string_view kSigAsset =
    "c44067f5952c0a294b673a41bacd8c17";
inline constexpr std::string_view kSigArchive =
    "0def7320c3a5731c473e5ecbe6d01bc7";
inline constexpr std::string_view kSigSecret =
    "1b47061264138c4ac30d75fd1eb44270";
inline constexpr std::string_view kSigResourceReference =
    "5cf8f73096256a8f31e491e813e4eb8e";
inline constexpr std::string_view kSigSpecialFloat =
    "8ad145fe-0d11-4827-bfd7-1abcbf086f5c";
inline constexpr std::string_view kSigByteString =
    "803fd3297a5875dc03ca845dda5d2a98";
inline constexpr std::string_view kSigOutputValue =
    "d0e6a833031e9bbcd3f4e8bde6ca49a4";

/// The string Pulumi stores for a computed (unknown) value.
inline constexpr std::string_view kUnknownValue =
    "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

enum class SigKind {
  kNone,  ///< a plain object (no signature key)
  kAsset,
  kArchive,
  kSecret,
  kResourceReference,
  kSpecialFloat,
  kByteString,
  kOutputValue,
  kUnknown,  ///< the key is there with an unrecognized value
};

/// Classifies an object by its signature key; kNone for non-objects.
SigKind ClassifySignature(const json::Value& value);

/// True for a secret object. Cheaper than ClassifySignature: redaction and
/// decryption ask it of every value they walk.
bool IsSecret(const json::Value& value);

std::string_view SigKindName(SigKind kind);

}  // namespace pstate::state

#endif  // PSTATE_STATE_SIGNATURE_H_
