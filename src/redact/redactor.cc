#include "redact/redactor.h"
#include "base/wipe.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>

#include "base/ascii.h"
#include "base/base64.h"
#include "base/glob.h"
#include "json/string_codec.h"
#include "state/property.h"
#include "state/schema.h"
#include "state/signature.h"

#include "scan/leak_scanner.h"
#include "state/secret_object.h"

namespace pstate::redact {
namespace {

// A copy of the object `object` in `arena` whose member values are
// `rewrite(member)`, every member (duplicates and case variants included)
// in its place: the structs Pulumi reads by field, where each named field
// has its own rule and any other member may still hold secret objects.
template <typename F>
json::Value RewriteMembers(const json::Value& object, json::Arena& arena,
                           F rewrite) {
  auto* members = arena.Allocate<json::Member>(object.size);
  std::copy(object.members, object.members + object.size, members);
  for (std::size_t i = 0; i < object.size; ++i) {
    members[i].value = rewrite(static_cast<const json::Member&>(members[i]));
  }
  json::Value out = object;
  out.members = members;
  return out;
}

using json::Value;

/// The resource fields a redaction never changes: the resource's identity
/// (`urn`, `id`), which other resources name, and the references Pulumi's
/// dependency graph follows (state::kReferenceFields, `dependency`). A
/// changed URN breaks every parent, dependency and provider reference to
/// it. Names match exactly, as before the table.
bool IsReferenceField(std::string_view name) {
  if (name == "urn" || name == "id") return true;
  const state::ReferenceField* field = state::FindReferenceField(name);
  return field != nullptr && field->dependency;
}

/// True when `pointer` (below `base`) is a reference field or inside one.
bool InReferenceField(std::string_view base, std::string_view pointer) {
  if (pointer.substr(0, base.size()) != base) return false;
  pointer.remove_prefix(base.size());
  if (pointer.empty() || pointer[0] != '/') return false;
  pointer.remove_prefix(1);
  return IsReferenceField(pointer.substr(0, pointer.find('/')));
}

/// A string Value whose text needs no escaping (ASCII placeholders).
Value Literal(std::string_view text, json::Arena& arena, std::uint64_t offset) {
  return arena.MakeString(text, offset);
}

std::array<std::uint8_t, 32> FingerprintBytes(const crypto::Fingerprinter& f,
                                              std::string_view value) {
  std::string fp = f.Fingerprint(value);
  std::string_view hex =
      std::string_view(fp).substr(std::strlen(crypto::kFingerprintPrefix));
  std::array<std::uint8_t, 32> out{};
  auto nibble = [](char c) {
    return static_cast<std::uint8_t>(ascii::HexValue(c));
  };
  for (std::size_t i = 0; i < out.size() && 2 * i + 1 < hex.size(); ++i) {
    out[i] = static_cast<std::uint8_t>(nibble(hex[2 * i]) << 4 |
                                       nibble(hex[2 * i + 1]));
  }
  return out;
}

/// A visitor of the property walker (state/property.h) made of a function
/// that returns a node's replacement, or nothing to walk on below it. The
/// conservative secret rule applies: any signature member saying "secret"
/// makes one, and a signature object's other members are walked too (a
/// malformed one may hide a secret), its signature members never.
template <typename Fn>
struct ReplaceVisitor {
  Fn& fn;
  state::Step Visit(const state::PropertyNode& node,
                    state::PropertyCursor& at) {
    if (std::optional<Value> replacement = fn(node)) {
      at.Replace(*replacement);
      return state::Step::kSkip;
    }
    return node.is_signature() ? state::Step::kDescendRaw
                               : state::Step::kDescend;
  }
};

/// `root` with each node `fn` gives a replacement for replaced
/// (copy-on-write: everything else is shared with the input).
template <typename Fn>
Value Rewrite(const Value& root, json::Arena& arena, Fn&& fn) {
  ReplaceVisitor<Fn> visitor{fn};
  state::WalkOptions options;
  options.secret_rule = state::SecretRule::kAnySignature;
  return state::RewriteProperties(root, arena, visitor, options);
}

/// The value at `pointer` (RFC 6901) below `root`, whose own pointer is
/// `base`; nullptr when it does not resolve.
const Value* Resolve(const Value& root, std::string_view base,
                     std::string_view pointer) {
  if (pointer.substr(0, base.size()) != base) return nullptr;
  pointer.remove_prefix(base.size());
  const Value* v = &root;
  while (!pointer.empty()) {
    if (pointer[0] != '/') return nullptr;
    pointer.remove_prefix(1);
    std::size_t end = pointer.find('/');
    std::string_view raw = pointer.substr(0, end);
    pointer = end == std::string_view::npos ? std::string_view()
                                            : pointer.substr(end);
    std::string token;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '~' && i + 1 < raw.size()) {
        token.push_back(raw[i + 1] == '1' ? '/' : '~');
        ++i;
      } else {
        token.push_back(raw[i]);
      }
    }
    if (v->is_object()) {
      v = v->Find(token);
    } else if (v->is_array()) {
      std::size_t index = 0;
      for (char c : token) {
        if (!ascii::IsDigit(c)) return nullptr;
        index = index * 10 + static_cast<std::size_t>(c - '0');
      }
      v = index < v->size ? &v->elements[index] : nullptr;
    } else {
      return nullptr;
    }
    if (!v) return nullptr;
  }
  return v;
}

}  // namespace

