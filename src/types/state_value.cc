// Decoding of Pulumi's state-JSON property values, one level at a time.
//
// The reading rules are those of DeserializePropertyValue in Pulumi's
// pkg/resource/stack/deployment.go, with Deserialize in
// sdk/go/common/resource/asset/asset.go and archive/archive.go for assets and
// archives. A value Pulumi would refuse to read is kMalformed with a reason
// that never quotes a secret's text.
#include "pstate/types/state_value.h"

#include <cstdint>
#include <cstring>
#include <string>

#include "pstate/json/parser.h"
#include "pstate/state/signature.h"
#include "pstate/types/type_system.h"

namespace pstate::types {

std::string_view SystemName(System system) {
  switch (system) {
    case System::kPulumi: return "pulumi";
    case System::kPulumiSchema: return "pulumi-schema";
    case System::kPcl: return "pcl";
    case System::kCty: return "cty";
    case System::kTerraform: return "terraform";
    case System::kPuppet: return "puppet";
  }
  return "pulumi";
}

std::optional<System> ParseSystem(std::string_view name) {
  if (name == "pulumi") return System::kPulumi;
  if (name == "pulumi-schema") return System::kPulumiSchema;
  if (name == "pcl") return System::kPcl;
  if (name == "cty") return System::kCty;
  if (name == "terraform") return System::kTerraform;
  if (name == "puppet") return System::kPuppet;
  return std::nullopt;
}

std::string_view OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kOk: return "ok";
    case Outcome::kConvert: return "convert";
    case Outcome::kError: return "error";
  }
  return "error";
}

namespace {

// How Go names a decoded JSON value's type in its messages is not useful to
// users; plain JSON kind names are.
std::string_view KindOf(const json::Value& v) { return json::TypeName(v.type); }

Node Malformed(const json::Value& value, std::string reason) {
  Node node;
  node.kind = NodeKind::kMalformed;
  node.value = &value;
  node.reason = std::move(reason);
  return node;
}

// Every present field named in `fields` must be a string (asset.go and
// archive.go Deserialize: "unexpected asset text of type ..."). An empty
// string means all were fine.
std::string CheckStringFields(const json::Value& obj, std::string_view what,
                              std::initializer_list<std::string_view> fields) {
  for (std::string_view field : fields) {
    const json::Value* v = obj.Find(field);
    if (v && !v->is_string()) {
      return std::string(what) + " " + std::string(field) +
             " must be a string, not " + std::string(KindOf(*v));
    }
  }
  return {};
}

std::string CheckAsset(const json::Value& obj) {
  return CheckStringFields(obj, "asset", {"hash", "text", "path", "uri"});
}

// archive.go Deserialize: hash, then assets (null allowed; every member an
// asset or an archive, read recursively), then path and uri.
std::string CheckArchive(const json::Value& obj, int depth) {
  if (depth > json::kDefaultMaxDepth) return "archive nested too deeply";
  std::string err = CheckStringFields(obj, "archive", {"hash"});
  if (!err.empty()) return err;
  if (const json::Value* assets = obj.Find("assets")) {
    if (!assets->is_null() && !assets->is_object()) {
      return "archive assets must be an object, not " +
             std::string(KindOf(*assets));
    }
    if (assets->is_object()) {
      for (const json::Member& m : assets->object()) {
        state::SigKind kind = state::ClassifySignature(m.value);
        std::string sub;
        if (kind == state::SigKind::kAsset) {
          sub = CheckAsset(m.value);
        } else if (kind == state::SigKind::kArchive) {
          sub = CheckArchive(m.value, depth + 1);
        } else {
          return "archive member '" + m.key.Str() +
                 "' is not an asset or archive";
        }
        if (!sub.empty()) {
          return "archive member '" + m.key.Str() + "': " + sub;
        }
      }
    }
  }
  return CheckStringFields(obj, "archive", {"path", "uri"});
}

// Go's base64.StdEncoding.DecodeString: padded standard alphabet; carriage
// returns and newlines are skipped.
bool IsStdBase64(std::string_view text) {
  std::size_t n = 0;
  std::size_t padding = 0;
  for (char c : text) {
    if (c == '\r' || c == '\n') continue;
    if (c == '=') {
      ++padding;
      ++n;
      continue;
    }
    if (padding > 0) return false;  // data after padding
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
              (c >= '0' && c <= '9') || c == '+' || c == '/';
    if (!ok) return false;
    ++n;
  }
  return n % 4 == 0 && padding <= 2;
}

// strconv.ParseUint(s, 16, 64) as deployment.go reads a special float's
// bits: 1 to 16 hex digits, no sign, no prefix.
bool ParseHexBits(std::string_view text, std::uint64_t* bits) {
  if (text.empty() || text.size() > 16) return false;
  std::uint64_t v = 0;
  for (char c : text) {
    int d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      d = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      d = c - 'A' + 10;
    } else {
      return false;
    }
    v = (v << 4) | static_cast<std::uint64_t>(d);
  }
  *bits = v;
  return true;
}

