#include "pstate/state/provider.h"

namespace pstate::state {
namespace {

std::string StringField(const json::Value* object, std::string_view name) {
  if (object == nullptr || !object->is_object()) return {};
  const json::Value* v = object->Find(name);
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
  const json::Value* state = value.Find("state");
  switch (p.kind) {
    case ProviderKind::kPassphrase:
      p.salt = StringField(state, "salt");
      break;
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
    case ProviderKind::kOther:
      break;
  }
  return p;
}

}  // namespace pstate::state