class Redactor::LeakHook {
 public:
  explicit LeakHook(const scan::KnownSecrets* known)
      : fingerprinter_(crypto::Fingerprinter::WithRandomKey()),
        scanner_(MakeOptions(fingerprinter_, known)) {}
  /// Adds the leaking values of `resource` to `out`; returns how many leaks
  /// sit in reference fields, which are left alone.
  std::uint64_t Collect(const Value& resource, std::string_view base_pointer,
                        std::unordered_set<const Value*>* out,
                        bool config = false) {
    leaks_.clear();
    if (config) {
      scanner_.ScanConfig(resource, base_pointer, &leaks_);
    } else {
      scanner_.ScanResource(resource, base_pointer, &leaks_);
    }
    std::uint64_t in_references = 0;
    for (const scan::Leak& leak : leaks_) {
      if (InReferenceField(base_pointer, leak.pointer)) {
        ++in_references;
        continue;
      }
      const Value* v = leak.value;
      if (!v) v = Resolve(resource, base_pointer, leak.pointer);
      if (v) out->insert(v);
    }
    return in_references;
  }

 private:
  static scan::LeakOptions MakeOptions(const crypto::Fingerprinter& f,
                                       const scan::KnownSecrets* known) {
    scan::LeakOptions options;
    options.fingerprinter = &f;
    // Known-secret matching needs every plaintext of the state first: the
    // caller collects them in a first pass when it can read the input twice.
    options.known_secrets = known;
    options.known_secret = known != nullptr;
    return options;
  }

  crypto::Fingerprinter fingerprinter_;
  scan::LeakScanner scanner_;
  std::vector<scan::Leak> leaks_;
};

Redactor::Redactor(RedactOptions options) : options_(std::move(options)) {
  if (options_.leaks || options_.count_kept_leaks)
    leak_hook_ = new LeakHook(options_.known_secrets);
}

Redactor::~Redactor() { delete leak_hook_; }

bool Redactor::MatchesAlso(const Value& key) const {
  if (options_.also.empty()) return false;
  std::string name = key.has_escapes ? key.Str() : std::string(key.raw());
  for (const std::string& glob : options_.also) {
    if (GlobMatch(glob, name, ascii::Case::kFold)) return true;
  }
  return false;
}

