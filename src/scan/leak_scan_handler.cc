#include "scan/leak_scan_handler.h"
#include "state/provider.h"
#include "state/resource.h"

#include <memory>
#include <utility>

#include "crypto/provider_crypter.h"
#include "diag/finding.h"

namespace pstate::scan {

ProviderDecryption::~ProviderDecryption() = default;

void ProviderDecryption::Configure(const json::Value& providers) {
  if (!options_.enabled || !providers.is_object()) return;
  const state::SecretsProvider provider =
      state::ParseSecretsProvider(providers);
  crypto::Unlocked unlocked =
      crypto::Unlock(provider, [this]() -> Result<std::string> {
        if (!options_.passphrase) return Status(Errc::kInvalidArgument, "");
        return *options_.passphrase;
      });
  switch (unlocked.failure) {
    case crypto::UnlockFailure::kNone: break;
    case crypto::UnlockFailure::kNoSalt:
      error_ =
          Status(Errc::kFormat,
                 "cannot decrypt: the passphrase provider's state has no salt");
      return;
    case crypto::UnlockFailure::kNoPassphrase:
      error_ =
          Status(Errc::kInvalidArgument,
                 "cannot decrypt: the state uses the passphrase provider; give "
                 "--passphrase-file or set PULUMI_CONFIG_PASSPHRASE or "
                 "PULUMI_CONFIG_PASSPHRASE_FILE");
      return;
    case crypto::UnlockFailure::kBadSalt:
      error_ = Status(unlocked.status.code(),
                      "cannot decrypt: " + unlocked.status.message());
      return;
    case crypto::UnlockFailure::kOffline:
    case crypto::UnlockFailure::kUnknown:
      error_ =
          Status(Errc::kUnsupported,
                 "cannot decrypt offline: secrets provider \"" + provider.type +
                     "\" needs its service or key management system");
      return;
  }
  if (!unlocked.crypter) return;  // no provider
  auto crypter = std::make_shared<const crypto::SecretsCrypter>(
      std::move(*unlocked.crypter));
  decryptor_ = [crypter](std::string_view ct) -> std::optional<std::string> {
    auto r = crypter->Decrypt(ct);
    if (!r.ok()) return std::nullopt;
    return std::move(*r);
  };
  ready_ = true;
}

namespace {

using state::ResourceOf;

/// Reports the leaks of the resource or pending operation `leaf` holds, or
/// of a checkpoint's config (none for other leaves); returns how many.
std::uint64_t ReportLeaks(LeakScanner& scanner, const state::Leaf& leaf,
                          state::Context& context, std::string* pointer,
                          std::vector<Leak>* found) {
  found->clear();
  if (leaf.role == state::Role::kConfig) {
    scanner.ScanConfig(leaf.value, leaf.pointer, found);
  }
  const json::Value* resource = ResourceOf(leaf);
  if (resource == nullptr && found->empty()) return 0;
  if (resource != nullptr) {
    pointer->assign(leaf.pointer);
    if (resource != &leaf.value) *pointer += "/resource";
    scanner.ScanResource(*resource, *pointer, found);
  }
  for (Leak& leak : *found) {
    context.Report(
        diag::MakeFinding(leak.code, std::move(leak.message),
                          std::move(leak.pointer), std::move(leak.urn)),
        leak.offset);
  }
  return found->size();
}

}  // namespace

SecretCollectHandler::SecretCollectHandler(KnownSecrets* known,
                                           const DecryptOptions& decrypt)
    : decryption_(decrypt), collector_(known, nullptr) {}

Result<state::Flow> SecretCollectHandler::OnLeaf(state::Leaf& leaf,
                                                 state::Context& context) {
  (void)context;
  if (leaf.role == state::Role::kSecretsProviders) {
    decryption_.Configure(leaf.value);
    collector_.set_decryptor(decryption_.decryptor());
    // A wrong passphrase ends the scan at once.
    if (!decryption_.error().ok()) return decryption_.error();
    return state::Flow::kContinue;
  }
  const json::Value* resource = ResourceOf(leaf);
  if (resource != nullptr) collector_.Collect(*resource);
  return state::Flow::kContinue;
}

LeakScanHandler::LeakScanHandler(const crypto::Fingerprinter* fingerprinter,
                                 KnownSecrets* known, bool collect,
                                 const DecryptOptions& decrypt,
                                 const Decryptor* decryptor)
    : decryption_(collect ? decrypt : DecryptOptions{}),
      collector_(known, nullptr),
      known_(known),
      collect_(collect),
      scanner_([&] {
        LeakOptions options;
        options.fingerprinter = fingerprinter;
        options.known_secrets = known;
        options.decryptor = decryptor;
        return options;
      }()) {}

Result<state::Flow> LeakScanHandler::OnLeaf(state::Leaf& leaf,
                                            state::Context& context) {
  if (leaf.role == state::Role::kSecretsProviders) {
    if (collect_) {
      decryption_.Configure(leaf.value);
      collector_.set_decryptor(decryption_.decryptor());
      scanner_.set_decryptor(decryption_.decryptor());
      if (!decryption_.error().ok()) return decryption_.error();
    }
    return state::Flow::kContinue;
  }
  const json::Value* resource = ResourceOf(leaf);
  if (resource != nullptr && collect_ && known_ != nullptr) {
    collector_.Collect(*resource);
  }
  leaks_ += ReportLeaks(scanner_, leaf, context, &pointer_, &found_);
  return state::Flow::kContinue;
}

class LeakScanPass::ScanWorker final : public engine::Worker<std::uint64_t> {
 public:
  explicit ScanWorker(const LeakOptions& options) : scanner_(options) {}
  void PerResource(state::Leaf& leaf, state::Context& context,
                   std::uint64_t& leaks) override {
    leaks = ReportLeaks(scanner_, leaf, context, &pointer_, &found_);
  }

 private:
  LeakScanner scanner_;
  std::string pointer_;
  std::vector<Leak> found_;
};

LeakScanPass::LeakScanPass(const LeakOptions& options)
    : options_(options), inline_(std::make_unique<ScanWorker>(options)) {
  if (options_.known_secrets != nullptr) options_.known_secrets->Freeze();
}

LeakScanPass::~LeakScanPass() = default;

std::unique_ptr<engine::Worker<std::uint64_t>> LeakScanPass::NewWorker() {
  return std::make_unique<ScanWorker>(options_);
}

state::Flow LeakScanPass::Fold(std::uint64_t&& leaks, state::Context& context) {
  (void)context;
  leaks_ += leaks;
  return state::Flow::kContinue;
}

Result<state::Flow> LeakScanPass::OnLeaf(state::Leaf& leaf,
                                         state::Context& context) {
  // Resources (when read sequentially) and pending operations.
  return engine::RunInline(*this, *inline_, leaf, context);
}

}  // namespace pstate::scan
