#include "pstate/audit/ordered_handler.h"

#include <memory>
#include <utility>

namespace pstate::audit {

/// Forwards to the reader's context, but holds findings back (located).
class OrderedHandler::HoldingContext : public state::Context {
 public:
  HoldingContext(state::Context& real, std::vector<diag::Finding>& held)
      : real_(real), held_(held) {}

  void Report(diag::Finding finding, std::uint64_t offset) override {
    io::LineColumn lc = real_.Locate(offset);
    finding.line = lc.line;
    finding.column = lc.column;
    held_.push_back(std::move(finding));
  }
  void ReportUnlocated(diag::Finding finding) override {
    held_.push_back(std::move(finding));
  }
  io::LineColumn Locate(std::uint64_t offset) override {
    return real_.Locate(offset);
  }
  const state::Envelope& envelope() const override { return real_.envelope(); }
  json::Parser& parser() override { return real_.parser(); }

 private:
  state::Context& real_;
  std::vector<diag::Finding>& held_;
};

void OrderedHandler::Flush() {
  if (held_.empty()) return;
  auto findings = std::make_shared<std::vector<diag::Finding>>(std::move(held_));
  held_.clear();
  auditor_.Enqueue([findings, this] {
    for (diag::Finding& f : *findings) report_.Add(std::move(f));
  });
}

void OrderedHandler::AuditLeaf(const state::Leaf& leaf,
                               state::Context& context) {
  Flush();
  auditor_.OnLeaf(leaf, context);
}

void OrderedHandler::OnLeaf(state::Leaf& leaf, state::Context& context) {
  HoldingContext holding(context, held_);
  inner_.OnLeaf(leaf, holding);
  Flush();
}

void OrderedHandler::OnFinish(const state::Envelope& envelope,
                              state::Context& context) {
  HoldingContext holding(context, held_);
  inner_.OnFinish(envelope, holding);
  Flush();
  auditor_.Finish();
}

}  // namespace pstate::audit