Value Redactor::CiphertextFor(const Value& ciphertext, json::Arena& arena,
                              bool config) {
  // Config values are read before the provider (checkpoint order), and
  // verify only checks their shape for passphrase/cloud: always v1-shaped.
  bool base64_shape = !config && (provider_ == state::ProviderKind::kService ||
                                  provider_ == state::ProviderKind::kB64);
  if (!options_.fingerprinter) {
    return Literal(base64_shape ? kRedactedBase64 : kRedactedCiphertext, arena,
                   ciphertext.offset);
  }
  scratch_.clear();
  if (ciphertext.is_string()) {
    json::AppendUnescaped(ciphertext.raw(), &scratch_);
  } else {
    scratch_.assign(ciphertext.raw());
  }
  auto bytes = FingerprintBytes(*options_.fingerprinter, scratch_);
  std::string b64 = Base64Encode(std::string_view(
      reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  if (!base64_shape) b64 = "v1:AAAAAAAAAAAAAAAA:" + b64;
  return Literal(b64, arena, ciphertext.offset);
}

Value Redactor::PlainFor(const Value& value, json::Arena& arena) {
  if (!options_.fingerprinter)
    return Literal(kRedactedText, arena, value.offset);
  // One definition with scan (FingerprintText): a plain "hunter2", a
  // plaintext secret "hunter2" and scan's finding for either share the
  // fingerprint (scan shows its first 12 hex digits).
  std::string text = scan::FingerprintText(value);
  Value out =
      Literal(options_.fingerprinter->Fingerprint(text), arena, value.offset);
  Wipe(text);
  return out;
}

Value Redactor::PlaintextFor(const Value& plaintext, json::Arena& arena) {
  if (!options_.fingerprinter) {
    return Literal(kRedactedPlaintext, arena, plaintext.offset);
  }
  // The payload is the JSON text of the secret's value: fingerprint that
  // value as scan and PlainFor do. A payload that is not JSON is taken as
  // the text itself.
  std::string payload =
      plaintext.is_string() ? plaintext.Str() : std::string(plaintext.raw());
  json::Arena scratch_arena;
  json::Value tree;
  std::string text;
  if (plaintext.is_string() &&
      parser_.ParseDocument(payload, 0, scratch_arena, &tree) ==
          json::ParseStatus::kOk) {
    text = scan::FingerprintText(tree);
  } else {
    text = payload;
  }
  std::string fp = "\"" + options_.fingerprinter->Fingerprint(text) + "\"";
  Wipe(payload);
  Wipe(text);
  return Literal(fp, arena, plaintext.offset);
}

std::optional<Value> Redactor::RedactSecret(const Value& value,
                                            json::Arena& arena) {
  if (!state::IsSecret(value, state::SecretRule::kAnySignature)) {
    return std::nullopt;
  }
  ++stats_.secrets;
  return RewriteMembers(value, arena, [&](const json::Member& m) {
    // Every spelling and every duplicate: Pulumi reads the last one, and
    // none may keep its text.
    if (state::KeyMatches(m.key, "ciphertext")) {
      return CiphertextFor(m.value, arena, false);
    }
    if (state::KeyMatches(m.key, "plaintext")) {
      return PlaintextFor(m.value, arena);
    }
    if (state::IsSignatureKey(m.key)) return m.value;
    // A member Pulumi ignores may still hold secret objects.
    return RedactSecretsIn(m.value, arena);
  });
}

std::optional<Value> Redactor::RedactSecretNode(const state::PropertyNode& node,
                                                json::Arena& arena) {
  // The walker's rule is RedactSecret's: kAnySignature.
  if (node.kind != state::PropertyKind::kSecret) return std::nullopt;
  return RedactSecret(*node.value, arena);
}

Value Redactor::RedactSecretsIn(const Value& value, json::Arena& arena) {
  return Rewrite(value, arena,
                 [&](const state::PropertyNode& node) -> std::optional<Value> {
                   return RedactSecretNode(node, arena);
                 });
}

Value Redactor::RedactPlainTree(const Value& value, json::Arena& arena,
                                std::uint64_t* counter) {
  return Rewrite(value, arena,
                 [&](const state::PropertyNode& node) -> std::optional<Value> {
                   const Value& v = *node.value;
                   if (auto secret = RedactSecretNode(node, arena))
                     return secret;
                   // Assets, references: left as they are.
                   if (node.is_signature()) return v;
                   if (v.is_string() || v.is_number() || v.is_bool()) {
                     ++*counter;
                     return PlainFor(v, arena);
                   }
                   return std::nullopt;
                 });
}

void Redactor::CollectLeaks(const Value& value, std::string_view pointer,
                            bool config) {
  leak_values_.clear();
  if (leak_hook_ == nullptr || !value.is_object()) return;
  stats_.reference_leaks +=
      leak_hook_->Collect(value, pointer, &leak_values_, config);
  if (!options_.leaks) {
    // Counted, not replaced (--keep-leaks).
    stats_.kept_leaks += leak_values_.size();
    leak_values_.clear();
  }
}

std::optional<Value> Redactor::LeakValue(const Value& v, json::Arena& arena) {
  if (leak_values_.empty() || !leak_values_.count(&v)) return std::nullopt;
  if (v.is_null()) return std::nullopt;
  ++stats_.leak_values;
  if (v.is_string() || v.is_number() || v.is_bool()) return PlainFor(v, arena);
  return RedactPlainTree(v, arena, &stats_.leak_values);
}

Value Redactor::RedactResource(const Value& resource, json::Arena& arena,
                               std::string_view base_pointer) {
  CollectLeaks(resource, base_pointer, /*config=*/false);
  // Every "inputs"/"outputs" member, duplicates included.
  std::unordered_set<const Value*> sections;
  std::unordered_set<const Value*> references;
  if (resource.is_object()) {
    for (const json::Member& m : resource.object()) {
      if (!options_.also.empty() &&
          (m.key.StrEquals("inputs") || m.key.StrEquals("outputs"))) {
        sections.insert(&m.value);
      }
      std::string key = m.key.Str();
      if (IsReferenceField(key)) references.insert(&m.value);
    }
  }
  auto leak = [&](const Value& v) { return LeakValue(v, arena); };
  auto properties = [&](const Value& root) -> Value {
    return Rewrite(
        root, arena,
        [&](const state::PropertyNode& node) -> std::optional<Value> {
          const Value& v = *node.value;
          if (auto secret = RedactSecretNode(node, arena)) return secret;
          if (auto l = leak(v)) return l;
          if (node.key && &v != &root && MatchesAlso(*node.key)) {
            return RedactPlainTree(v, arena, &stats_.also_values);
          }
          return std::nullopt;
        });
  };
  return Rewrite(resource, arena,
                 [&](const state::PropertyNode& node) -> std::optional<Value> {
                   const Value& v = *node.value;
                   // The resource's own members (a pointer range check: no
                   // hashing on the other nodes).
                   if (node.key != nullptr && resource.size > 0 &&
                       node.key >= &resource.members[0].key &&
                       node.key <= &resource.members[resource.size - 1].key) {
                     if (sections.count(&v)) return properties(v);
                     // Reference fields keep their text; only a (malformed)
                     // secret object inside one is rewritten.
                     if (references.count(&v)) return RedactSecretsIn(v, arena);
                   }
                   if (auto secret = RedactSecretNode(node, arena))
                     return secret;
                   if (auto l = leak(v)) return l;
                   return std::nullopt;
                 });
}

Value Redactor::RedactConfig(const Value& config, json::Arena& arena,
                             std::string_view pointer) {
  if (!config.is_object()) return RedactSecretsIn(config, arena);
  // Plaintext credentials among the values, as scan finds them.
  CollectLeaks(config, pointer, /*config=*/true);
  return Rewrite(config, arena,
                 [&](const state::PropertyNode& node) -> std::optional<Value> {
                   const Value& v = *node.value;
                   const Value* key = node.key;
                   if (key && key->StrEquals("secure") && v.is_string()) {
                     ++stats_.config_values;
                     return CiphertextFor(v, arena, true);
                   }
                   if (auto secret = RedactSecretNode(node, arena))
                     return secret;
                   if (auto leaked = LeakValue(v, arena)) return leaked;
                   // Top-level config keys ("ns:name") matching --also.
                   if (key && &v != &config && v.is_object() == false &&
                       MatchesAlso(*key)) {
                     return RedactPlainTree(v, arena, &stats_.also_values);
                   }
                   return std::nullopt;
                 });
}

Value Redactor::RedactProviderState(const Value& state, json::Arena& arena) {
  return Rewrite(state, arena,
                 [&](const state::PropertyNode& node) -> std::optional<Value> {
                   const Value& s = *node.value;
                   const Value* skey = node.key;
                   if (s.is_string()) {
                     ++stats_.provider_values;
                     if (skey && state::KeyMatches(*skey, "salt") &&
                         provider_ == state::ProviderKind::kPassphrase) {
                       return Literal(kRedactedSalt, arena, s.offset);
                     }
                     if (skey && state::KeyMatches(*skey, "encryptedkey")) {
                       return Literal(kRedactedBase64, arena, s.offset);
                     }
                     return Literal(kRedactedText, arena, s.offset);
                   }
                   if (s.is_number()) {
                     ++stats_.provider_values;
                     Value zero = s;
                     zero.text = "0";
                     zero.size = 1;
                     return zero;
                   }
                   return std::nullopt;
                 });
}

Value Redactor::RedactProvider(const Value& provider, json::Arena& arena) {
  if (!provider.is_object()) return RedactSecretsIn(provider, arena);
  // Go keeps the last "type" (and matches the field name without case).
  provider_ = state::ParseSecretsProvider(provider).kind;
  // Every "state" member, duplicates and case variants included: whichever
  // one Pulumi keeps, none still holds the salt or key.
  return RewriteMembers(provider, arena, [&](const json::Member& m) {
    if (state::KeyMatches(m.key, "state")) {
      return RedactProviderState(m.value, arena);
    }
    if (state::KeyMatches(m.key, "type")) return m.value;
    return RedactSecretsIn(m.value, arena);
  });
}

Value Redactor::RedactCommand(const Value& command, json::Arena& arena) {
  std::string text = command.Str();
  state::CommandHead head = state::SplitCommandLine(text);
  Wipe(text);
  if (!head.rest) return command;  // nothing beyond the program and subcommand
  ++stats_.commands;
  std::string kept = std::move(head.shown);
  if (!kept.empty()) kept += ' ';
  kept += kRedactedText;
  return arena.MakeString(kept, command.offset);
}

Value Redactor::RedactIntegrityError(const Value& error, json::Arena& arena) {
  if (!error.is_object()) return RedactSecretsIn(error, arena);
  return RewriteMembers(error, arena, [&](const json::Member& m) -> Value {
    const state::Exposure exposure =
        state::ExposureOf(m.key.Str(), state::kIntegrityErrorFields);
    if (exposure == state::Exposure::kValues) {
      if (!m.value.is_object()) {
        return RedactPlainTree(m.value, arena, &stats_.env_vars);
      }
      const Value& env = m.value;
      return Rewrite(
          env, arena,
          [&](const state::PropertyNode& node) -> std::optional<Value> {
            const Value& e = *node.value;
            if (&e == &env) return std::nullopt;
            if (e.is_null()) return e;
            return RedactPlainTree(e, arena, &stats_.env_vars);
          });
    }
    if (exposure == state::Exposure::kCommandLine && m.value.is_string()) {
      // The CLI's argv: `-c key=value` and `config set --secret` put
      // secrets there (F11).
      return RedactCommand(m.value, arena);
    }
    return RedactSecretsIn(m.value, arena);
  });
}

Value Redactor::RedactMetadata(const Value& metadata, json::Arena& arena) {
  if (!metadata.is_object()) return RedactSecretsIn(metadata, arena);
  return RewriteMembers(metadata, arena, [&](const json::Member& m) {
    return state::KeyMatches(m.key, "integrity_error")
               ? RedactIntegrityError(m.value, arena)
               : RedactSecretsIn(m.value, arena);
  });
}

Value Redactor::RedactPendingOperation(const Value& op, json::Arena& arena,
                                       std::string_view base_pointer) {
  if (!op.is_object()) return RedactSecretsIn(op, arena);
  std::string pointer = std::string(base_pointer) + "/resource";
  return RewriteMembers(op, arena, [&](const json::Member& m) {
    return state::KeyMatches(m.key, "resource")
               ? RedactResource(m.value, arena, pointer)
               : RedactSecretsIn(m.value, arena);
  });
}

Value Redactor::RedactAnywhere(const Value& value, json::Arena& arena) {
  return Rewrite(
      value, arena,
      [&](const state::PropertyNode& node) -> std::optional<Value> {
        const Value& v = *node.value;
        const Value* key = node.key;
        if (auto secret = RedactSecretNode(node, arena)) return secret;
        if (key == nullptr) return std::nullopt;
        if (v.is_object() && state::KeyMatches(*key, "integrity_error")) {
          return RedactIntegrityError(v, arena);
        }
        if (v.is_object() && state::KeyMatches(*key, "secrets_providers")) {
          return RedactProvider(v, arena);
        }
        if (v.is_string() && key->StrEquals("secure")) {
          ++stats_.config_values;
          return CiphertextFor(v, arena, true);
        }
        return std::nullopt;
      });
}

void Redactor::Process(state::Leaf& leaf, state::Context& context) {
  (void)context;
  json::Arena& arena = *leaf.arena;
  switch (leaf.role) {
    case state::Role::kConfig:
      leaf.value = RedactConfig(leaf.value, arena, leaf.pointer);
      break;
    case state::Role::kSecretsProviders:
      leaf.value = RedactProvider(leaf.value, arena);
      break;
    case state::Role::kMetadata:
      leaf.value = RedactMetadata(leaf.value, arena);
      break;
    case state::Role::kResource:
      leaf.value = RedactResource(leaf.value, arena, leaf.pointer);
      break;
    case state::Role::kPendingOperation:
      leaf.value = RedactPendingOperation(leaf.value, arena, leaf.pointer);
      break;
    default:
      // Snippets, extensions, unknown members, a misshapen container, a
      // second envelope: Pulumi may read some of them (the DIY backend
      // reads "checkpoint" even next to "deployment"), so every secret
      // object anywhere is rewritten (F14), and so are the other secret
      // places of an envelope found inside them.
      leaf.value = RedactAnywhere(leaf.value, arena);
      break;
  }
  if (options_.anonymizer != nullptr) leaf.value = Anonymize(leaf.value, arena);
}

Value Redactor::Anonymize(const Value& value, json::Arena& arena) {
  return Rewrite(value, arena,
                 [&](const state::PropertyNode& node) -> std::optional<Value> {
                   const Value& v = *node.value;
                   // Ciphertexts and placeholders hold no identity; a
                   // base64 text must not be touched by chance.
                   if (node.kind == state::PropertyKind::kSecret) return v;
                   if (!v.is_string()) return std::nullopt;
                   std::optional<std::string> out =
                       options_.anonymizer->Apply(v.Str());
                   if (!out) return std::nullopt;
                   ++stats_.anonymized_strings;
                   return arena.MakeString(*out, v.offset);
                 });
}

}  // namespace pstate::redact
