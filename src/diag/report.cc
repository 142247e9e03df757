#include "diag/report.h"

#include <algorithm>

namespace pstate::diag {
namespace {

/// File order: located findings by line and column, then unlocated ones
/// (cross-resource results) in arrival order.
bool Before(const Finding& a, const Finding& b) {
  if ((a.line == 0) != (b.line == 0)) return b.line == 0;
  if (a.line != b.line) return a.line < b.line;
  if (a.column != b.column) return a.column < b.column;
  return a.sequence < b.sequence;
}

}  // namespace

void Report::Add(Finding finding) {
  finding.fingerprint = Fingerprint(finding, identity_, file_);
  if (filter_ != nullptr && !IsFatal(finding.code) &&
      !filter_->Admits(finding)) {
    ++summary_.suppressed;
    return;
  }
  if (summary_.by_code.empty()) summary_.by_code.resize(AllCodes().size());
  ++summary_.by_code[static_cast<std::size_t>(finding.code)];
  switch (finding.severity) {
    case Severity::kError: ++summary_.errors; break;
    case Severity::kWarning: ++summary_.warnings; break;
    case Severity::kNote: ++summary_.notes; break;
  }
  if (IsFatal(finding.code)) fatal_ = true;
  finding.sequence = next_sequence_++;
  if (max_kept_ == 0) {
    findings_.push_back(std::move(finding));
    return;
  }
  // Keep the first max_kept_ in file order, whatever order they arrive in:
  // a max-heap on file order whose top is the last finding kept. A new
  // finding that sorts before the top replaces it. Ties keep the earlier
  // arrival (a fatal finding is never displaced by a later equal place).
  if (sorted_) {  // a finding after SortByLocation: back to a heap
    std::make_heap(findings_.begin(), findings_.end(), Before);
    sorted_ = false;
  }
  if (findings_.size() < max_kept_) {
    findings_.push_back(std::move(finding));
    std::push_heap(findings_.begin(), findings_.end(), Before);
    return;
  }
  ++omitted_;
  if (!Before(finding, findings_.front())) return;
  std::pop_heap(findings_.begin(), findings_.end(), Before);
  findings_.back() = std::move(finding);
  std::push_heap(findings_.begin(), findings_.end(), Before);
}

std::unique_ptr<Report> Report::Refilter(
    std::shared_ptr<const FindingFilter> filter, std::size_t max_kept) const {
  auto out = std::make_unique<Report>(file_, max_kept);
  out->set_filter(std::move(filter));
  out->set_resources(summary_.resources);
  out->summary_.suppressed = summary_.suppressed;
  for (const Finding& f : findings_) out->Add(f);
  out->omitted_ += omitted_;
  return out;
}

void Report::RewriteKept(const std::function<bool(Finding&)>& rewrite) {
  for (Finding& f : findings_) {
    if (rewrite(f)) f.fingerprint = Fingerprint(f, identity_, file_);
  }
}

void Report::SortByLocation() {
  // Before() is a total order (arrival breaks ties), so this is stable.
  if (max_kept_ == 0) {
    std::sort(findings_.begin(), findings_.end(), Before);
  } else if (!sorted_) {
    std::sort_heap(findings_.begin(), findings_.end(), Before);
  }
  sorted_ = true;
}

}  // namespace pstate::diag
