#include "pstate/state/signature.h"

namespace pstate::state {

SigKind ClassifySignature(const json::Value& value) {
  if (!value.is_object()) return SigKind::kNone;
  const json::Value* sig = value.Find(kSigKey);
  if (!sig) return SigKind::kNone;
  if (!sig->is_string()) return SigKind::kUnknown;
  std::string decoded = sig->has_escapes ? sig->Str() : std::string();
  std::string_view s =
      sig->has_escapes ? std::string_view(decoded) : sig->raw();
  if (s == kSigAsset) return SigKind::kAsset;
  if (s == kSigArchive) return SigKind::kArchive;
  if (s == kSigSecret) return SigKind::kSecret;
  if (s == kSigResourceReference) return SigKind::kResourceReference;
  if (s == kSigSpecialFloat) return SigKind::kSpecialFloat;
  if (s == kSigByteString) return SigKind::kByteString;
  if (s == kSigOutputValue) return SigKind::kOutputValue;
  return SigKind::kUnknown;
}

bool IsSecret(const json::Value& value) {
  if (!value.is_object()) return false;
  for (const json::Member& m : value.object()) {
    // The key never needs unescaping in what Pulumi writes; an escaped
    // spelling still counts through StrEquals.
    if (m.key.raw() == kSigKey ||
        (m.key.has_escapes && m.key.StrEquals(kSigKey))) {
      return m.value.is_string() && m.value.StrEquals(kSigSecret);
    }
  }
  return false;
}

std::string_view SigKindName(SigKind kind) {
  switch (kind) {
    case SigKind::kNone: return "value";
    case SigKind::kAsset: return "asset";
    case SigKind::kArchive: return "archive";
    case SigKind::kSecret: return "secret";
    case SigKind::kResourceReference: return "resource reference";
    case SigKind::kSpecialFloat: return "special float";
    case SigKind::kByteString: return "byte string";
    case SigKind::kOutputValue: return "output value";
    case SigKind::kUnknown: return "unknown signature";
  }
  return "value";
}

}  // namespace pstate::state
