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
  if (resource == nullptr) return state::Flow::kContinue;
  if (collect_ && known_ != nullptr) collector_.Collect(*resource);
  pointer_.assign(leaf.pointer);
  if (resource != &leaf.value) pointer_ += "/resource";
  found_.clear();
  scanner_.ScanResource(*resource, pointer_, &found_);
  for (Leak& leak : found_) {
    ++leaks_;
    context.Report(
        diag::MakeFinding(leak.code, std::move(leak.message),
                          std::move(leak.pointer), std::move(leak.urn)),
        leak.offset);
  }
  return state::Flow::kContinue;
}

}  // namespace pstate::scan
