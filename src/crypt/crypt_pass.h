// The `pstate decrypt` / `pstate encrypt` pass: turns every secret's
// "ciphertext" into the `--show-secrets` "plaintext" form (the value's JSON
// text), or back, with the state's own secrets provider
// (pulumi-state-format.md §5).
//
// Providers: `passphrase` (PBKDF2 + AES-256-GCM; the passphrase is checked
// against the salt's encrypted "pulumi" when the provider is read, as
// Pulumi's pkg/secrets/passphrase does, before any resource) and Pulumi's
// test provider `b64`. `service` and
// `cloud` states fail with a message saying why they cannot be handled
// offline. Secrets inside a decrypted JSON text are left as they are
// (Pulumi writes them in plain form there). Checkpoint `config` secure
// values are left encrypted: Pulumi has no plaintext form for them.
//
// Decrypt: each distinct ciphertext is decrypted once (a cache shared by the
// whole file) and the ciphertexts of a resource are decrypted on all cores.
// Encrypt: every secret gets its own fresh nonce, also on all cores.
//
// Messages never contain a plaintext, a ciphertext or the passphrase.
#ifndef PSTATE_CRYPT_CRYPT_PASS_H_
#define PSTATE_CRYPT_CRYPT_PASS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/result.h"
#include "base/thread_pool.h"
#include "crypto/provider_crypter.h"
#include "io/input.h"
#include "state/provider.h"
#include "state/reader.h"
#include "state/state_writer.h"

namespace pstate::crypt {

enum class CryptMode { kDecrypt, kEncrypt };

struct CryptOptions {
  CryptMode mode = CryptMode::kDecrypt;
  /// Supplies the passphrase (the CLI: --passphrase-file, else
  /// PULUMI_CONFIG_PASSPHRASE(_FILE), see crypto::ResolvePassphrase). Only
  /// called for passphrase states, at most once per provider; the core
  /// reads no environment. Unset: a passphrase state fails.
  std::function<Result<std::string>()> passphrase;
  /// --jobs: threads for the crypto, the caller's included; 0 means
  /// DefaultJobs().
  int jobs = 0;
  /// The input's name, for located messages.
  std::string input_name = std::string(io::kStdinName);
};

struct CryptStats {
  std::uint64_t secrets = 0;   ///< secrets rewritten
  std::uint64_t distinct = 0;  ///< crypto operations done
  std::string provider;        ///< the provider type ("" when none)
  /// Strings written as U+FFFD where they held a lone surrogate escape
  /// (json::Writer::OnLossyString).
  std::uint64_t inexact_strings = 0;
};

/// The pass over one input. Handlers can stop or fail, so no output is
/// held back: a wrong passphrase is the Status the pass returns at the
/// provider (or at the first secret), and the read ends there.
class CryptPass {
 public:
  explicit CryptPass(CryptOptions options);
  ~CryptPass();
  CryptPass(const CryptPass&) = delete;
  CryptPass& operator=(const CryptPass&) = delete;

  /// A first look at the input, before any output exists: configures the
  /// provider from the first secrets_providers leaf and stops there (kStop)
  /// or fails (a wrong passphrase, a provider that needs a cloud service).
  /// Reads on while the provider has not come (Pulumi writes it before the
  /// resources, but reads the whole deployment before decrypting). The
  /// provider is then not checked again by Process.
  Result<state::Flow> Probe(state::Leaf& leaf, state::Context& context);

  /// A state::StateWriter pass: rewrites the leaf's secrets. Fails with a
  /// Status located as "FILE:LINE:COLUMN: reason".
  Result<state::LeafAction> Process(state::Leaf& leaf, state::Context& context);

  const CryptStats& stats() const { return stats_; }

 private:
  Status OnProvider(const json::Value& provider, state::Context& context);
  Status OnSecrets(state::Leaf& leaf, state::Context& context);
  Status Fail(Errc code, const std::string& message, std::uint64_t offset,
              state::Context& context) const;
  /// Decrypts/encrypts one text with the current provider.
  Result<std::string> Transform(std::string_view text) const;

  CryptOptions options_;
  CryptStats stats_;
  /// Probe configured the first provider: Process skips that leaf.
  bool skip_next_provider_ = false;
  state::ProviderKind kind_ = state::ProviderKind::kNone;
  std::optional<crypto::SecretsCrypter> crypter_;
  std::unique_ptr<ThreadPool> pool_;
  /// Decrypt: ciphertext -> plaintext for the whole file.
  std::unordered_map<std::string, std::string> cache_;
  std::size_t cache_bytes_ = 0;
};

}  // namespace pstate::crypt

#endif  // PSTATE_CRYPT_CRYPT_PASS_H_
