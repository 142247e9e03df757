#include "verify/property_checker.h"

#include <optional>

#include "base/base64.h"
#include "base/hex.h"
#include "crypto/ciphertext.h"
#include "json/pointer.h"
#include "state/signature.h"

namespace pstate::verify {
namespace {

using diag::Code;
using state::PropertyKind;
using state::Step;

bool IsSigField(const json::Member& m) {
  return m.key.StrEquals(state::kSigKey);
}

/// Adds a finding about `at` (the walker's current node), or about its
/// member `token` when one is given. The pointer is spelled out only here:
/// findings are rare, nodes are not.
void Add(Reporter& reporter, const state::PropertyCursor& at, Code code,
         std::string message, const json::Value& value,
         std::string_view token = {}) {
  std::string pointer = at.Pointer();
  if (!token.empty()) json::AppendPointerToken(&pointer, token);
  PointerScope scope(reporter, PointerSuffix{pointer});
  reporter.Add(code, std::move(message), at.Offset(value));
}

}  // namespace

struct PropertyChecker::Visitor {
  // Scalars hold nothing to check (the members of an archive's map, which
  // must be assets or archives, are visited all the same).
  static constexpr bool kVisitScalars = false;
  struct Level {
    /// The node is a member of an archive's "assets" map.
    bool archive_member = false;
  };
  PropertyChecker& checker;
  Reporter& reporter;

