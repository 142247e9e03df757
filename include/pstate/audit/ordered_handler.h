// Keeping a handler's findings and the asset audit's results in one state
// order (pstate verify --assets).
#ifndef PSTATE_AUDIT_ORDERED_HANDLER_H_
#define PSTATE_AUDIT_ORDERED_HANDLER_H_

#include <vector>

#include "pstate/audit/auditor.h"
#include "pstate/diag/report.h"
#include "pstate/state/reader.h"

namespace pstate::audit {

/// Wraps `inner` (the verifier) for state::Read. Whatever `inner` reports
/// while a leaf is current is located at once, held back, and queued on
/// `auditor` behind the asset results of earlier leaves; so `report`
/// receives every finding in the state's order, although hashing runs on
/// worker threads. The audit sink must add to the same `report`.
///
/// `inner` must call AuditLeaf (from its resource and pending-operation
/// hooks) after its own checks of the leaf. OnFinish delivers everything;
/// after a failed Read, call auditor.Finish() to deliver the rest.
class OrderedHandler : public state::Handler {
 public:
  OrderedHandler(state::Handler& inner, Auditor& auditor, diag::Report& report)
      : inner_(inner), auditor_(auditor), report_(report) {}

  /// Queues the findings held so far, then the leaf's asset items.
  void AuditLeaf(const state::Leaf& leaf, state::Context& context);

  void BeginObject() override { inner_.BeginObject(); }
  void Key(std::string_view raw_key) override { inner_.Key(raw_key); }
  void EndObject() override { inner_.EndObject(); }
  void BeginArray() override { inner_.BeginArray(); }
  void EndArray() override { inner_.EndArray(); }
  void OnLeaf(state::Leaf& leaf, state::Context& context) override;
  void OnFinish(const state::Envelope& envelope,
                state::Context& context) override;

 private:
  class HoldingContext;
  void Flush();

  state::Handler& inner_;
  Auditor& auditor_;
  diag::Report& report_;
  std::vector<diag::Finding> held_;
};

}  // namespace pstate::audit

#endif  // PSTATE_AUDIT_ORDERED_HANDLER_H_
