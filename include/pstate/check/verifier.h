// The handler behind `pstate verify`: runs every check on every leaf the
// state reader produces and the cross-resource rules at the end.
#ifndef PSTATE_CHECK_VERIFIER_H_
#define PSTATE_CHECK_VERIFIER_H_

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "pstate/check/resource_checker.h"
#include "pstate/state/reader.h"

namespace pstate::check {

class Verifier : public state::Handler {
 public:
  /// Optional extra work per resource leaf after the checks (the asset
  /// audit of `verify --assets` plugs in here).
  using ResourceHook =
      std::function<void(const state::Leaf& leaf, state::Context& context)>;

  Verifier() = default;
  void set_resource_hook(ResourceHook hook) { hook_ = std::move(hook); }
  /// The same for each pending-operation leaf, after its checks.
  void set_pending_operation_hook(ResourceHook hook) {
    pending_hook_ = std::move(hook);
  }

  void OnLeaf(state::Leaf& leaf, state::Context& context) override;
  void OnFinish(const state::Envelope& envelope,
                state::Context& context) override;

 private:
  void CheckPendingOperation(const json::Value& op, Reporter& reporter,
                             std::int64_t version);

  ResourceChecker resources_;
  std::set<std::string> snippet_uuids_;
  bool saw_manifest_ = false;
  bool saw_provider_ = false;
  std::string provider_type_;
  /// Checkpoint config values to judge once the provider is known.
  std::vector<diag::Finding> unshaped_config_;
  std::uint64_t deployment_leaves_ = 0;
  ResourceHook hook_;
  ResourceHook pending_hook_;
};

}  // namespace pstate::check

#endif  // PSTATE_CHECK_VERIFIER_H_
