#include "state/provider.h"

#include <span>

#include "state/schema.h"

namespace pstate::state {
namespace {

/// The member of a Go-struct object for field `name`: matched as
/// encoding/json matches (exact, then case-insensitive); the last one wins.
const json::Value* FieldOf(const json::Value* object, std::string_view name) {
  if (object == nullptr || !object->is_object()) return nullptr;
  const Field field{name, FieldKind::kAny};
  const std::span<const Field> one(&field, 1);
  const json::Value* found = nullptr;
  for (const json::Member& m : object->object()) {
    if (!MatchField(m.key.Str(), one).empty()) found = &m.value;
  }
  return found;
}

std::string StringField(const json::Value* object, std::string_view name) {
  const json::Value* v = FieldOf(object, name);
  return v != nullptr && v->is_string() ? v->Str() : std::string();
}

ProviderKind KindOf(std::string_view type) {
  if (type.empty()) return ProviderKind::kNone;
  if (type == "passphrase") return ProviderKind::kPassphrase;
  if (type == "service") return ProviderKind::kService;
  if (type == "cloud") return ProviderKind::kCloud;
  if (type == "b64") return ProviderKind::kB64;
  return ProviderKind::kOther;
}

}  // namespace

std::string_view ProviderKindName(ProviderKind kind) {
  switch (kind) {
    case ProviderKind::kNone: return "none";
    case ProviderKind::kPassphrase: return "passphrase";
    case ProviderKind::kService: return "service";
    case ProviderKind::kCloud: return "cloud";
    case ProviderKind::kB64: return "b64";
    case ProviderKind::kOther: return "other";
  }
  return "other";
}

SecretsProvider ParseSecretsProvider(const json::Value& value) {
  SecretsProvider p;
  if (!value.is_object()) return p;
  p.type = StringField(&value, "type");
  p.kind = KindOf(p.type);
  const json::Value* state = FieldOf(&value, "state");
  switch (p.kind) {
    case ProviderKind::kPassphrase: p.salt = StringField(state, "salt"); break;
    case ProviderKind::kCloud:
      p.url = StringField(state, "url");
      p.encrypted_key = StringField(state, "encryptedkey");
      break;
    case ProviderKind::kService:
      p.owner = StringField(state, "owner");
      p.project = StringField(state, "project");
      p.stack = StringField(state, "stack");
      break;
    case ProviderKind::kNone:
    case ProviderKind::kB64:
    case ProviderKind::kOther: break;
  }
  return p;
}

}  // namespace pstate::state
