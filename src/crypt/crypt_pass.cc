#include "crypt/crypt_pass.h"
#include "base/wipe.h"

#include <utility>

#include "diag/failure.h"
#include "state/property.h"
#include "state/signature.h"
#include "state/state_writer.h"

namespace pstate::crypt {
namespace {

using json::Value;

/// A decrypted-text cache bigger than this is dropped (between resources).
constexpr std::size_t kMaxCacheBytes = 256u << 20;
/// Fewer crypto operations than this in one resource run on the caller's
/// thread: waking the pool costs more than a few AES-GCM calls.
constexpr std::size_t kParallelThreshold = 8;

/// What one walk over a leaf found: every string `want` member of every
/// secret object (duplicates included: Pulumi keeps the last one, and none
/// may keep its text), and the first secret that has both forms.
struct Found {
  std::vector<const Value*> fields;
  const Value* both = nullptr;
};

/// Finds the secrets of a leaf: a visitor of the property walker
/// (state/property.h) under the conservative rule of secret_object.h (any
/// signature member saying "secret"). A secret's members other than its
/// payload are searched too: a malformed one may hide another secret.
struct Collector {
  std::string_view want;
  std::string_view other;
  Found* out;

  state::Step Visit(const state::PropertyNode& node, state::PropertyCursor&) {
    if (node.kind == state::PropertyKind::kSecret) {
      bool has_other = false;
      std::size_t before = out->fields.size();
      for (const json::Member& m : node.value->object()) {
        if (m.key.StrEquals(want)) {
          if (m.value.is_string()) out->fields.push_back(&m.value);
        } else if (m.key.StrEquals(other)) {
          has_other = has_other || m.value.is_string();
        }
      }
      if (has_other && out->fields.size() > before) {
        // Both forms: in the target form already, or malformed. Left alone;
        // encrypt refuses it (the caller checks `both`).
        if (out->both == nullptr) out->both = node.value;
        out->fields.resize(before);
      }
      return state::Step::kDescendRaw;
    }
    if (node.kind == state::PropertyKind::kArray) return state::Step::kDescend;
    if (!node.value->is_object()) return state::Step::kSkip;
    return node.is_signature() ? state::Step::kDescendRaw
                               : state::Step::kDescend;
  }
};

void Collect(const Value& v, std::string_view want, std::string_view other,
             Found* out) {
  Collector collector{want, other, out};
  state::WalkOptions options;
  options.secret_rule = state::SecretRule::kAnySignature;
  state::WalkProperties(v, collector, options);
}

/// Renames each collected payload member of a secret (`want` becomes
/// `other`) and gives it its new text: a visitor of the walker's
/// copy-on-write rewrite; the secret keeps its place and key order.
struct Renamer {
  const std::unordered_map<const Value*, std::string_view>& replacement;
  std::string_view other;
  json::Arena& arena;
  std::uint64_t& secrets;

  state::Step Visit(const state::PropertyNode& node,
                    state::PropertyCursor& at) {
    if (node.kind != state::PropertyKind::kSecret) {
      if (node.kind == state::PropertyKind::kArray)
        return state::Step::kDescend;
      if (!node.value->is_object()) return state::Step::kSkip;
      return node.is_signature() ? state::Step::kDescendRaw
                                 : state::Step::kDescend;
    }
    const Value& v = *node.value;
    auto* members = arena.Allocate<json::Member>(v.size);
    std::copy(v.members, v.members + v.size, members);
    bool changed = false;
    for (std::size_t k = 0; k < v.size; ++k) {
      auto it = replacement.find(&v.members[k].value);
      if (it == replacement.end()) {
        // A secret among the other members (Collect found those too).
        const Value& member = v.members[k].value;
        if (!member.is_object() && !member.is_array()) continue;
        std::uint64_t before = secrets;
        Value inner = Rewrite(member);
        if (secrets != before) {
          members[k].value = inner;
          changed = true;
        }
        continue;
      }
      members[k].key = arena.MakeString(other, v.members[k].key.offset);
      members[k].value =
          arena.MakeString(it->second, v.members[k].value.offset);
      changed = true;
      ++secrets;
    }
    if (changed) {
      Value out = v;
      out.members = members;
      at.Replace(out);
    }
    return state::Step::kSkip;
  }

