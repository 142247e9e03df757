#include "scan/leak_scanner.h"
#include "base/wipe.h"

#include <algorithm>
#include <utility>

#include "base/ascii.h"
#include "base/hex.h"
#include "crypto/ciphertext.h"
#include "detect/credential_formats.h"
#include "detect/credential_names.h"
#include "detect/credential_value.h"
#include "json/compact.h"
#include "json/pointer.h"
#include "json/string_codec.h"
#include "secrets/mask.h"
#include "state/property.h"
#include "state/resource.h"
#include "state/secret_object.h"
#include "state/signature.h"

namespace pstate::scan {
namespace {

/// A value either reading of duplicate signature members calls a secret is
/// one: scan must not report a secret as a leak, nor miss a leak beside one.
constexpr state::SecretRule kRule = state::SecretRule::kAnySignature;

/// Null, "", {} and [] carry nothing worth protecting; neither does a
/// placeholder `pstate redact` wrote, nor a container whose every value is
/// one of those (what `redact --leaks` leaves of a leaked object), so a
/// redacted state scans clean. Signature objects (secrets, assets,
/// references) hold nothing in the clear here: redact keeps them.
bool IsEmpty(const json::Value& v) {
  switch (v.type) {
    case json::Type::kNull: return true;
    case json::Type::kString: {
      if (v.size == 0) return true;
      if (v.size >= 200) return false;
      std::string text = v.Str();
      return state::IsPstatePlaceholder(text);
    }
    case json::Type::kArray:
      for (const json::Value& e : v.array()) {
        if (!IsEmpty(e)) return false;
      }
      return true;
    case json::Type::kObject:
      if (state::RecognizeSignature(v, kRule).found()) return true;
      for (const json::Member& m : v.object()) {
        if (!IsEmpty(m.value)) return false;
      }
      return true;
    default: return false;
  }
}

std::string_view Decoded(const json::Value& v, std::string* scratch) {
  if (!v.has_escapes) return v.raw();
  *scratch = v.Str();
  return *scratch;
}

/// A value's text as scan compares and fingerprints it: compact, every
/// string re-escaped the way Go writes it.
void AppendCompact(const json::Value& v, std::string* out) {
  json::AppendCompactJson(v, out, json::EscapeStyle::kExport,
                          json::CompactStrings::kCanonical);
}

/// `s` as a JSON string literal, quotes included.
std::string Quoted(std::string_view s) {
  std::string out = "\"";
  json::AppendEscaped(s, &out);
  out.push_back('"');
  return out;
}

using ascii::ContainsFold;

/// A kubeconfig is a credential only when it carries secret material; one
/// that authenticates through an exec plugin or a file path does not.
bool IsKubeconfigName(std::string_view key) {
  return ContainsFold(key, "kubeconfig") || ContainsFold(key, "kube_config") ||
         ContainsFold(key, "kube-config");
}

bool KubeconfigHasCredential(std::string_view text) {
  // YAML and JSON spellings of the fields that hold credential material.
  static constexpr std::string_view kMarkers[] = {
      "client-key-data", "token:",          "\"token\"", "password:",
      "\"password\"",    "access-token",    "id-token",  "refresh-token",
      "client-secret",   "private key-----"};
  for (std::string_view m : kMarkers) {
    if (ContainsFold(text, m)) return true;
  }
  return false;
}

/// Values of enum-typed settings that share a name with a credential
/// (EC2 metadataOptions.httpTokens = "required").
bool IsSettingWord(std::string_view text) {
  static constexpr std::string_view kWords[] = {
      "required",  "optional",  "enabled",   "disabled", "enable",  "disable",
      "default",   "auto",      "automatic", "manual",   "managed", "inherit",
      "inherited", "generated", "generate",  "random",   "unset",   "notset",
      "not-set",   "not_set",   "ignore",    "ignored"};
  text = ascii::TrimSpace(text);
  for (std::string_view w : kWords) {
    if (ascii::EqualFold(text, w)) return true;
  }
  return false;
}

}  // namespace

std::string FingerprintText(const json::Value& value) {
  if (value.is_string()) return value.Str();
  std::string text;
  AppendCompact(value, &text);
  return text;
}

std::string ValueFingerprint(const crypto::Fingerprinter& fingerprinter,
                             const json::Value& value) {
  std::string text = FingerprintText(value);
  std::string fp = fingerprinter.ShortFingerprint(text);
  Wipe(text);
  return fp;
}

struct LeakScanner::Walk {
  std::vector<Leak>* out;
  const KnownSecrets* mask;  // hides known plaintexts in identifiers
  std::string urn;
  json::PointerBuilder pointer;
  std::vector<const json::Value*> flagged;  // structural leaks: skip subtree
  bool by_name = true;                      // credential-property applies
  std::string name;  // the resource name (the URN's last segment)
  std::string type;  // the type token
  /// While the property walker is on a string: the place leaks are at.
  const state::PropertyCursor* cursor = nullptr;

