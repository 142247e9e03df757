// The `pstate decrypt` / `pstate encrypt` pass: turns every secret's
// "ciphertext" into the `--show-secrets` "plaintext" form (the value's JSON
// text), or back, with the state's own secrets provider
// (pulumi-state-format.md §5).
//
// Providers: `passphrase` (PBKDF2 + AES-256-GCM; the passphrase is checked
// against the salt's encrypted "pulumi" when the provider is read, before
// any output is released) and Pulumi's test provider `b64`. `service` and
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
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "pstate/base/result.h"
#include "pstate/crypto/b64_crypter.h"
#include "pstate/crypto/passphrase.h"
#include "pstate/state/rewrite.h"
#include "pstate/base/worker_pool.h"
#include "pstate/state/reader.h"

namespace pstate::crypt {

enum class CryptMode { kDecrypt, kEncrypt };

struct CryptOptions {
  CryptMode mode = CryptMode::kDecrypt;
  /// --passphrase-file; else PULUMI_CONFIG_PASSPHRASE(_FILE) (see
  /// crypto::ResolvePassphrase). Only asked for passphrase states.
  std::optional<std::filesystem::path> passphrase_file;
  /// Threads for the crypto, the caller's included; 0 = all cores.
  unsigned threads = 0;
  /// The input's name, for located messages.
  std::string input_name = "<stdin>";
};

struct CryptStats {
  std::uint64_t secrets = 0;   ///< secrets rewritten
  std::uint64_t distinct = 0;  ///< crypto operations done
  std::string provider;        ///< the provider type ("" when none)
};

class CryptPass {
 public:
  /// `gate` (may be null) is released once the provider was checked.
  CryptPass(CryptOptions options, state::OutputGate* gate);
  ~CryptPass();
  CryptPass(const CryptPass&) = delete;
  CryptPass& operator=(const CryptPass&) = delete;

  void Process(state::Leaf& leaf, state::Context& context);

  /// The first failure (wrong passphrase, undecryptable secret, ...).
  Status status() const { return status_; }
  const CryptStats& stats() const { return stats_; }

 private:
  void OnProvider(const json::Value& provider, state::Context& context);
  void OnSecrets(state::Leaf& leaf, state::Context& context);
  void Fail(Errc code, std::string message, std::uint64_t offset,
            state::Context& context);
  void Release();
  /// Decrypts/encrypts one text with the current provider.
  Result<std::string> Transform(std::string_view text) const;

  CryptOptions options_;
  state::OutputGate* gate_;
  Status status_;
  CryptStats stats_;
  bool provider_seen_ = false;
  enum class Kind { kNone, kPassphrase, kB64 } kind_ = Kind::kNone;
  std::optional<crypto::PassphraseCrypter> passphrase_;
  crypto::B64Crypter b64_;
  std::unique_ptr<WorkerPool> pool_;
  /// Decrypt: ciphertext -> plaintext for the whole file.
  std::unordered_map<std::string, std::string> cache_;
  std::size_t cache_bytes_ = 0;
};

}  // namespace pstate::crypt

#endif  // PSTATE_CRYPT_CRYPT_PASS_H_