  Value Rewrite(const Value& root) {
    state::WalkOptions options;
    options.secret_rule = state::SecretRule::kAnySignature;
    return state::RewriteProperties(root, arena, *this, options);
  }
};

std::string SchemeOf(std::string_view url) {
  std::size_t colon = url.find("://");
  if (colon == std::string_view::npos || colon > 32) return "";
  return std::string(url.substr(0, colon)) + "://";
}

}  // namespace

CryptPass::CryptPass(CryptOptions options) : options_(std::move(options)) {}

CryptPass::~CryptPass() {
  for (auto& [ct, pt] : cache_) {
    (void)ct;
    Wipe(pt);
  }
}

Status CryptPass::Fail(Errc code, const std::string& message,
                       std::uint64_t offset, state::Context& context) const {
  io::LineColumn at = context.Locate(offset);
  return Status(code,
                diag::Locate(options_.input_name, at.line, at.column, message));
}

Result<std::string> CryptPass::Transform(std::string_view text) const {
  if (options_.mode == CryptMode::kDecrypt) return crypter_->Decrypt(text);
  return crypter_->Encrypt(text);
}

Status CryptPass::OnProvider(const Value& provider, state::Context& context) {
  state::SecretsProvider model = state::ParseSecretsProvider(provider);
  kind_ = model.kind;
  crypter_.reset();
  if (model.kind == state::ProviderKind::kNone) return Status::Ok();
  stats_.provider = model.type;
  // Places for messages only; the model decides.
  const Value* type = provider.Find("type");
  std::uint64_t type_offset = type ? type->offset : provider.offset;
  const Value* state = provider.Find("state");
  const char* verb =
      options_.mode == CryptMode::kDecrypt ? "decrypted" : "encrypted";
  crypto::Unlocked unlocked = crypto::Unlock(model, options_.passphrase);
  if (unlocked.crypter) {
    crypter_.emplace(std::move(*unlocked.crypter));
    return Status::Ok();
  }
  switch (unlocked.failure) {
    case crypto::UnlockFailure::kNone: return Status::Ok();
    case crypto::UnlockFailure::kNoSalt:
      return Fail(Errc::kFormat,
                  "the passphrase secrets provider has no \"salt\" string "
                  "in its state",
                  state ? state->offset : provider.offset, context);
    case crypto::UnlockFailure::kNoPassphrase:
      return Fail(unlocked.status.code(),
                  "this state uses the passphrase secrets provider: " +
                      unlocked.status.message(),
                  provider.offset, context);
    case crypto::UnlockFailure::kBadSalt: {
      const Value* salt =
          state && state->is_object() ? state->Find("salt") : nullptr;
      std::uint64_t salt_offset = salt ? salt->offset : provider.offset;
      if (unlocked.status.code() == Errc::kCrypto) {
        return Fail(Errc::kCrypto,
                    "incorrect passphrase: it does not unlock this state "
                    "(the check value in secrets_providers.state.salt does "
                    "not decrypt to \"pulumi\"); nothing was written",
                    salt_offset, context);
      }
      return Fail(
          unlocked.status.code(),
          "the passphrase salt cannot be used: " + unlocked.status.message(),
          salt_offset, context);
    }
    case crypto::UnlockFailure::kOffline:
    case crypto::UnlockFailure::kUnknown: break;
  }
  switch (model.kind) {
    case state::ProviderKind::kService:
      return Fail(Errc::kUnsupported,
                  std::string("the secrets of this state cannot be ") + verb +
                      " offline: its secrets provider is \"service\", whose "
                      "key never leaves Pulumi Cloud (every ciphertext is "
                      "decrypted by the Cloud API). Use `pulumi stack export "
                      "--show-secrets` while logged in to that organization",
                  type_offset, context);
    case state::ProviderKind::kCloud: {
      std::string scheme = SchemeOf(model.url);
      return Fail(
          Errc::kUnsupported,
          std::string("the secrets of this state cannot be ") + verb +
              " offline: its secrets provider is \"cloud\", whose data key "
              "(state.encryptedkey) is itself encrypted by a cloud KMS "
              "key" +
              (scheme.empty()
                   ? std::string(" (awskms, azurekeyvault, gcpkms or "
                                 "hashivault)")
                   : " (" + scheme + ")") +
              " that pstate cannot reach offline. Use `pulumi stack export "
              "--show-secrets` with access to that key",
          type_offset, context);
    }
    case state::ProviderKind::kNone:
    case state::ProviderKind::kPassphrase:
    case state::ProviderKind::kB64:
    case state::ProviderKind::kOther: break;
  }
  return Fail(Errc::kUnsupported,
              "unknown secrets provider type \"" + model.type +
                  "\" (pstate knows passphrase and b64; service and cloud "
                  "need Pulumi)",
              type_offset, context);
}

Status CryptPass::OnSecrets(state::Leaf& leaf, state::Context& context) {
  bool decrypt = options_.mode == CryptMode::kDecrypt;
  std::string_view want = decrypt ? "ciphertext" : "plaintext";
  std::string_view other = decrypt ? "plaintext" : "ciphertext";
  Found all;
  Collect(leaf.value, want, other, &all);
  if (!decrypt && all.both != nullptr) {
    // Pulumi would keep the ciphertext and never encrypt the plaintext
    // beside it: the output would carry that plaintext (F15).
    return Fail(Errc::kRefused,
                "a secret has both \"ciphertext\" and \"plaintext\"; pstate "
                "cannot tell which is meant and will not leave a plaintext "
                "in an encrypted state",
                all.both->offset, context);
  }
  std::vector<const Value*>& found = all.fields;
  if (found.empty()) return Status::Ok();
  if (kind_ == state::ProviderKind::kNone) {
    return Fail(Errc::kFormat,
                std::string("found a secret to ") +
                    (decrypt ? "decrypt" : "encrypt") +
                    " but the state has no secrets provider "
                    "(deployment.secrets_providers)",
                found.front()->offset, context);
  }
  if (cache_bytes_ > kMaxCacheBytes) {
    cache_.clear();
    cache_bytes_ = 0;
  }
  // The distinct texts this resource needs that the cache lacks.
  std::vector<std::string> texts;
  std::vector<std::size_t> slot(found.size());
  std::unordered_map<std::string_view, std::size_t> index;
  std::vector<std::string> decoded(found.size());
  for (std::size_t i = 0; i < found.size(); ++i) decoded[i] = found[i]->Str();
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (decrypt && cache_.count(decoded[i])) {
      slot[i] = SIZE_MAX;
      continue;
    }
    if (!decrypt) {  // fresh nonce for every secret
      slot[i] = texts.size();
      texts.push_back(decoded[i]);
      continue;
    }
    auto [it, fresh] = index.emplace(decoded[i], texts.size());
    if (fresh) texts.push_back(decoded[i]);
    slot[i] = it->second;
  }
  std::vector<std::optional<Result<std::string>>> results(texts.size());
  auto work = [&](std::size_t j) { results[j].emplace(Transform(texts[j])); };
  if (texts.size() >= kParallelThreshold && options_.jobs != 1) {
    if (!pool_) {
      pool_ = std::make_unique<ThreadPool>(options_.jobs == 0 ? DefaultJobs()
                                                              : options_.jobs);
    }
    pool_->ParallelFor(texts.size(), work);
  } else {
    for (std::size_t j = 0; j < texts.size(); ++j) work(j);
  }
  stats_.distinct += texts.size();
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (slot[i] == SIZE_MAX) continue;
    const Result<std::string>& r = *results[slot[i]];
    if (!r.ok()) {
      return Fail(r.status().code(),
                  std::string("cannot ") + (decrypt ? "decrypt" : "encrypt") +
                      " the secret here: " + r.status().message(),
                  found[i]->offset, context);
    }
  }
  // Rewrite: the secret keeps its place and key order; the field is renamed.
  std::unordered_map<const Value*, std::string_view> replacement;
  for (std::size_t i = 0; i < found.size(); ++i) {
    std::string_view text;
    if (slot[i] == SIZE_MAX) {
      text = cache_.find(decoded[i])->second;
    } else if (decrypt) {
      auto [it, fresh] = cache_.emplace(decoded[i], results[slot[i]]->value());
      if (fresh) cache_bytes_ += it->first.size() + it->second.size() + 64;
      text = it->second;
    } else {
      text = results[slot[i]]->value();
    }
    replacement.emplace(found[i], text);
  }
  Renamer renamer{replacement, other, *leaf.arena, stats_.secrets};
  leaf.value = renamer.Rewrite(leaf.value);
  for (std::size_t j = 0; j < results.size(); ++j) {
    if (!decrypt || !results[j]->ok()) continue;
    std::string& s = results[j]->value();
    Wipe(s);
  }
  return Status::Ok();
}

Result<state::Flow> CryptPass::Probe(state::Leaf& leaf,
                                     state::Context& context) {
  if (leaf.role != state::Role::kSecretsProviders)
    return state::Flow::kContinue;
  Status s = OnProvider(leaf.value, context);
  if (!s.ok()) return s;
  skip_next_provider_ = true;
  return state::Flow::kStop;
}

Result<state::LeafAction> CryptPass::Process(state::Leaf& leaf,
                                             state::Context& context) {
  Status s;
  if (leaf.role == state::Role::kSecretsProviders) {
    if (skip_next_provider_) {
      skip_next_provider_ = false;  // Probe checked this one
    } else {
      s = OnProvider(leaf.value, context);
    }
  } else {
    // Resources and pending operations, and every other leaf: secrets
    // outside resources (snippets, extensions, unknown members, a second
    // envelope Pulumi may read) may not stay behind either (F14).
    s = OnSecrets(leaf, context);
  }
  if (!s.ok()) return s;
  return state::LeafAction::kWrite;
}

}  // namespace pstate::crypt