  Step Visit(const state::PropertyNode& node, state::PropertyCursor& at,
             Level& level) {
    if (level.archive_member && node.kind != PropertyKind::kAsset &&
        node.kind != PropertyKind::kArchive) {
      Add(reporter, at, Code::kArchiveInvalid,
          "archive member must be an asset or an archive, found a " +
              std::string(node.is_signature()
                              ? state::PropertyKindName(node.kind)
                              : std::string_view("value")),
          *node.value);
      return Step::kSkip;
    }
    level.archive_member = false;
    const json::Value& value = *node.value;
    switch (node.kind) {
      case PropertyKind::kArray:
      case PropertyKind::kObject: return Step::kDescend;
      case PropertyKind::kAsset:
        checker.CheckAsset(node, at, reporter);
        return Step::kSkip;
      case PropertyKind::kArchive:
        checker.CheckArchive(node, at, reporter);
        level.archive_member = true;
        return Step::kDescend;
      case PropertyKind::kSecret:
        return checker.CheckSecret(node, at, reporter) ? Step::kDescend
                                                       : Step::kSkip;
      case PropertyKind::kResourceReference:
        checker.CheckResourceReference(node, at, reporter);
        return Step::kSkip;
      case PropertyKind::kSpecialFloat: {
        // Stricter than Go's strconv.ParseUint: Pulumi writes %016x.
        const json::Value* v = node.payload_value();
        if (!v || !v->is_string() || !IsLowerHex(v->raw(), 16)) {
          Add(reporter, at, Code::kFloatInvalid,
              "special float \"value\" must be 16 lowercase hex digits "
              "(the IEEE-754 bits of NaN or an infinity)",
              v ? *v : value);
        }
        return Step::kSkip;
      }
      case PropertyKind::kByteString: {
        const json::Value* v = node.payload_value();
        if (!v || !v->is_string() || !IsBase64(v->Str())) {
          Add(reporter, at, Code::kBytesInvalid,
              "byte string \"value\" must be standard base64 with padding",
              v ? *v : value);
        }
        return Step::kSkip;
      }
      case PropertyKind::kOutputValue:
        Add(reporter, at, Code::kSigOutputValue,
            "output value signature in state; Pulumi flattens output "
            "values before writing state and rejects this one",
            value);
        return Step::kSkip;
      case PropertyKind::kUnrecognized: {
        const json::Value* sig = node.signature;
        std::string shown =
            !sig->is_string()
                ? "of type " + std::string(json::TypeName(sig->type))
            // Inside a secret's plaintext the signature is secret text too.
            : at.in_secret() ? "(inside a secret's plaintext, not shown)"
                             : "'" + sig->Str() + "'";
        Add(reporter, at, Code::kSigUnknown,
            "unrecognized signature " + shown + " in property value", *sig);
        return Step::kSkip;
      }
      default: return Step::kSkip;  // scalars and the unknown value
    }
  }
};

void PropertyChecker::Check(const json::Value& value, Reporter& reporter) {
  Visitor visitor{*this, reporter};
  // Pointers are relative: the reporter's own pointer names `value`.
  state::WalkProperties(value, visitor);
}

void PropertyChecker::CheckAsset(const state::PropertyNode& node,
                                 state::PropertyCursor& at,
                                 Reporter& reporter) {
  // Every member, duplicates included: each one Go might read is checked.
  for (const json::Member& m : node.value->object()) {
    if (IsSigField(m)) continue;
    std::string key = m.key.Str();
    if (key == "hash" || key == "text" || key == "path" || key == "uri") {
      if (!m.value.is_string()) {
        Add(reporter, at, Code::kAssetInvalid,
            "asset field \"" + key + "\" must be a string, found " +
                std::string(json::TypeName(m.value.type)),
            m.value, key);
      }
    }
  }
}

void PropertyChecker::CheckArchive(const state::PropertyNode& node,
                                   state::PropertyCursor& at,
                                   Reporter& reporter) {
  // The archive's own fields; the walk visits the members of its "assets"
  // map (Visitor::Level::archive_member).
  for (const json::Member& m : node.value->object()) {
    if (IsSigField(m)) continue;
    std::string key = m.key.Str();
    if (key == "hash" || key == "path" || key == "uri") {
      if (!m.value.is_string()) {
        Add(reporter, at, Code::kArchiveInvalid,
            "archive field \"" + key + "\" must be a string, found " +
                std::string(json::TypeName(m.value.type)),
            m.value, key);
      }
    } else if (key == "assets" && !m.value.is_null() && !m.value.is_object()) {
      Add(reporter, at, Code::kArchiveInvalid,
          "archive \"assets\" must be an object, found " +
              std::string(json::TypeName(m.value.type)),
          m.value, key);
    }
  }
}

bool PropertyChecker::CheckSecret(const state::PropertyNode& node,
                                  state::PropertyCursor& at,
                                  Reporter& reporter) {
  const json::Value* ciphertext = node.ciphertext();
  const json::Value* plaintext = node.plaintext();
  // Pulumi: a non-string counts as absent; exactly one must remain, and it
  // must be non-empty.
  bool has_c = ciphertext && ciphertext->is_string();
  bool has_p = plaintext && plaintext->is_string();
  if (has_c == has_p) {
    Add(reporter, at, Code::kSecretInvalid,
        has_c ? "secret has both \"ciphertext\" and \"plaintext\"; "
                "exactly one must be supplied"
              : "secret has neither \"ciphertext\" nor \"plaintext\" "
                "as a string; exactly one must be supplied",
        *node.value);
    return false;
  }
  const json::Value& text = has_c ? *ciphertext : *plaintext;
  std::string_view field = has_c ? "ciphertext" : "plaintext";
  if (text.size == 0) {
    Add(reporter, at, Code::kSecretInvalid,
        "secret \"" + std::string(field) + "\" is empty", text, field);
    return false;
  }
  if (has_p && !at.in_secret() && env_.on_plaintext) {
    env_.on_plaintext(text.Str());
  }
  if (has_p || at.in_secret()) {
    // Inside a plaintext, nested secrets carry their JSON text as
    // "ciphertext" (Pulumi serializes them with a no-op encrypter). Deeper
    // than the walker's secret depth (16) is not checked: only a crafted
    // file nests so.
    const state::PropertyPayload& payload = at.Payload(node);
    if (payload.status == state::PropertyPayload::Status::kInvalid) {
      // The parser's message may quote a character of the secret: say only
      // where it failed.
      Add(reporter, at, Code::kSecretPlaintextInvalid,
          "secret \"" + std::string(field) +
              "\" is not the JSON text of a value (invalid at byte " +
              std::to_string(payload.error_offset + 1) + " of " +
              std::to_string(payload.size) + ")",
          text, field);
    }
    return payload.status == state::PropertyPayload::Status::kOk;
  }
  ++ciphertexts_;
  const state::ProviderKind kind = env_.secrets_provider;
  const std::string provider(state::ProviderKindName(kind));
  if (kind == state::ProviderKind::kPassphrase ||
      kind == state::ProviderKind::kCloud) {
    std::string decoded = text.Str();
    if (auto problem = crypto::PassphraseCiphertextShapeProblem(decoded)) {
      Add(reporter, at, Code::kSecretCiphertextMalformed,
          "ciphertext is not shaped as the " + provider +
              " provider writes it: " + *problem,
          text, field);
    }
  } else if (kind == state::ProviderKind::kService ||
             kind == state::ProviderKind::kB64) {
    if (!IsBase64(text.Str())) {
      Add(reporter, at, Code::kSecretCiphertextMalformed,
          "ciphertext is not standard base64, as the " + provider +
              " provider writes it",
          text, field);
    }
  }
  return false;
}

void PropertyChecker::CheckResourceReference(const state::PropertyNode& node,
                                             state::PropertyCursor& at,
                                             Reporter& reporter) {
  const json::Value* urn = node.urn();
  if (!urn || !urn->is_string()) {
    Add(reporter, at, Code::kResourceRefInvalid,
        urn ? "resource reference \"urn\" must be a string"
            : "resource reference has no \"urn\"",
        urn ? *urn : *node.value);
  }
  if (const json::Value* v = node.package_version(); v && !v->is_string()) {
    Add(reporter, at, Code::kResourceRefInvalid,
        "resource reference \"packageVersion\" must be a string", *v,
        "packageVersion");
  }
  if (const json::Value* id = node.id();
      id && !id->is_string() && !id->is_object()) {
    // Legacy states wrote {"V": ...}; anything else is rejected.
    Add(reporter, at, Code::kResourceRefInvalid,
        "resource reference \"id\" must be a string", *id, "id");
  }
  if (urn && urn->is_string() && env_.on_resource_reference) {
    std::string pointer = at.Pointer();
    json::AppendPointerToken(&pointer, "urn");
    PointerScope scope(reporter, PointerSuffix{pointer});
    // Inside a secret's payload the reporter places findings on the
    // payload string (the callback also reads this to keep the URN out of
    // its message).
    const std::uint64_t saved = reporter.offset_override();
    if (at.in_secret()) reporter.set_offset_override(at.Offset(*urn));
    env_.on_resource_reference(urn->Str(), urn->offset, reporter);
    reporter.set_offset_override(saved);
  }
}

}  // namespace pstate::verify
