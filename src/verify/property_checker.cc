#include "pstate/verify/property_checker.h"

#include <optional>

#include "pstate/base/hex.h"
#include "pstate/json/parser.h"
#include "pstate/crypto/base64.h"
#include "pstate/crypto/ciphertext.h"
#include "pstate/state/signature.h"

namespace pstate::verify {
namespace {

using diag::Code;
using state::SigKind;

/// Secrets nest inside plaintext a few levels at most; deeper nesting is
/// not checked (it can only come from a crafted file).
constexpr int kMaxPlaintextDepth = 16;

/// Inside a secret's plaintext, object keys are part of the secret: the
/// pointer shows "*" in their place (the structure around them stays).
constexpr std::string_view kHiddenKey = "*";

bool IsSigField(const json::Member& m) {
  return m.key.StrEquals(state::kSigKey);
}

}  // namespace

void PropertyChecker::Check(const json::Value& value, Reporter& reporter) {
  CheckValue(value, reporter);
}

void PropertyChecker::CheckValue(const json::Value& value,
                                 Reporter& reporter) {
  if (value.is_array()) {
    std::size_t i = 0;
    for (const json::Value& e : value.array()) {
      PointerScope scope(reporter, i++);
      CheckValue(e, reporter);
    }
    return;
  }
  if (!value.is_object()) return;
  SigKind kind = state::ClassifySignature(value);
  switch (kind) {
    case SigKind::kNone:
      for (const json::Member& m : value.object()) {
        if (m.value.is_array() || m.value.is_object()) {
          std::optional<PointerScope> scope;
          if (plaintext_depth_ > 0) {
            scope.emplace(reporter, kHiddenKey);
          } else {
            scope.emplace(reporter, m.key);
          }
          CheckValue(m.value, reporter);
        }
      }
      return;
    case SigKind::kAsset: CheckAsset(value, reporter); return;
    case SigKind::kArchive: CheckArchive(value, reporter); return;
    case SigKind::kSecret: CheckSecret(value, reporter); return;
    case SigKind::kResourceReference:
      CheckResourceReference(value, reporter);
      return;
    case SigKind::kSpecialFloat: {
      const json::Value* v = value.Find("value");
      if (!v || !v->is_string() || !IsLowerHex(v->raw(), 16)) {
        reporter.Add(Code::kFloatInvalid,
                     "special float \"value\" must be 16 lowercase hex digits "
                     "(the IEEE-754 bits of NaN or an infinity)",
                     v ? *v : value);
      }
      return;
    }
    case SigKind::kByteString: {
      const json::Value* v = value.Find("value");
      if (!v || !v->is_string() || !crypto::IsBase64(v->Str())) {
        reporter.Add(Code::kBytesInvalid,
                     "byte string \"value\" must be standard base64 with "
                     "padding",
                     v ? *v : value);
      }
      return;
    }
    case SigKind::kOutputValue:
      reporter.Add(Code::kSigOutputValue,
                   "output value signature in state; Pulumi flattens output "
                   "values before writing state and rejects this one",
                   value);
      return;
    case SigKind::kUnknown: {
      const json::Value* sig = value.Find(state::kSigKey);
      std::string shown =
          !(sig && sig->is_string())
              ? "of type " + std::string(json::TypeName(sig ? sig->type
                                                            : json::Type::kNull))
          // Inside a secret's plaintext the signature is secret text too.
          : plaintext_depth_ > 0 ? "(inside a secret's plaintext, not shown)"
                                 : "'" + sig->Str() + "'";
      reporter.Add(Code::kSigUnknown,
                   "unrecognized signature " + shown + " in property value",
                   sig ? *sig : value);
      return;
    }
  }
}

void PropertyChecker::CheckAsset(const json::Value& value,
                                 Reporter& reporter) {
  for (const json::Member& m : value.object()) {
    if (IsSigField(m)) continue;
    std::string key = m.key.Str();
    if (key == "hash" || key == "text" || key == "path" || key == "uri") {
      if (!m.value.is_string()) {
        PointerScope scope(reporter, key);
        reporter.Add(Code::kAssetInvalid,
                     "asset field \"" + key + "\" must be a string, found " +
                         std::string(json::TypeName(m.value.type)),
                     m.value);
      }
    }
  }
}

void PropertyChecker::CheckArchive(const json::Value& value,
                                   Reporter& reporter) {
  for (const json::Member& m : value.object()) {
    if (IsSigField(m)) continue;
    std::string key = m.key.Str();
    PointerScope scope(reporter, key);
    if (key == "hash" || key == "path" || key == "uri") {
      if (!m.value.is_string()) {
        reporter.Add(Code::kArchiveInvalid,
                     "archive field \"" + key + "\" must be a string, found " +
                         std::string(json::TypeName(m.value.type)),
                     m.value);
      }
    } else if (key == "assets") {
      if (m.value.is_null()) continue;
      if (!m.value.is_object()) {
        reporter.Add(Code::kArchiveInvalid,
                     "archive \"assets\" must be an object, found " +
                         std::string(json::TypeName(m.value.type)),
                     m.value);
        continue;
      }
      for (const json::Member& member : m.value.object()) {
        std::optional<PointerScope> inner;
        if (plaintext_depth_ > 0) {
          inner.emplace(reporter, kHiddenKey);
        } else {
          inner.emplace(reporter, member.key);
        }
        SigKind kind = state::ClassifySignature(member.value);
        if (kind == SigKind::kAsset) {
          CheckAsset(member.value, reporter);
        } else if (kind == SigKind::kArchive) {
          CheckArchive(member.value, reporter);
        } else {
          reporter.Add(Code::kArchiveInvalid,
                       "archive member must be an asset or an archive, found "
                       "a " + std::string(state::SigKindName(kind)),
                       member.value);
        }
      }
    }
  }
}

void PropertyChecker::CheckSecret(const json::Value& value,
                                  Reporter& reporter) {
  const json::Value* ciphertext = value.Find("ciphertext");
  const json::Value* plaintext = value.Find("plaintext");
  // Pulumi: a non-string counts as absent; exactly one must remain, and it
  // must be non-empty.
  bool has_c = ciphertext && ciphertext->is_string();
  bool has_p = plaintext && plaintext->is_string();
  if (has_c == has_p) {
    reporter.Add(Code::kSecretInvalid,
                 has_c ? "secret has both \"ciphertext\" and \"plaintext\"; "
                         "exactly one must be supplied"
                       : "secret has neither \"ciphertext\" nor \"plaintext\" "
                         "as a string; exactly one must be supplied",
                 value);
    return;
  }
  const json::Value& text = has_c ? *ciphertext : *plaintext;
  std::string_view field = has_c ? "ciphertext" : "plaintext";
  PointerScope scope(reporter, field);
  if (text.size == 0) {
    reporter.Add(Code::kSecretInvalid,
                 "secret \"" + std::string(field) + "\" is empty", text);
    return;
  }
  if (has_p || plaintext_depth_ > 0) {
    // Inside a plaintext, nested secrets carry their JSON text as
    // "ciphertext" (Pulumi serializes them with a no-op encrypter).
    CheckEmbedded(text, field, reporter);
    return;
  }
  ++ciphertexts_;
  const state::ProviderKind kind = env_.secrets_provider;
  const std::string provider(state::ProviderKindName(kind));
  if (kind == state::ProviderKind::kPassphrase ||
      kind == state::ProviderKind::kCloud) {
    std::string decoded = text.Str();
    if (auto problem = crypto::PassphraseCiphertextShapeProblem(decoded)) {
      reporter.Add(Code::kSecretCiphertextMalformed,
                   "ciphertext is not shaped as the " + provider +
                       " provider writes it: " + *problem,
                   text);
    }
  } else if (kind == state::ProviderKind::kService ||
             kind == state::ProviderKind::kB64) {
    if (!crypto::IsBase64(text.Str())) {
      reporter.Add(Code::kSecretCiphertextMalformed,
                   "ciphertext is not standard base64, as the " + provider +
                       " provider writes it",
                   text);
    }
  }
}

void PropertyChecker::CheckEmbedded(const json::Value& text,
                                    std::string_view field,
                                    Reporter& reporter) {
  if (plaintext_depth_ >= kMaxPlaintextDepth) return;
  std::string decoded = text.Str();
  json::Parser parser;
  json::Value inner;
  std::uint64_t place = reporter.offset_override() ? reporter.offset_override()
                                                   : text.offset;
  json::ParseStatus st = parser.ParseDocument(decoded, 0, embedded_arena_,
                                              &inner);
  if (st != json::ParseStatus::kOk) {
    // The parser's message may quote a character of the secret: say only
    // where it failed.
    reporter.Add(Code::kSecretPlaintextInvalid,
                 "secret \"" + std::string(field) +
                     "\" is not the JSON text of a value (invalid at byte " +
                     std::to_string(parser.error().offset + 1) + " of " +
                     std::to_string(decoded.size()) + ")",
                 text);
    return;
  }
  std::uint64_t saved = reporter.offset_override();
  reporter.set_offset_override(place);
  ++plaintext_depth_;
  CheckValue(inner, reporter);
  --plaintext_depth_;
  reporter.set_offset_override(saved);
  if (plaintext_depth_ == 0) embedded_arena_.Reset();
}

void PropertyChecker::CheckResourceReference(const json::Value& value,
                                             Reporter& reporter) {
  const json::Value* urn = value.Find("urn");
  if (!urn || !urn->is_string()) {
    reporter.Add(Code::kResourceRefInvalid,
                 urn ? "resource reference \"urn\" must be a string"
                     : "resource reference has no \"urn\"",
                 urn ? *urn : value);
  }
  if (const json::Value* v = value.Find("packageVersion");
      v && !v->is_string()) {
    PointerScope scope(reporter, "packageVersion");
    reporter.Add(Code::kResourceRefInvalid,
                 "resource reference \"packageVersion\" must be a string", *v);
  }
  if (const json::Value* id = value.Find("id");
      id && !id->is_string() && !id->is_object()) {
    // Legacy states wrote {"V": ...}; anything else is rejected.
    PointerScope scope(reporter, "id");
    reporter.Add(Code::kResourceRefInvalid,
                 "resource reference \"id\" must be a string", *id);
  }
  if (urn && urn->is_string() && env_.on_resource_reference) {
    PointerScope scope(reporter, "urn");
    env_.on_resource_reference(urn->Str(), urn->offset, reporter);
  }
}

}  // namespace pstate::verify
