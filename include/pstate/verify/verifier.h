// The handler behind `pstate verify`: runs every check on every leaf the
// state reader produces and the cross-resource rules at the end.
#ifndef PSTATE_VERIFY_VERIFIER_H_
#define PSTATE_VERIFY_VERIFIER_H_

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pstate/state/provider.h"
#include "pstate/state/reader.h"
#include "pstate/verify/resource_checker.h"

namespace pstate::verify {

class Verifier : public state::Handler {
 public:
  Verifier() = default;

  /// Called with each top-level secret plaintext the checks decode (see
  /// PropertyEnvironment::on_plaintext); verify masks them at the end.
  void set_on_plaintext(std::function<void(std::string_view)> f) {
    resources_.set_on_plaintext(std::move(f));
  }

  /// Unknown, duplicate and odd-case members of the envelope.
  void OnEnvelopeMember(const state::EnvelopeMember& member,
                        state::Context& context) override;
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override;
  Status OnFinish(const state::Envelope& envelope,
                  state::Context& context) override;

 private:
  void CheckDuplicateKeys(const state::Leaf& leaf, state::Context& context);
  void CheckFeatures(const json::Value& features, Reporter& reporter);
  void FinishFeatures(const state::Envelope& envelope, state::Context& context);
  void CheckPendingOperation(const json::Value& op, Reporter& reporter,
                             std::int64_t version);

  ResourceChecker resources_;
  std::set<std::string> snippet_uuids_;
  bool saw_manifest_ = false;
  bool saw_provider_ = false;
  state::SecretsProvider provider_;
  /// Checkpoint config values to judge once the provider is known.
  std::vector<diag::Finding> unshaped_config_;
  /// Where "features" was, to place the findings about it that can only
  /// be decided once the version is known.
  std::optional<io::LineColumn> features_at_;
};

}  // namespace pstate::verify

#endif  // PSTATE_VERIFY_VERIFIER_H_
