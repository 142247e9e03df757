// Decoding of Pulumi's state-JSON property values, one level at a time.
//
// The reading rules are those of DeserializePropertyValue in Pulumi's
// pkg/resource/stack/deployment.go, with Deserialize in
// sdk/go/common/resource/asset/asset.go and archive/archive.go for assets and
// archives. A value Pulumi would refuse to read is kUnrecognized with a reason
// that never quotes a secret's text.
#include "types/state_value.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "json/parser.h"
#include "state/property.h"
#include "types/type_system.h"

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

Node Malformed(const json::Value& value, std::string reason) {
  Node node;
  node.kind = PropertyKind::kUnrecognized;
  node.value = &value;
  node.reason = std::move(reason);
  return node;
}

// The first of `fields` that is present and not a string,
// with its JSON kind, as asset.go and archive.go Deserialize name it
// ("unexpected asset text of type ..."); empty when all are strings.
std::string NonStringField(
    std::string_view what,
    std::initializer_list<std::pair<std::string_view, const json::Value*>>
        fields) {
  for (const auto& [name, v] : fields) {
    if (v != nullptr && !v->is_string()) {
      return std::string(what) + " " + std::string(name) +
             " must be a string, not " + std::string(json::TypeName(v->type));
    }
  }
  return {};
}

// The reason for a problem the state model found, naming the field where
// the model's enum does not (the model is shared with verify, whose
// findings carry their own pointer; a type error has only this text).
// Never quotes secret text.
std::string Reason(const state::PropertyNode& node) {
  using state::PropertyProblem;
  switch (node.problem) {
    case PropertyProblem::kSecretNoPayload:
    case PropertyProblem::kSecretBothPayloads:
      return "malformed secret value: exactly one of ciphertext or plaintext "
             "must be a string";
    case PropertyProblem::kSecretEmptyPayload:
      return "malformed secret value: its payload is empty";
    case PropertyProblem::kAssetField:
      return NonStringField("asset", {{"hash", node.hash()},
                                      {"text", node.text()},
                                      {"path", node.path()},
                                      {"uri", node.uri()}});
    case PropertyProblem::kArchiveField:
      return NonStringField(
          "archive",
          {{"hash", node.hash()}, {"path", node.path()}, {"uri", node.uri()}});
    case PropertyProblem::kArchiveAssets:
      return "archive assets must be an object, not " +
             std::string(json::TypeName(node.assets()->type));
    case PropertyProblem::kArchiveMember:
      for (const json::Member& m : node.assets()->object()) {
        state::PropertyKind k = state::DecodeProperty(m.value).kind;
        if (k != state::PropertyKind::kAsset &&
            k != state::PropertyKind::kArchive) {
          return "archive member '" + m.key.Str() +
                 "' is not an asset or archive";
        }
      }
      break;
    case PropertyProblem::kReferenceUrn:
      return "malformed resource reference: missing urn";
    case PropertyProblem::kReferencePackageVersion:
      return "malformed resource reference: packageVersion must be a string";
    case PropertyProblem::kReferenceId:
      return "malformed resource reference: id must be a string";
    case PropertyProblem::kSpecialFloatValue:
      return "malformed special float: value must be the hex IEEE-754 bits";
    case PropertyProblem::kByteStringValue:
      return "malformed byte string: value must be a base64 string";
    case PropertyProblem::kUnrecognizedSignature:
      return "unrecognized signature";
    case PropertyProblem::kNone: break;
  }
  return std::string(state::PropertyProblemText(node.problem));
}

// archive.go Deserialize reads every member of "assets" as an asset or an
// archive, recursively: a malformed member makes the whole archive
// unreadable. The state model checks only the members' kinds (verify
// reports a member's own problem at the member), so the depth is here.
std::string CheckArchiveMembers(const state::PropertyNode& archive, int depth) {
  const json::Value* assets = archive.assets();
  if (assets == nullptr || !assets->is_object()) return {};
  if (depth > json::kDefaultMaxDepth) return "archive nested too deeply";
  for (const json::Member& m : assets->object()) {
    state::PropertyNode member = state::DecodeProperty(m.value);
    std::string sub = member.problem != state::PropertyProblem::kNone
                          ? Reason(member)
                      : member.kind == state::PropertyKind::kArchive
                          ? CheckArchiveMembers(member, depth + 1)
                          : std::string();
    if (!sub.empty()) return "archive member '" + m.key.Str() + "': " + sub;
  }
  return {};
}

// A secret's plaintext is the JSON text of its value; it is parsed into
// `arena` so a type can be checked against it. A ciphertext-only secret
// has no inner value here (its content is unknown without decryption).
Node DecodeSecret(const state::PropertyNode& secret, json::Arena& arena) {
  Node node;
  node.kind = PropertyKind::kSecret;
  node.value = secret.value;
  const json::Value* plain = secret.plaintext();
  if (plain == nullptr || !plain->is_string()) return node;
  // The parser is per thread: Decode may be called from several checking
  // threads, and a parse completes before any nested Decode reuses it.
  thread_local json::Parser parser;
  std::string text =
      plain->has_escapes ? plain->Str() : std::string(plain->raw());
  json::Value* inner = arena.Allocate<json::Value>(1);
  new (inner) json::Value();
  if (parser.ParseDocument(text, 0, arena, inner) != json::ParseStatus::kOk) {
    return Malformed(*secret.value, "secret plaintext is not valid JSON");
  }
  node.secret_inner = inner;
  return node;
}

// strconv.ParseUint(s, 16, 64): the state model has checked the digits.
std::uint64_t HexBits(std::string_view text) {
  std::uint64_t v = 0;
  for (char c : text) {
    int d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    v = (v << 4) | static_cast<std::uint64_t>(d);
  }
  return v;
}

}  // namespace

// One decoder for the whole program: the state model's DecodeProperty
// (state/property.h) says what Pulumi reads; this adds what a type needs
// on top of it (a secret's parsed plaintext, a special float's value, the
// recursive archive check) and a reason a type error can show.
Node Decode(const json::Value& value, json::Arena& arena) {
  state::PropertyNode p = state::DecodeProperty(value);
  if (p.problem != state::PropertyProblem::kNone) {
    return Malformed(value, Reason(p));
  }
  Node node;
  node.value = &value;
  node.kind = p.kind;
  switch (p.kind) {
    case PropertyKind::kSecret: return DecodeSecret(p, arena);
    case PropertyKind::kArchive: {
      std::string err = CheckArchiveMembers(p, 0);
      if (!err.empty()) return Malformed(value, std::move(err));
      break;
    }
    case PropertyKind::kSpecialFloat: {
      std::uint64_t bits = HexBits(p.payload_value()->Str());
      std::memcpy(&node.special, &bits, sizeof bits);
      break;
    }
    case PropertyKind::kOutputValue:
    case PropertyKind::kUnrecognized:
      return Malformed(value, "unrecognized signature");
    default: break;
  }
  return node;
}

}  // namespace pstate::types