  /// A value that is the resource's own name or type, or Pulumi's
  /// auto-name "<name>-<7 hex digits>" (sdk resource.NewUniqueHex): names
  /// repeat by design and are never reported as known-secret leaks.
  bool IsOwnName(std::string_view text) const {
    if (text.empty()) return false;
    if (text == name || text == type) return true;
    if (name.empty() || text.size() != name.size() + 8 ||
        text.substr(0, name.size()) != name || text[name.size()] != '-') {
      return false;
    }
    return IsLowerHex(text.substr(name.size() + 1), 7);
  }

  void Add(diag::Code code, std::string message, const json::Value& value,
           bool single) {
    Leak leak;
    leak.code = code;
    leak.message = std::move(message);
    leak.pointer = cursor != nullptr ? cursor->Pointer() : pointer.str();
    leak.offset = value.offset;
    leak.urn = urn;
    if (mask != nullptr) {
      // A secret may sit in a URN, a property name or a map key (F5).
      secrets::MaskIdentifiers(*mask, &leak.message, &leak.pointer, &leak.urn);
    }
    leak.value = single && value.is_string() ? &value : nullptr;
    out->push_back(std::move(leak));
  }
};

LeakScanner::LeakScanner(const LeakOptions& options) : options_(options) {}

std::string LeakScanner::Fingerprint(const json::Value& value) const {
  return ValueFingerprint(*options_.fingerprinter, value);
}

void LeakScanner::ScanResource(const json::Value& resource,
                               std::string_view base_pointer,
                               std::vector<Leak>* out) {
  if (!resource.is_object() || options_.fingerprinter == nullptr) return;
  Walk walk{out,    options_.known_secrets,
            {},     json::PointerBuilder(std::string(base_pointer)),
            {},     true,
            {},     {},
            nullptr};
  // ResourceV3 fields as Go decodes them: case-insensitive keys, the last
  // match wins (state/resource.h).
  const state::ResourceView view = state::ResourceView::Of(resource);
  const json::Value* urn = view.urn;
  if (urn != nullptr && urn->is_string()) {
    walk.urn = urn->Str();
    std::size_t sep = walk.urn.rfind("::");
    if (sep != std::string::npos) walk.name = walk.urn.substr(sep + 2);
  }
  if (const json::Value* type = view.type;
      type != nullptr && type->is_string()) {
    walk.type = type->Str();
  }
  const json::Value* inputs = view.inputs;
  const json::Value* outputs = view.outputs;
  if (inputs != nullptr && !inputs->is_object()) inputs = nullptr;
  if (outputs != nullptr && !outputs->is_object()) outputs = nullptr;

  // leak-additional-secret-output
  const json::Value* additional =
      state::ResourceView::Field(resource, "additionalSecretOutputs");
  if (options_.additional_secret_outputs && outputs != nullptr &&
      additional != nullptr && additional->is_array()) {
    for (const json::Value& name_value : additional->array()) {
      if (!name_value.is_string()) continue;
      std::string name = name_value.Str();
      const json::Value* v = state::FindLast(*outputs, name);
      if (v == nullptr || IsEmpty(*v) || state::IsSecret(*v, kRule)) continue;
      if (std::find(walk.flagged.begin(), walk.flagged.end(), v) !=
          walk.flagged.end()) {
        continue;
      }
      auto p1 = walk.pointer.PushKey("outputs");
      walk.pointer.PushKey(name);
      walk.Add(diag::Code::kLeakAdditionalSecretOutput,
               "output " + Quoted(name) +
                   " is listed in additionalSecretOutputs but stored in "
                   "plaintext (hmac-sha256 " +
                   Fingerprint(*v) + ")",
               *v, true);
      walk.pointer.Pop(p1);
      walk.flagged.push_back(v);
    }
  }

  // leak-secret-mismatch: inputs vs outputs, and Kubernetes' copy of the
  // inputs (outputs.__inputs) vs both.
  if (options_.secret_mismatch) {
    const json::Value* k8s_inputs =
        outputs != nullptr ? state::FindLast(*outputs, "__inputs") : nullptr;
    if (k8s_inputs != nullptr && !k8s_inputs->is_object()) k8s_inputs = nullptr;
    struct Side {
      const json::Value* props;
      std::vector<std::string_view> path;
      std::string_view label;
    };
    Side in{inputs, {"inputs"}, "inputs"};
    Side outs{outputs, {"outputs"}, "outputs"};
    Side k8s{k8s_inputs, {"outputs", "__inputs"}, "outputs.__inputs"};
    const std::pair<const Side*, const Side*> pairs[] = {
        {&in, &outs}, {&k8s, &outs}, {&in, &k8s}};
    for (const auto& [a, b] : pairs) {
      if (a->props == nullptr || b->props == nullptr) continue;
      for (const json::Member& m : a->props->object()) {
        if (a == &outs && m.key.StrEquals("__inputs")) continue;
        std::string key = m.key.Str();
        const json::Value* va = &m.value;
        const json::Value* vb = state::FindLast(*b->props, key);
        if (vb == nullptr) continue;
        const Side* plain_side = nullptr;
        const Side* secret_side = nullptr;
        const json::Value* plain = nullptr;
        if (state::IsSecret(*va, kRule) && !state::IsSecret(*vb, kRule) &&
            !IsEmpty(*vb)) {
          plain_side = b;
          secret_side = a;
          plain = vb;
        } else if (state::IsSecret(*vb, kRule) &&
                   !state::IsSecret(*va, kRule) && !IsEmpty(*va)) {
          plain_side = a;
          secret_side = b;
          plain = va;
        } else {
          continue;
        }
        if (std::find(walk.flagged.begin(), walk.flagged.end(), plain) !=
            walk.flagged.end()) {
          continue;
        }
        const json::Value* secret = plain == va ? vb : va;
        if (auto known = SecretValueText(*secret)) {
          std::string plain_text;
          AppendCompact(*plain, &plain_text);
          bool same = plain_text == *known;
          Wipe(*known);
          Wipe(plain_text);
          if (!same) continue;  // a different value (e.g. a hash of the secret)
        }
        std::size_t mark = walk.pointer.str().size();
        for (std::string_view token : plain_side->path)
          walk.pointer.PushKey(token);
        walk.pointer.PushKey(key);
        walk.Add(diag::Code::kLeakSecretMismatch,
                 "property " + Quoted(key) + " is secret in " +
                     std::string(secret_side->label) + " but plaintext in " +
                     std::string(plain_side->label) + " (hmac-sha256 " +
                     Fingerprint(*plain) + ")",
                 *plain, true);
        walk.pointer.Pop(mark);
        walk.flagged.push_back(plain);
      }
    }
  }

  // The URN is a name, not a value: it is never reported as a leak (a
  // resource named like a tag value or a cluster name is the normal case).
  // A strong known secret inside it is worth a note, since no redaction can
  // remove it without breaking every reference to the resource.
  if (urn != nullptr && urn->is_string() && options_.known_secret &&
      options_.known_secrets != nullptr) {
    ids_.clear();
    std::string text = urn->Str();
    options_.known_secrets->FindIn(text, &ids_, 1);
    if (!ids_.empty()) {
      auto mark = walk.pointer.PushKey("urn");
      walk.Add(diag::Code::kLeakSecretInName,
               "the URN contains the plaintext of a secret stored in this "
               "state (hmac-sha256 " +
                   options_.fingerprinter->ShortFingerprint(
                       options_.known_secrets->plaintext(ids_.front())) +
                   "); a name cannot be redacted without breaking references "
                   "to it",
               *urn, false);
      walk.pointer.Pop(mark);
    }
  }
  for (std::string_view field : {"id", "importID"}) {
    const json::Value* v = state::ResourceView::Field(resource, field);
    if (v == nullptr || !v->is_string()) continue;
    auto mark = walk.pointer.PushKey(field);
    ScanString(*v, field, false, walk);
    walk.pointer.Pop(mark);
  }
  // Every member Go would read as "inputs" or "outputs", in any letter
  // case: a shadowed duplicate is still in the file, and redact --leaks
  // must see its leaks too.
  std::string decoded;
  for (const json::Member& m : resource.object()) {
    if (!m.value.is_object()) continue;
    std::string_view field = state::ResourceView::FieldOf(m, &decoded);
    if (field == "inputs" || field == "outputs") {
      ScanProperties(m.value, m.key.has_escapes ? decoded : m.key.raw(), field,
                     walk);
    }
  }
}

// A visitor of the property walker (state/property.h), under the
// conservative secret rule: nothing inside a secret is in the clear.
struct LeakScanner::Visitor {
  struct Level {
    /// The nearest member name (a key), or for the "value" of a name/value
    /// pair ({"name": "DB_PASSWORD", "value": "..."}: Kubernetes container
    /// env, ECS environment and secrets, Elastic Beanstalk settings) the
    /// pair's "name"; nullptr at the root, which is named by `section`.
    const json::Value* name = nullptr;
    std::string_view section;
    /// Set by an object for its members: its last "name"/"Name" string.
    const json::Value* pair_name = nullptr;
  };
  LeakScanner& scanner;
  Walk& walk;
  std::string name_scratch;

