#include "verify/section_checks.h"

#include "base/ascii.h"
#include "base/base64.h"
#include "base/sha256.h"
#include "crypto/ciphertext.h"
#include "state/schema.h"
#include "verify/fields.h"

namespace pstate::verify {
namespace {

using diag::Code;

using state::kDescriptorFields;
using state::kExtensionFields;
using state::kIntegrityErrorFields;
using state::kManifestFields;
using state::kMetadataFields;
using state::kPluginFields;
using state::kSnippetFields;
constexpr const auto& kProviderFields = state::kSecretsProviderFields;

/// semver.ParseTolerant: optional "v", 1-3 numeric parts, optional
/// -prerelease and +build made of [0-9A-Za-z.-].
bool IsTolerantSemver(std::string_view v) {
  std::size_t i = 0;
  while (i < v.size() && (v[i] == ' ')) ++i;
  if (i < v.size() && v[i] == 'v') ++i;
  int parts = 0;
  while (parts < 3) {
    std::size_t start = i;
    while (i < v.size() && ascii::IsDigit(v[i])) ++i;
    if (i == start) return false;
    ++parts;
    if (i < v.size() && v[i] == '.' && parts < 3) {
      ++i;
      continue;
    }
    break;
  }
  if (i == v.size()) return true;
  if (v[i] != '-' && v[i] != '+') return false;
  for (++i; i < v.size(); ++i) {
    char c = v[i];
    bool ok = ascii::IsAlnum(c) || c == '.' || c == '-' || c == '+';
    if (!ok) return false;
  }
  return true;
}

void RequireObject(const json::Value& v, std::string_view what,
                   Reporter& reporter) {
  reporter.Add(Code::kFieldType,
               std::string(what) + " must be an object, found " +
                   std::string(json::TypeName(v.type)),
               v);
}

}  // namespace

void CheckManifest(const json::Value& manifest, Reporter& reporter) {
  if (manifest.is_null()) return;
  if (!manifest.is_object())
    return RequireObject(manifest, "manifest", reporter);
  CheckFields(manifest, kManifestFields, reporter, "manifest");
  const json::Value* time = manifest.Find("time");
  const json::Value* magic = manifest.Find("magic");
  const json::Value* version = manifest.Find("version");
  for (auto [name, v] : {std::pair{"time", time}, std::pair{"magic", magic},
                         std::pair{"version", version}}) {
    if (!v) {
      reporter.Add(Code::kFieldMissing,
                   std::string("manifest has no \"") + name + "\"", manifest);
    }
  }
  if (time && time->is_string() && !IsRfc3339(time->raw())) {
    PointerScope scope(reporter, "time");
    reporter.Add(
        Code::kManifestTime,
        "manifest time \"" + time->Str() + "\" is not an RFC 3339 timestamp",
        *time);
  }
  std::string version_text =
      version && version->is_string() ? version->Str() : std::string();
  std::string magic_text =
      magic && magic->is_string() ? magic->Str() : std::string();
  if (magic && magic->is_string() && (!version || version->is_string())) {
    std::string expected =
        version_text.empty() ? std::string() : Sha256::HexOf(version_text);
    if (magic_text != expected) {
      PointerScope scope(reporter, "magic");
      reporter.Add(Code::kManifestMagic,
                   expected.empty()
                       ? "manifest magic must be empty when the manifest "
                         "version is empty"
                       : "manifest magic is not the SHA-256 of the manifest "
                         "version \"" +
                             version_text + "\" (expected " + expected + ")",
                   *magic);
    }
  }
  if (const json::Value* plugins = manifest.Find("plugins");
      plugins && plugins->is_array()) {
    PointerScope scope(reporter, "plugins");
    std::size_t i = 0;
    for (const json::Value& plugin : plugins->array()) {
      PointerScope item(reporter, i++);
      if (!plugin.is_object()) {
        reporter.Add(Code::kManifestPlugin, "plugin entry must be an object",
                     plugin);
        continue;
      }
      CheckFields(plugin, kPluginFields, reporter, "plugin");
      const json::Value* type = plugin.Find("type");
      if (type && type->is_string()) {
        std::string t = type->Str();
        if (t != "analyzer" && t != "language" && t != "resource" &&
            t != "converter" && t != "tool") {
          PointerScope s(reporter, "type");
          reporter.Add(Code::kManifestPlugin,
                       "plugin type \"" + t +
                           "\" is not analyzer, language, resource, converter "
                           "or tool",
                       *type);
        }
      }
      const json::Value* v = plugin.Find("version");
      if (v && v->is_string() && !v->Str().empty() &&
          !IsTolerantSemver(v->Str())) {
        PointerScope s(reporter, "version");
        reporter.Add(Code::kManifestPlugin,
                     "plugin version \"" + v->Str() +
                         "\" is not a semantic version; Pulumi fails to load "
                         "the state",
                     *v);
      }
    }
  }
}

state::SecretsProvider CheckSecretsProvider(const json::Value& provider,
                                            Reporter& reporter) {
  if (provider.is_null()) return {};
  if (!provider.is_object()) {
    RequireObject(provider, "secrets_providers", reporter);
    return {};
  }
  state::SecretsProvider model = state::ParseSecretsProvider(provider);
  CheckFields(provider, kProviderFields, reporter, "secrets provider");
  const json::Value* type = provider.Find("type");
  if (!type || !type->is_string() || type->size == 0) {
    reporter.Add(Code::kFieldMissing, "secrets provider has no \"type\"",
                 provider);
    return {};
  }
  const std::string& t = model.type;
  const json::Value* state = provider.Find("state");
  auto state_string = [&](std::string_view field) -> const json::Value* {
    if (!state || !state->is_object()) return nullptr;
    const json::Value* v = state->Find(field);
    return v && v->is_string() ? v : nullptr;
  };
  auto problem = [&](std::string message, const json::Value& at) {
    PointerScope scope(reporter, "state");
    reporter.Add(Code::kSecretsProviderState, std::move(message), at);
  };
  if (model.kind == state::ProviderKind::kPassphrase) {
    const json::Value* salt = state_string("salt");
    if (!salt) {
      problem("passphrase provider state needs a \"salt\" string",
              state ? *state : provider);
    } else if (auto why = crypto::PassphraseSaltShapeProblem(salt->Str())) {
      PointerScope scope(reporter, "state");
      PointerScope inner(reporter, "salt");
      reporter.Add(
          Code::kSecretsProviderState,
          "passphrase salt is not v1:<salt>:v1:<nonce>:<ciphertext>: " + *why,
          *salt);
    }
  } else if (model.kind == state::ProviderKind::kService) {
    for (std::string_view field : {"owner", "project", "stack"}) {
      if (!state_string(field)) {
        problem("service provider state needs \"" + std::string(field) +
                    "\" as a string",
                state ? *state : provider);
      }
    }
  } else if (model.kind == state::ProviderKind::kCloud) {
    if (!state_string("url")) {
      problem("cloud provider state needs the key \"url\" as a string",
              state ? *state : provider);
    }
    const json::Value* key = state_string("encryptedkey");
    if (!key) {
      problem("cloud provider state needs \"encryptedkey\" as a string",
              state ? *state : provider);
    } else if (!IsBase64(key->Str())) {
      PointerScope scope(reporter, "state");
      PointerScope inner(reporter, "encryptedkey");
      reporter.Add(Code::kSecretsProviderState,
                   "cloud provider \"encryptedkey\" is not standard base64",
                   *key);
    }
  } else if (model.kind == state::ProviderKind::kOther) {
    PointerScope scope(reporter, "type");
    reporter.Add(Code::kSecretsProviderUnknown,
                 "no known secrets provider for type \"" + t +
                     "\" (Pulumi knows passphrase, service and cloud)",
                 *type);
  }
  return model;
}

void CheckConfig(const json::Value& config, state::ProviderKind provider,
                 Reporter& reporter, std::vector<diag::Finding>* unshaped) {
  if (config.is_null()) return;
  if (!config.is_object()) return RequireObject(config, "config", reporter);
  for (const json::Member& m : config.object()) {
    std::string key = m.key.Str();
    PointerScope scope(reporter, key);
    if (key.find(':') == std::string::npos) {
      reporter.Add(Code::kFieldValue,
                   "config key \"" + key + "\" is not <namespace>:<name>",
                   m.key);
    }
    if (!m.value.is_object()) continue;
    const json::Value* secure = m.value.Find("secure");
    if (!secure) continue;
    PointerScope inner(reporter, "secure");
    if (!secure->is_string() || secure->size == 0) {
      reporter.Add(Code::kConfigSecureInvalid,
                   "secure config value must be a non-empty string", *secure);
      continue;
    }
    if (crypto::IsPassphraseCiphertextShape(secure->Str())) continue;
    if (provider == state::ProviderKind::kPassphrase ||
        provider == state::ProviderKind::kCloud) {
      reporter.Add(Code::kConfigSecureInvalid,
                   "secure config value is not shaped as the " +
                       std::string(state::ProviderKindName(provider)) +
                       " provider writes ciphertexts",
                   *secure);
    } else if (provider == state::ProviderKind::kNone && unshaped) {
      diag::Finding f = diag::MakeFinding(Code::kConfigSecureInvalid, "",
                                          reporter.PointerString());
      io::LineColumn lc = reporter.context().Locate(secure->offset);
      f.line = lc.line;
      f.column = lc.column;
      f.char_column = lc.char_column;
      unshaped->push_back(std::move(f));
    }
  }
}

void CheckMetadata(const json::Value& metadata, Reporter& reporter) {
  if (metadata.is_null()) return;
  if (!metadata.is_object())
    return RequireObject(metadata, "metadata", reporter);
  CheckFields(metadata, kMetadataFields, reporter, "metadata");
  const json::Value* error = metadata.Find("integrity_error");
  if (!error || !error->is_object()) return;
  PointerScope scope(reporter, "integrity_error");
  CheckFields(*error, kIntegrityErrorFields, reporter, "integrity_error");
  const json::Value* text = error->Find("error");
  const json::Value* command = error->Find("command");
  std::string message =
      "Pulumi recorded an integrity error when it saved this "
      "state";
  if (command && command->is_string()) {
    // The command is the CLI's argv: flags and arguments may carry secrets
    // (`-c key=value`, `config set --secret`). Name only the subcommand.
    std::string shown = state::SplitCommandLine(command->Str()).shown;
    if (!shown.empty()) message += " (during `" + shown + "`)";
  }
  if (text && text->is_string()) message += ": " + text->Str();
  reporter.Add(Code::kIntegrityErrorRecorded, message, *error);
}

void CheckSnippet(const json::Value& snippet, std::set<std::string>& uuids,
                  Reporter& reporter) {
  if (!snippet.is_object()) return RequireObject(snippet, "snippet", reporter);
  CheckFields(snippet, kSnippetFields, reporter, "snippet");
  const json::Value* uuid = snippet.Find("uuid");
  if (!uuid || !uuid->is_string() || uuid->size == 0) {
    reporter.Add(Code::kSnippetUuid, "snippet has no uuid",
                 uuid ? *uuid : snippet);
  } else if (!uuids.insert(uuid->Str()).second) {
    PointerScope scope(reporter, "uuid");
    reporter.Add(
        Code::kSnippetUuid,
        "snippet uuid \"" + uuid->Str() + "\" is used by an earlier snippet",
        *uuid);
  }
  for (std::string_view field : {"name", "type", "code", "descriptor"}) {
    if (!snippet.Find(field)) {
      reporter.Add(Code::kFieldMissing,
                   "snippet has no \"" + std::string(field) + "\"", snippet);
    }
  }
  if (const json::Value* d = snippet.Find("descriptor"); d && d->is_object()) {
    PointerScope scope(reporter, "descriptor");
    CheckFields(*d, kDescriptorFields, reporter, "package descriptor");
  }
}

void CheckExtension(const json::Value& extension, Reporter& reporter) {
  if (!extension.is_object()) {
    return RequireObject(extension, "extension", reporter);
  }
  CheckFields(extension, kExtensionFields, reporter, "extension");
  const json::Value* value = extension.Find("value");
  if (value && value->is_string() && !IsBase64(value->Str())) {
    PointerScope scope(reporter, "value");
    reporter.Add(Code::kFieldValue, "extension \"value\" is not base64",
                 *value);
  }
}

}  // namespace pstate::verify
