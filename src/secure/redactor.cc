#include "pstate/secure/redactor.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>

#include "pstate/json/string_codec.h"
#include "pstate/secrets/base64.h"
#include "pstate/state/signature.h"
#include "pstate/state/state_writer.h"

#include "pstate/secure/leak_scanner.h"

namespace pstate::secure {
namespace {

using json::Value;

bool HasSignature(const Value& v) {
  return v.is_object() && v.Find(state::kSigKey) != nullptr;
}

/// A string Value whose text needs no escaping (ASCII placeholders).
Value Literal(std::string_view text, json::Arena& arena, std::uint64_t offset) {
  return arena.MakeString(text, offset);
}

std::array<std::uint8_t, 32> FingerprintBytes(const secrets::Fingerprinter& f,
                                              std::string_view value) {
  std::string fp = f.Fingerprint(value);
  std::string_view hex = std::string_view(fp).substr(
      std::strlen(secrets::kFingerprintPrefix));
  std::array<std::uint8_t, 32> out{};
  auto nibble = [](char c) -> std::uint8_t {
    return static_cast<std::uint8_t>(c <= '9' ? c - '0' : c - 'a' + 10);
  };
  for (std::size_t i = 0; i < out.size() && 2 * i + 1 < hex.size(); ++i) {
    out[i] = static_cast<std::uint8_t>(nibble(hex[2 * i]) << 4 |
                                       nibble(hex[2 * i + 1]));
  }
  return out;
}

char LowerAscii(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0;
  std::size_t star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() &&
        (pattern[p] == '?' || (pattern[p] != '*' &&
                               LowerAscii(pattern[p]) == LowerAscii(text[t])))) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

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
        if (c < '0' || c > '9') return nullptr;
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
  explicit LeakHook(const KnownSecrets* known)
      : fingerprinter_(secrets::Fingerprinter::WithRandomKey()),
        scanner_(MakeOptions(fingerprinter_, known)) {}
  void Collect(const Value& resource, std::string_view base_pointer,
               std::unordered_set<const Value*>* out) {
    leaks_.clear();
    scanner_.ScanResource(resource, base_pointer, &leaks_);
    for (const Leak& leak : leaks_) {
      const Value* v = leak.value;
      if (!v) v = Resolve(resource, base_pointer, leak.pointer);
      if (v) out->insert(v);
    }
  }

 private:
  static LeakOptions MakeOptions(const secrets::Fingerprinter& f,
                                 const KnownSecrets* known) {
    LeakOptions options;
    options.fingerprinter = &f;
    // Known-secret matching needs every plaintext of the state first: the
    // caller collects them in a first pass when it can read the input twice.
    options.known_secrets = known;
    options.known_secret = known != nullptr;
    return options;
  }

