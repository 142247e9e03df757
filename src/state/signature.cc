#include "state/signature.h"

#include <string>

namespace pstate::state {

PropertyKind SignatureKind(const json::Value& sig) {
  if (!sig.is_string()) return PropertyKind::kUnrecognized;
  std::string decoded = sig.has_escapes ? sig.Str() : std::string();
  std::string_view s = sig.has_escapes ? std::string_view(decoded) : sig.raw();
  if (s == kSigSecret) return PropertyKind::kSecret;
  if (s == kSigAsset) return PropertyKind::kAsset;
  if (s == kSigArchive) return PropertyKind::kArchive;
  if (s == kSigResourceReference) return PropertyKind::kResourceReference;
  if (s == kSigSpecialFloat) return PropertyKind::kSpecialFloat;
  if (s == kSigByteString) return PropertyKind::kByteString;
  if (s == kSigOutputValue) return PropertyKind::kOutputValue;
  return PropertyKind::kUnrecognized;
}

Signature RecognizeSignature(const json::Value& value, SecretRule rule) {
  Signature out;
  if (!value.is_object()) return out;
  // The last signature member, as Go's map keeps it.
  for (const json::Member& m : value.object()) {
    if (IsSignatureKey(m.key)) out.member = &m.value;
  }
  if (out.member == nullptr) return out;
  out.kind = SignatureKind(*out.member);
  if (rule == SecretRule::kAnySignature && out.kind != PropertyKind::kSecret) {
    // A secret signature earlier among duplicates still makes a secret.
    for (const json::Member& m : value.object()) {
      if (IsSignatureKey(m.key) &&
          SignatureKind(m.value) == PropertyKind::kSecret) {
        out.member = &m.value;
        out.kind = PropertyKind::kSecret;
        break;
      }
    }
  }
  return out;
}

std::string_view PropertyKindName(PropertyKind kind) {
  switch (kind) {
    case PropertyKind::kNull: return "null";
    case PropertyKind::kBool: return "bool";
    case PropertyKind::kNumber: return "number";
    case PropertyKind::kString: return "string";
    case PropertyKind::kUnknown: return "unknown value";
    case PropertyKind::kArray: return "array";
    case PropertyKind::kObject: return "object";
    case PropertyKind::kSecret: return "secret";
    case PropertyKind::kAsset: return "asset";
    case PropertyKind::kArchive: return "archive";
    case PropertyKind::kResourceReference: return "resource reference";
    case PropertyKind::kSpecialFloat: return "special float";
    case PropertyKind::kByteString: return "byte string";
    case PropertyKind::kOutputValue: return "output value";
    case PropertyKind::kUnrecognized: return "unknown signature";
  }
  return "value";
}

}  // namespace pstate::state