  state::Step Visit(const state::PropertyNode& node, state::PropertyCursor& at,
                    Level& level) {
    if (node.key != nullptr) {
      // Sizes first: most keys are neither, and StrEquals is a call.
      const json::Value& key = *node.key;
      level.name = level.pair_name != nullptr &&
                           (key.size == 5 || key.has_escapes) &&
                           (key.StrEquals("value") || key.StrEquals("Value"))
                       ? level.pair_name
                       : node.key;
    }
    if (!walk.flagged.empty() &&
        std::find(walk.flagged.begin(), walk.flagged.end(), node.value) !=
            walk.flagged.end()) {
      return state::Step::kSkip;
    }
    switch (node.kind) {
      case state::PropertyKind::kString:
      case state::PropertyKind::kUnknown: {
        std::string_view nearest = level.name != nullptr
                                       ? Decoded(*level.name, &name_scratch)
                                       : level.section;
        walk.cursor = &at;
        scanner.ScanString(*node.value, nearest, true, walk);
        walk.cursor = nullptr;
        return state::Step::kSkip;
      }
      case state::PropertyKind::kArray: return state::Step::kDescend;
      case state::PropertyKind::kSecret:
        return state::Step::kSkip;  // secret: nothing inside is in the clear
      default:
        if (!node.value->is_object()) return state::Step::kSkip;
        level.pair_name = nullptr;
        for (const json::Member& m : node.value->object()) {
          if ((m.key.size == 4 || m.key.has_escapes) && m.value.is_string() &&
              (m.key.StrEquals("name") || m.key.StrEquals("Name"))) {
            level.pair_name = &m.value;
          }
        }
        // Assets, references, ...: their members are plain text here.
        return node.is_signature() ? state::Step::kDescendRaw
                                   : state::Step::kDescend;
    }
  }
};

void LeakScanner::ScanProperties(const json::Value& props, std::string_view key,
                                 std::string_view section, Walk& walk) {
  auto mark = walk.pointer.PushKey(key);
  WalkSection(props, section, walk);
  walk.pointer.Pop(mark);
}

void LeakScanner::WalkSection(const json::Value& props,
                              std::string_view section, Walk& walk) {
  Visitor visitor{*this, walk, {}};
  state::WalkOptions options;
  options.base_pointer = walk.pointer.str();
  options.secret_rule = kRule;
  Visitor::Level root;
  root.section = section;
  state::WalkProperties(props, visitor, options, root);
}

void LeakScanner::ScanConfig(const json::Value& config,
                             std::string_view base_pointer,
                             std::vector<Leak>* out) {
  if (!config.is_object() || options_.fingerprinter == nullptr) return;
  Walk walk{out,    options_.known_secrets,
            {},     json::PointerBuilder(std::string(base_pointer)),
            {},     true,
            {},     {},
            nullptr};
  WalkSection(config, "config", walk);
}

bool LeakScanner::ScanString(const json::Value& value,
                             std::string_view nearest_key, bool by_name,
                             Walk& walk) {
  std::string_view text = Decoded(value, &scratch_);
  if (text.empty() || state::IsPstatePlaceholder(text)) return false;
  if (options_.known_secret && options_.known_secrets != nullptr &&
      !walk.IsOwnName(text)) {
    ids_.clear();
    options_.known_secrets->FindIn(text, &ids_, 1);
    if (!ids_.empty()) {
      std::string_view secret = options_.known_secrets->plaintext(ids_.front());
      bool whole = secret.size() == text.size();
      walk.Add(diag::Code::kLeakKnownSecret,
               std::string(whole ? "equals" : "contains") +
                   " the plaintext of a secret stored in this state "
                   "(hmac-sha256 " +
                   options_.fingerprinter->ShortFingerprint(secret) + ")",
               value, true);
      return true;
    }
  }
  // A password hash is not the password, but it can be cracked offline:
  // its own, lower-severity finding, wherever it is.
  if (options_.credential_property && detect::IsPasswordHash(text)) {
    walk.Add(diag::Code::kLeakPasswordHash,
             "plaintext password hash (hmac-sha256 " +
                 options_.fingerprinter->ShortFingerprint(text) + ")",
             value, true);
    return true;
  }
  if (options_.credential_property && by_name &&
      detect::IsPlausibleCredentialValue(text) &&
      !detect::IsEncryptedBlob(text) &&
      !crypto::IsPassphraseCiphertextShape(ascii::TrimSpace(text)) &&
      !IsSettingWord(text) && IsCredentialName(nearest_key) &&
      (!IsKubeconfigName(nearest_key) || KubeconfigHasCredential(text))) {
    walk.Add(diag::Code::kLeakCredentialProperty,
             "property " + Quoted(nearest_key) +
                 " holds a plaintext credential (hmac-sha256 " +
                 options_.fingerprinter->ShortFingerprint(text) + ")",
             value, true);
    return true;
  }
  if (options_.credential_format) {
    if (auto match = detect::DetectCredentialFormat(text)) {
      walk.Add(diag::Code::kLeakCredentialFormat,
               "plaintext " + std::string(match->kind) + " (hmac-sha256 " +
                   options_.fingerprinter->ShortFingerprint(
                       text.substr(match->offset, match->length)) +
                   ")",
               value, true);
      return true;
    }
  }
  return false;
}

std::optional<std::string> LeakScanner::SecretValueText(
    const json::Value& secret) {
  std::string payload;
  if (const json::Value* p = state::FindLast(secret, "plaintext");
      p != nullptr && p->is_string()) {
    payload = p->Str();
  } else if (const json::Value* c = state::FindLast(secret, "ciphertext");
             c != nullptr && c->is_string() && options_.decryptor != nullptr &&
             *options_.decryptor) {
    auto decrypted = (*options_.decryptor)(c->Str());
    if (!decrypted) return std::nullopt;
    payload = std::move(*decrypted);
  } else {
    return std::nullopt;
  }
  json::Arena arena;
  json::Value tree;
  std::optional<std::string> result;
  if (parser_.ParseDocument(payload, 0, arena, &tree) ==
      json::ParseStatus::kOk) {
    std::string text;
    AppendCompact(tree, &text);
    result = std::move(text);
  }
  Wipe(payload);
  return result;
}

bool LeakScanner::IsCredentialName(std::string_view key) {
  auto it = name_cache_.find(key);
  if (it != name_cache_.end()) return it->second;
  bool result = detect::IsCredentialPropertyName(key);
  if (name_cache_.size() < 4096) name_cache_.emplace(std::string(key), result);
  return result;
}

}  // namespace pstate::scan
