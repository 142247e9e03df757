// The pass behind `pstate verify`: runs every check on every leaf the
// state reader produces and the cross-resource rules at the end.
//
// As an engine::Pass it splits the work on resources: a worker
// (NewWorker) runs the per-resource checks (fields, URN, provider
// reference, property values: ResourceChecker) with its IntegrityTracker
// in journal mode, and Fold replays each resource's journal, in file
// order, into the pass's tracker (the cross-resource rules: references,
// duplicates, providers, one stack). Read sequentially, OnLeaf does both
// at once with the pass's own checker, as one direct step.
#ifndef PSTATE_VERIFY_VERIFIER_H_
#define PSTATE_VERIFY_VERIFIER_H_

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/pass.h"
#include "state/provider.h"
#include "state/reader.h"
#include "verify/resource_checker.h"

namespace pstate::verify {

/// What the per-resource checks of one resource leave for the fold.
struct ResourceJournal {
  IntegrityJournal steps;
  std::uint64_t ciphertexts = 0;

  /// Empty again, keeping the journal's allocations (engine::Pass::Fold).
  void Recycle() {
    steps.Clear();
    ciphertexts = 0;
  }
};

class Verifier : public engine::Pass<ResourceJournal> {
 public:
  Verifier() = default;

  /// Called with each top-level secret plaintext the checks decode (see
  /// PropertyEnvironment::on_plaintext), on the reader's thread in file
  /// order; verify masks them at the end.
  void set_on_plaintext(std::function<void(std::string_view)> f) {
    on_plaintext_ = f;
    resources_.set_on_plaintext(std::move(f));
  }

  /// A hint: the state has about `n` resources (edit's pass 2 knows), so
  /// the integrity rules' URN table is made once at its size.
  void ExpectResources(std::size_t n) { resources_.tracker().Reserve(n); }

  std::unique_ptr<engine::Worker<ResourceJournal>> NewWorker() override;
  state::Flow Fold(ResourceJournal&& journal, state::Context& context) override;

  /// Unknown, duplicate and odd-case members of the envelope.
  void OnEnvelopeMember(const state::EnvelopeMember& member,
                        state::Context& context) override;
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override;
  Status OnFinish(const state::Envelope& envelope,
                  state::Context& context) override;

 private:
  class ResourceWorker;

  void CheckFeatures(const json::Value& features, Reporter& reporter);
  void FinishFeatures(const state::Envelope& envelope, state::Context& context);
  void CheckPendingOperation(const json::Value& op, Reporter& reporter,
                             std::int64_t version);

  ResourceChecker resources_;
  std::function<void(std::string_view)> on_plaintext_;
  /// Ciphertexts the workers counted (the rest are in resources_).
  std::uint64_t folded_ciphertexts_ = 0;
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
