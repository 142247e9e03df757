// State handlers behind `pstate scan`: collect a state's known secrets, and
// report its leaks as findings.
//
// A regular file is read twice: SecretCollectHandler gathers every secret's
// plaintext first (a leak may come before its secret in the file), then
// LeakScanHandler reports. Input that can only be read once (standard input, a
// pipe) is scanned in one pass by a LeakScanHandler with `collect` set: each
// resource's secrets are added before the resource is scanned, so a
// known-secret leak is found only when its secret appears in the same or an
// earlier resource.
#ifndef PSTATE_SCAN_LEAK_SCAN_HANDLER_H_
#define PSTATE_SCAN_LEAK_SCAN_HANDLER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "engine/pass.h"
#include "scan/known_secrets.h"
#include "scan/leak_scanner.h"
#include "state/reader.h"

namespace pstate::scan {

/// Decryption of `ciphertext` secrets, only when the user asked for it.
struct DecryptOptions {
  bool enabled = false;
  /// The passphrase for the `passphrase` provider; nullopt when none was
  /// supplied (a passphrase-encrypted state is then an error).
  std::optional<std::string> passphrase;
};

/// Builds a Decryptor from the state's `secrets_providers` leaf.
class ProviderDecryption {
 public:
  explicit ProviderDecryption(const DecryptOptions& options)
      : options_(options) {}
  ~ProviderDecryption();

  /// Call with the secrets_providers leaf value. Sets error() when the
  /// provider cannot be unlocked (wrong or missing passphrase, a provider
  /// that needs a cloud service).
  void Configure(const json::Value& providers);
  /// Null until a usable provider was configured.
  const Decryptor* decryptor() const { return ready_ ? &decryptor_ : nullptr; }
  /// Why decryption is impossible; ok() when it is possible or not asked.
  const Status& error() const { return error_; }

 private:
  DecryptOptions options_;
  Decryptor decryptor_;
  bool ready_ = false;
  Status error_;
};

/// Pass 1: adds the plaintext of every secret in resources and pending
/// operations to `known`.
class SecretCollectHandler : public state::Handler {
 public:
  SecretCollectHandler(KnownSecrets* known, const DecryptOptions& decrypt);
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override;
  /// The decryptor configured from the state (null when none); lives as
  /// long as this handler. Pass it to the LeakScanHandler of pass 2.
  const Decryptor* decryptor() const { return decryption_.decryptor(); }
  /// Decryption problem (see ProviderDecryption::error).
  const Status& error() const { return decryption_.error(); }
  std::uint64_t undecryptable() const { return collector_.undecryptable(); }

 private:
  ProviderDecryption decryption_;
  SecretCollector collector_;
};

/// Reports the LeakScanner's leaks of every resource and pending operation
/// as findings. With `collect`, also adds each resource's secrets to
/// `known` before scanning it (one-pass mode), configuring decryption from
/// the state's secrets provider; otherwise `decryptor` (from pass 1, may be
/// null) is used to compare values for leak-secret-mismatch.
class LeakScanHandler : public state::Handler {
 public:
  LeakScanHandler(const crypto::Fingerprinter* fingerprinter,
                  KnownSecrets* known, bool collect,
                  const DecryptOptions& decrypt,
                  const Decryptor* decryptor = nullptr);
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override;
  const Status& error() const { return decryption_.error(); }
  std::uint64_t leaks() const { return leaks_; }

 private:
  ProviderDecryption decryption_;
  SecretCollector collector_;
  KnownSecrets* known_;
  bool collect_;
  LeakScanner scanner_;
  std::vector<Leak> found_;
  std::string pointer_;
  std::uint64_t leaks_ = 0;
};

/// The findings pass of a two-pass scan as an engine pass (engine/pass.h):
/// each resource's leaks are found by a worker's own LeakScanner over the
/// shared known secrets (frozen: KnownSecrets::Freeze), fingerprinter and
/// decryptor, which are read-only and thread-safe, and reported through
/// the worker's context; the fold counts them. Pending operations are
/// scanned on the reader's thread. The same findings in the same order as
/// LeakScanHandler without `collect`.
class LeakScanPass : public engine::Pass<std::uint64_t> {
 public:
  explicit LeakScanPass(const LeakOptions& options);
  ~LeakScanPass() override;

  std::unique_ptr<engine::Worker<std::uint64_t>> NewWorker() override;
  state::Flow Fold(std::uint64_t&& leaks, state::Context& context) override;
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override;
  std::uint64_t leaks() const { return leaks_; }

 private:
  class ScanWorker;
  LeakOptions options_;
  std::unique_ptr<ScanWorker> inline_;  ///< the reader's thread's scanner
  std::uint64_t leaks_ = 0;
};

}  // namespace pstate::scan

#endif  // PSTATE_SCAN_LEAK_SCAN_HANDLER_H_