  secrets::Fingerprinter fingerprinter_;
  LeakScanner scanner_;
  std::vector<Leak> leaks_;
};

Redactor::Redactor(RedactOptions options) : options_(std::move(options)) {
  if (options_.leaks) leak_hook_ = new LeakHook(options_.known_secrets);
}

Redactor::~Redactor() { delete leak_hook_; }

bool Redactor::MatchesAlso(const Value& key) const {
  if (options_.also.empty()) return false;
  std::string name = key.has_escapes ? key.Str() : std::string(key.raw());
  for (const std::string& glob : options_.also) {
    if (GlobMatch(glob, name)) return true;
  }
  return false;
}

Value Redactor::CiphertextFor(const Value& ciphertext, json::Arena& arena,
                              bool config) {
  // Config values are read before the provider (checkpoint order), and
  // verify only checks their shape for passphrase/cloud: always v1-shaped.
  bool base64_shape =
      !config && (provider_ == "service" || provider_ == "b64");
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
  std::string b64 = secrets::Base64Encode(std::string_view(
      reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  if (!base64_shape) b64 = "v1:AAAAAAAAAAAAAAAA:" + b64;
  return Literal(b64, arena, ciphertext.offset);
}

Value Redactor::PlainFor(const Value& value, json::Arena& arena) {
  if (!options_.fingerprinter) return Literal(kRedactedText, arena, value.offset);
  // The value's JSON text, as Pulumi's json.Marshal would write it, so a
  // plain value and an equal plaintext secret get the same fingerprint.
  scratch_.clear();
  if (value.is_string()) {
    std::string decoded = value.Str();
    scratch_.push_back('"');
    json::AppendEscaped(decoded, &scratch_, json::EscapeStyle::kHtmlSafe);
    scratch_.push_back('"');
  } else if (value.type == json::Type::kTrue) {
    scratch_ = "true";
  } else if (value.type == json::Type::kFalse) {
    scratch_ = "false";
  } else {
    scratch_.assign(value.raw());
  }
  return Literal(options_.fingerprinter->Fingerprint(scratch_), arena,
                 value.offset);
}

std::optional<Value> Redactor::RedactSecret(const Value& value,
                                            json::Arena& arena) {
  if (!state::IsSecret(value)) return std::nullopt;
  auto* members = arena.Allocate<json::Member>(value.size);
  std::copy(value.members, value.members + value.size, members);
  for (std::size_t i = 0; i < value.size; ++i) {
    json::Member& m = members[i];
    if (m.key.StrEquals("ciphertext")) {
      m.value = CiphertextFor(m.value, arena, false);
    } else if (m.key.StrEquals("plaintext")) {
      if (!options_.fingerprinter) {
        m.value = Literal(kRedactedPlaintext, arena, m.value.offset);
      } else {
        std::string text = m.value.is_string() ? m.value.Str()
                                               : std::string(m.value.raw());
        std::string fp = "\"" + options_.fingerprinter->Fingerprint(text) + "\"";
        m.value = Literal(fp, arena, m.value.offset);
      }
    }
  }
  ++stats_.secrets;
  Value out = value;
  out.members = members;
  return out;
}

Value Redactor::RedactPlainTree(const Value& value, json::Arena& arena,
                                std::uint64_t* counter) {
  return state::RewriteValue(
      value, arena,
      [&](const Value& v, const Value*) -> std::optional<Value> {
        if (auto secret = RedactSecret(v, arena)) return secret;
        if (HasSignature(v)) return v;  // assets, references: left as they are
        if (v.is_string() || v.is_number() || v.is_bool()) {
          ++*counter;
          return PlainFor(v, arena);
        }
        return std::nullopt;
      });
}

Value Redactor::RedactResource(const Value& resource, json::Arena& arena,
                               std::string_view base_pointer) {
  leak_values_.clear();
  if (leak_hook_ && resource.is_object()) {
    leak_hook_->Collect(resource, base_pointer, &leak_values_);
  }
  const Value* inputs = nullptr;
  const Value* outputs = nullptr;
  if (!options_.also.empty() && resource.is_object()) {
    inputs = resource.Find("inputs");
    outputs = resource.Find("outputs");
  }
  auto leak = [&](const Value& v) -> std::optional<Value> {
    if (leak_values_.empty() || !leak_values_.count(&v)) return std::nullopt;
    if (v.is_null()) return std::nullopt;
    ++stats_.leak_values;
    if (v.is_string() || v.is_number() || v.is_bool()) return PlainFor(v, arena);
    return RedactPlainTree(v, arena, &stats_.leak_values);
  };
  auto properties = [&](const Value& root) -> Value {
    return state::RewriteValue(
        root, arena,
        [&](const Value& v, const Value* key) -> std::optional<Value> {
          if (auto secret = RedactSecret(v, arena)) return secret;
          if (auto l = leak(v)) return l;
          if (key && &v != &root && MatchesAlso(*key)) {
            return RedactPlainTree(v, arena, &stats_.also_values);
          }
          return std::nullopt;
        });
  };
  return state::RewriteValue(
      resource, arena,
      [&](const Value& v, const Value*) -> std::optional<Value> {
        if (inputs && (&v == inputs || &v == outputs)) return properties(v);
        if (auto secret = RedactSecret(v, arena)) return secret;
        if (auto l = leak(v)) return l;
        return std::nullopt;
      });
}

Value Redactor::RedactConfig(const Value& config, json::Arena& arena) {
  if (!config.is_object()) return config;
  return state::RewriteValue(
      config, arena, [&](const Value& v, const Value* key) -> std::optional<Value> {
        if (key && key->StrEquals("secure") && v.is_string()) {
          ++stats_.config_values;
          return CiphertextFor(v, arena, true);
        }
        // Top-level config keys ("ns:name") matching --also.
        if (key && &v != &config && v.is_object() == false &&
            MatchesAlso(*key)) {
          return RedactPlainTree(v, arena, &stats_.also_values);
        }
        return std::nullopt;
      });
}

Value Redactor::RedactProvider(const Value& provider, json::Arena& arena) {
  if (!provider.is_object()) return provider;
  if (const Value* type = provider.Find("type"); type && type->is_string()) {
    provider_ = type->Str();
  }
  const Value* state = provider.Find("state");
  if (!state) return provider;
  return state::RewriteValue(
      provider, arena, [&](const Value& v, const Value*) -> std::optional<Value> {
        if (&v != state) return std::nullopt;
        return state::RewriteValue(
            v, arena,
            [&](const Value& s, const Value* skey) -> std::optional<Value> {
              if (s.is_string()) {
                ++stats_.provider_values;
                if (skey && skey->StrEquals("salt") &&
                    provider_ == "passphrase") {
                  return Literal(kRedactedSalt, arena, s.offset);
                }
                if (skey && skey->StrEquals("encryptedkey")) {
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
      });
}

Value Redactor::RedactMetadata(const Value& metadata, json::Arena& arena) {
  if (!metadata.is_object()) return metadata;
  const Value* error = metadata.Find("integrity_error");
  if (!error || !error->is_object()) return metadata;
  const Value* env = error->Find("env_vars");
  if (!env) return metadata;
  return state::RewriteValue(
      metadata, arena, [&](const Value& v, const Value*) -> std::optional<Value> {
        if (&v != env) return std::nullopt;
        if (!v.is_object()) {
          return RedactPlainTree(v, arena, &stats_.env_vars);
        }
        return state::RewriteValue(
            v, arena, [&](const Value& e, const Value*) -> std::optional<Value> {
              if (&e == &v) return std::nullopt;
              if (e.is_null()) return e;
              return RedactPlainTree(e, arena, &stats_.env_vars);
            });
      });
}

void Redactor::Process(state::Leaf& leaf, state::Context& context) {
  (void)context;
  json::Arena& arena = *leaf.arena;
  switch (leaf.role) {
    case state::Role::kConfig:
      leaf.value = RedactConfig(leaf.value, arena);
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
    case state::Role::kPendingOperation: {
      if (!leaf.value.is_object()) break;
      const Value* resource = leaf.value.Find("resource");
      if (!resource) break;
      std::string pointer = std::string(leaf.pointer) + "/resource";
      leaf.value = state::RewriteValue(
          leaf.value, arena, [&](const Value& v, const Value*) -> std::optional<Value> {
            if (&v == resource) return RedactResource(v, arena, pointer);
            return std::nullopt;
          });
      break;
    }
    default:
      break;
  }
}

}  // namespace pstate::secure