Node DecodeSecret(const json::Value& value, json::Arena& arena) {
  // deployment.go: a field counts as supplied only when it is a string.
  const json::Value* plain = value.Find("plaintext");
  const json::Value* cipher = value.Find("ciphertext");
  bool has_plain = plain && plain->is_string();
  bool has_cipher = cipher && cipher->is_string();
  if (has_plain == has_cipher) {
    return Malformed(value,
                     "malformed secret value: exactly one of ciphertext or "
                     "plaintext must be a string");
  }
  Node node;
  node.kind = NodeKind::kSecret;
  node.value = &value;
  if (has_cipher) return node;  // content unknown without the decrypter
  // The plaintext is the JSON encoding of the inner value. The parser is
  // per thread: Decode may be called from several checking threads, and a
  // parse completes before any nested Decode could reuse it.
  thread_local json::Parser parser;
  std::string text =
      plain->has_escapes ? plain->Str() : std::string(plain->raw());
  json::Value* inner = arena.Allocate<json::Value>(1);
  new (inner) json::Value();
  if (parser.ParseDocument(text, 0, arena, inner) != json::ParseStatus::kOk) {
    return Malformed(value, "secret plaintext is not valid JSON");
  }
  node.secret_inner = inner;
  return node;
}

Node DecodeResourceRef(const json::Value& value) {
  // deployment.go reads packageVersion, then urn, then id.
  if (const json::Value* pv = value.Find("packageVersion")) {
    if (!pv->is_string()) {
      return Malformed(value,
                       "malformed resource reference: packageVersion must "
                       "be a string");
    }
  }
  const json::Value* urn = value.Find("urn");
  if (!urn || !urn->is_string()) {
    return Malformed(value, "malformed resource reference: missing urn");
  }
  if (const json::Value* id = value.Find("id")) {
    bool ok = id->is_string();
    if (id->is_object()) {
      // The legacy {"V": ...} form: a string id, null (component) or an
      // object (unknown id); a missing V reads as null.
      const json::Value* v = id->Find("V");
      ok = !v || v->is_null() || v->is_string() || v->is_object();
    }
    if (!ok) {
      return Malformed(value,
                       "malformed resource reference: id must be a string");
    }
  }
  Node node;
  node.kind = NodeKind::kResourceRef;
  node.value = &value;
  return node;
}

}  // namespace

Node Decode(const json::Value& value, json::Arena& arena) {
  Node node;
  node.value = &value;
  switch (value.type) {
    case json::Type::kNull: node.kind = NodeKind::kNull; return node;
    case json::Type::kFalse:
    case json::Type::kTrue: node.kind = NodeKind::kBool; return node;
    case json::Type::kNumber: node.kind = NodeKind::kNumber; return node;
    case json::Type::kString:
      node.kind = value.StrEquals(state::kUnknownValue) ? NodeKind::kUnknown
                                                        : NodeKind::kString;
      return node;
    case json::Type::kArray: node.kind = NodeKind::kArray; return node;
    case json::Type::kObject: break;
  }
  switch (state::ClassifySignature(value)) {
    case state::SigKind::kNone: node.kind = NodeKind::kObject; return node;
    case state::SigKind::kAsset: {
      std::string err = CheckAsset(value);
      if (!err.empty()) return Malformed(value, std::move(err));
      node.kind = NodeKind::kAsset;
      return node;
    }
    case state::SigKind::kArchive: {
      std::string err = CheckArchive(value, 0);
      if (!err.empty()) return Malformed(value, std::move(err));
      node.kind = NodeKind::kArchive;
      return node;
    }
    case state::SigKind::kSecret: return DecodeSecret(value, arena);
    case state::SigKind::kResourceReference: return DecodeResourceRef(value);
    case state::SigKind::kSpecialFloat: {
      const json::Value* v = value.Find("value");
      std::uint64_t bits = 0;
      if (!v || !v->is_string() || !ParseHexBits(v->Str(), &bits)) {
        return Malformed(value,
                         "malformed special float: value must be the hex "
                         "IEEE-754 bits");
      }
      node.kind = NodeKind::kSpecialFloat;
      std::memcpy(&node.special, &bits, sizeof bits);
      return node;
    }
    case state::SigKind::kByteString: {
      const json::Value* v = value.Find("value");
      if (!v || !v->is_string()) {
        return Malformed(value,
                         "malformed byte string: value must be a base64 "
                         "string");
      }
      if (!IsStdBase64(v->Str())) {
        return Malformed(value, "malformed byte string: value is not base64");
      }
      node.kind = NodeKind::kByteString;
      return node;
    }
    case state::SigKind::kOutputValue:
    case state::SigKind::kUnknown: break;
  }
  return Malformed(value, "unrecognized signature");
}

}  // namespace pstate::types
