#include "state/property.h"

#include <algorithm>

#include "base/ascii.h"
#include "base/base64.h"
#include "base/wipe.h"
#include "json/pointer.h"
#include "json/string_codec.h"

namespace pstate::state {
namespace {

/// The decoded text of a string Value, without a copy when it has no
/// escapes.
std::string_view Text(const json::Value& v, std::string* scratch) {
  if (!v.has_escapes) return v.raw();
  *scratch = v.Str();
  return *scratch;
}

/// The field slot of `key` for signature kind `kind`, or -1.
int FieldSlot(PropertyKind kind, std::string_view key) {
  switch (kind) {
    case PropertyKind::kSecret:
      if (key == "ciphertext") return 0;
      if (key == "plaintext") return 1;
      return -1;
    case PropertyKind::kAsset:
    case PropertyKind::kArchive:
      if (key == "hash") return 0;
      if (key == "path") return 1;
      if (key == "uri") return 2;
      if (key == (kind == PropertyKind::kAsset ? "text" : "assets")) return 3;
      return -1;
    case PropertyKind::kResourceReference:
      if (key == "urn") return 0;
      if (key == "id") return 1;
      if (key == "packageVersion") return 2;
      return -1;
    case PropertyKind::kSpecialFloat:
    case PropertyKind::kByteString: return key == "value" ? 0 : -1;
    default: return -1;
  }
}

bool NonString(const json::Value* v) { return v != nullptr && !v->is_string(); }

/// strconv.ParseUint(s, 16, 64), as deployment.go reads a special float's
/// bits: 1 to 16 hex digits of either case, no sign or prefix.
bool IsHexBits(std::string_view s) {
  if (s.empty() || s.size() > 16) return false;
  return std::all_of(s.begin(), s.end(), ascii::IsHexDigit);
}

bool IsAssetOrArchive(const json::Value& v) {
  PropertyNode n = DecodeProperty(v);
  return n.kind == PropertyKind::kAsset || n.kind == PropertyKind::kArchive;
}

PropertyProblem ProblemOf(const PropertyNode& n) {
  switch (n.kind) {
    case PropertyKind::kSecret: {
      bool c = n.ciphertext() != nullptr && n.ciphertext()->is_string();
      bool p = n.plaintext() != nullptr && n.plaintext()->is_string();
      if (c && p) return PropertyProblem::kSecretBothPayloads;
      if (!c && !p) return PropertyProblem::kSecretNoPayload;
      if ((c ? n.ciphertext() : n.plaintext())->size == 0) {
        return PropertyProblem::kSecretEmptyPayload;
      }
      return PropertyProblem::kNone;
    }
    case PropertyKind::kAsset:
      if (NonString(n.hash()) || NonString(n.text()) || NonString(n.path()) ||
          NonString(n.uri())) {
        return PropertyProblem::kAssetField;
      }
      return PropertyProblem::kNone;
    case PropertyKind::kArchive: {
      // archive.go reads hash, then assets, then path and uri.
      if (NonString(n.hash())) return PropertyProblem::kArchiveField;
      if (const json::Value* a = n.assets(); a != nullptr && !a->is_null()) {
        if (!a->is_object()) return PropertyProblem::kArchiveAssets;
        for (const json::Member& m : a->object()) {
          if (!IsAssetOrArchive(m.value)) {
            return PropertyProblem::kArchiveMember;
          }
        }
      }
      if (NonString(n.path()) || NonString(n.uri())) {
        return PropertyProblem::kArchiveField;
      }
      return PropertyProblem::kNone;
    }
    case PropertyKind::kResourceReference: {
      // deployment.go reads packageVersion, then urn, then id.
      if (NonString(n.package_version())) {
        return PropertyProblem::kReferencePackageVersion;
      }
      if (n.urn() == nullptr || !n.urn()->is_string()) {
        return PropertyProblem::kReferenceUrn;
      }
      if (const json::Value* id = n.id(); id != nullptr && !id->is_string()) {
        // The legacy {"V": ...} form: V null (a component), a string, or an
        // object (an unknown ID); a missing V reads as null.
        const json::Value* v = id->is_object() ? id->Find("V") : nullptr;
        bool ok = id->is_object() && (v == nullptr || v->is_null() ||
                                      v->is_string() || v->is_object());
        if (!ok) return PropertyProblem::kReferenceId;
      }
      return PropertyProblem::kNone;
    }
    case PropertyKind::kSpecialFloat: {
      const json::Value* v = n.payload_value();
      std::string scratch;
      if (v == nullptr || !v->is_string() || !IsHexBits(Text(*v, &scratch))) {
        return PropertyProblem::kSpecialFloatValue;
      }
      return PropertyProblem::kNone;
    }
    case PropertyKind::kByteString: {
      const json::Value* v = n.payload_value();
      std::string scratch;
      if (v == nullptr || !v->is_string() || !IsBase64(Text(*v, &scratch))) {
        return PropertyProblem::kByteStringValue;
      }
      return PropertyProblem::kNone;
    }
    case PropertyKind::kOutputValue:
    case PropertyKind::kUnrecognized:
      return PropertyProblem::kUnrecognizedSignature;
    default: return PropertyProblem::kNone;
  }
}

}  // namespace

std::string_view PropertyProblemText(PropertyProblem problem) {
  switch (problem) {
    case PropertyProblem::kNone: return "";
    case PropertyProblem::kSecretNoPayload:
      return "malformed secret: neither \"ciphertext\" nor \"plaintext\" is "
             "a string";
    case PropertyProblem::kSecretBothPayloads:
      return "malformed secret: both \"ciphertext\" and \"plaintext\" are "
             "given";
    case PropertyProblem::kSecretEmptyPayload:
      return "malformed secret: its payload is empty";
    case PropertyProblem::kAssetField:
      return "malformed asset: a field is not a string";
    case PropertyProblem::kArchiveField:
      return "malformed archive: a field is not a string";
    case PropertyProblem::kArchiveAssets:
      return "malformed archive: \"assets\" is not an object";
    case PropertyProblem::kArchiveMember:
      return "malformed archive: a member is not an asset or archive";
    case PropertyProblem::kReferenceUrn:
      return "malformed resource reference: no \"urn\" string";
    case PropertyProblem::kReferencePackageVersion:
      return "malformed resource reference: \"packageVersion\" is not a "
             "string";
    case PropertyProblem::kReferenceId:
      return "malformed resource reference: \"id\" is not a string";
    case PropertyProblem::kSpecialFloatValue:
      return "malformed special float: \"value\" is not hex IEEE-754 bits";
    case PropertyProblem::kByteStringValue:
      return "malformed byte string: \"value\" is not base64";
    case PropertyProblem::kUnrecognizedSignature:
      return "unrecognized signature";
  }
  return "";
}

PropertyNode DecodeObject(const json::Value& value, SecretRule rule) {
  PropertyNode node;
  node.value = &value;
  node.kind = PropertyKind::kObject;
  Signature sig = RecognizeSignature(value, rule);
  if (!sig.found()) return node;
  node.signature = sig.member;
  node.kind = sig.kind;
  std::string scratch;
  for (const json::Member& m : value.object()) {
    int slot = FieldSlot(node.kind, Text(m.key, &scratch));
    if (slot >= 0) node.fields[slot] = &m.value;  // the last one wins
  }
  node.problem = ProblemOf(node);
  return node;
}

PropertyCursor::~PropertyCursor() { Wipe(payload_text_); }

std::string PropertyCursor::Pointer() const { return path_.str(); }

const PropertyPayload& PropertyCursor::Payload(const PropertyNode& secret) {
  if (payload_for_ == secret.value && secret.value != nullptr) return payload_;
  payload_for_ = secret.value;
  payload_ = PropertyPayload();
  if (secret.kind != PropertyKind::kSecret ||
      secret.problem != PropertyProblem::kNone) {
    return payload_;
  }
  if (secret_depth_ >= options_.max_secret_depth) {
    payload_.status = PropertyPayload::Status::kTooDeep;
    return payload_;
  }
  const json::Value* plain = secret.plaintext();
  const json::Value* cipher = secret.ciphertext();
  if (plain != nullptr && plain->is_string()) {
    payload_.field = "plaintext";
    payload_.source = plain;
    payload_text_ = plain->Str();
  } else if (secret_depth_ > 0) {
    payload_.field = "ciphertext";
    payload_.source = cipher;
    payload_text_ = cipher->Str();
  } else if (options_.decrypt != nullptr && *options_.decrypt) {
    std::optional<std::string> text = (*options_.decrypt)(cipher->Str());
    if (!text) return payload_;
    payload_.field = "ciphertext";
    payload_.source = cipher;
    payload_text_ = std::move(*text);
  } else {
    return payload_;
  }
  // A new top-level payload: the previous one's tree is no longer walked.
  if (secret_depth_ == 0) payload_arena_.Reset();
  auto* root = payload_arena_.Allocate<json::Value>(1);
  new (root) json::Value();
  if (parser_.ParseDocument(payload_text_, 0, payload_arena_, root) ==
      json::ParseStatus::kOk) {
    payload_.status = PropertyPayload::Status::kOk;
    payload_.value = root;
  } else {
    payload_.status = PropertyPayload::Status::kInvalid;
    payload_.error_offset = parser_.error().offset;
    payload_.size = payload_text_.size();
  }
  Wipe(payload_text_);
  payload_text_.clear();
  return payload_;
}

void PropertyCursor::EnterPayload(const PropertyNode& secret,
                                  const PropertyPayload& p) {
  (void)secret;
  if (secret_depth_ == 0) payload_place_ = p.source->offset;
  ++secret_depth_;
  payload_for_ = nullptr;  // nested secrets parse their own
}

void PropertyCursor::LeavePayload() {
  --secret_depth_;
  payload_for_ = nullptr;
}

json::Value MapResourceReferences(
    const json::Value& value, json::Arena& arena,
    const std::function<std::optional<json::Value>(const json::Value& urn)>&
        map,
    bool* changed) {
  struct References {
    enum { kVisitScalars = false };  // references are objects
    const std::function<std::optional<json::Value>(const json::Value&)>& map;
    bool any = false;
    Step Visit(const PropertyNode& node, PropertyCursor& at) {
      switch (node.kind) {
        case PropertyKind::kArray:
        case PropertyKind::kObject: return Step::kDescend;
        case PropertyKind::kSecret: return Step::kSkip;
        case PropertyKind::kResourceReference: break;
        default: return node.is_signature() ? Step::kDescendRaw : Step::kSkip;
      }
      const json::Value& reference = *node.value;
      std::vector<json::Member> members(reference.object().begin(),
                                        reference.object().end());
      bool hit = false;
      for (json::Member& m : members) {
        if (!m.key.StrEquals("urn")) continue;
        if (std::optional<json::Value> now = map(m.value)) {
          m.value = *now;
          hit = true;
        }
      }
      if (!hit) return Step::kDescendRaw;
      any = true;
      at.Replace(at.arena()->MakeObject(members, reference.offset));
      return Step::kSkip;
    }
  };
  References refs{map};
  json::Value out = RewriteProperties(value, arena, refs);
  if (refs.any) *changed = true;
  return out;
}

}  // namespace pstate::state
