// Pulumi's special property values: objects keyed by the signature key
// (sdk/go/common/resource/sig/sig.go), and the one recognizer of them.
//
// Pulumi decodes a state with Go's encoding/json into a map, which keeps the
// LAST of duplicate object keys: of several signature members, the last
// decides what the object is (pkg/resource/stack/deployment.go,
// DeserializePropertyValue). Every question "what is this object?" and "is
// this a secret?" goes through RecognizeSignature, with an explicit rule:
//  - SecretRule::kGo where the answer must agree with Pulumi (diff's "no
//    longer secret", type checking, verify);
//  - SecretRule::kAnySignature where no plaintext may be left behind
//    whichever duplicate a reader keeps (redact, encrypt, scan, and every
//    display: a value either rule calls a secret is masked). kAnySignature
//    calls a secret everything kGo does, and more.
#ifndef PSTATE_STATE_SIGNATURE_H_
#define PSTATE_STATE_SIGNATURE_H_

#include <cstdint>
#include <cstring>
#include <string_view>

#include "json/value.h"

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

/// The string Pulumi stores for a computed (unknown) value, at any depth of
/// a property value and as the ID of a provider reference whose ID is not
/// known yet (sdk/go/common/resource/plugin/rpc.go, UnknownStringValue).
inline constexpr std::string_view kUnknownValue =
    "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/// What a property value is, as Pulumi reads it.
enum class PropertyKind : std::uint8_t {
  kNull,
  kBool,
  kNumber,
  kString,
  kUnknown,  ///< the computed sentinel kUnknownValue
  kArray,
  kObject,  ///< a plain object (no signature member)
  // Signature objects:
  kSecret,
  kAsset,
  kArchive,
  kResourceReference,
  kSpecialFloat,  ///< NaN or an infinity
  kByteString,    ///< a string of bytes that are not UTF-8
  kOutputValue,   ///< gRPC-only; Pulumi refuses it in state
  kUnrecognized,  ///< a signature member naming no kind (or not a string)
};

/// "null", "bool", ..., "secret", "asset", ..., for messages.
std::string_view PropertyKindName(PropertyKind kind);

/// Which objects are secrets (see the top of this file).
enum class SecretRule : std::uint8_t {
  /// The last signature member decides, as Pulumi reads the state.
  kGo,
  /// Any signature member saying "secret" makes the object a secret: for
  /// passes that must leave no plaintext behind, whichever duplicate
  /// another reader keeps. Otherwise as kGo.
  kAnySignature,
};

/// True when the member key `key` is the signature key (an escaped spelling
/// counts: Go compares decoded keys).
inline bool IsSignatureKey(const json::Value& key) {
  return (key.size == kSigKey.size() && !key.has_escapes &&
          std::memcmp(key.text, kSigKey.data(), key.size) == 0) ||
         (key.has_escapes && key.StrEquals(kSigKey));
}

/// The kind a signature member's value names (kUnrecognized for a
/// non-string or an unknown string).
PropertyKind SignatureKind(const json::Value& signature);

/// What RecognizeSignature found.
struct Signature {
  /// A signature kind, or kObject when the value has no signature member
  /// (or is not an object).
  PropertyKind kind = PropertyKind::kObject;
  /// The value of the signature member that decided `kind`; nullptr when
  /// there is none.
  const json::Value* member = nullptr;

  bool found() const { return member != nullptr; }
  bool secret() const { return kind == PropertyKind::kSecret; }
};

/// The one signature recognizer: what `value` is by its signature members
/// under `rule`. Looks at one level only; the fields are DecodeProperty's
/// (state/property.h).
Signature RecognizeSignature(const json::Value& value, SecretRule rule);

/// True when `value` is a secret object under `rule`.
inline bool IsSecret(const json::Value& value, SecretRule rule) {
  return value.is_object() && RecognizeSignature(value, rule).secret();
}

}  // namespace pstate::state

#endif  // PSTATE_STATE_SIGNATURE_H_
