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
  finding.fingerprint = Fingerprint(finding, identity_, result_.file);
  if (filter_ != nullptr && !IsFatal(finding.code) &&
      !filter_->Admits(finding)) {
    ++result_.suppressed;
    return;
  }
  if (result_.by_code.empty()) result_.by_code.resize(AllCodes().size());
  ++result_.by_code[static_cast<std::size_t>(finding.code)];
  switch (finding.severity) {
    case Severity::kError: ++result_.errors; break;
    case Severity::kWarning: ++result_.warnings; break;
    case Severity::kNote: ++result_.notes; break;
  }
  if (IsFatal(finding.code)) result_.unreadable = true;
  finding.sequence = next_sequence_++;
  if (max_kept_ == 0) {
    result_.findings.push_back(std::move(finding));
    return;
  }
  // Keep the first max_kept_ in file order, whatever order they arrive in:
  // a max-heap on file order whose top is the last finding kept. A new
  // finding that sorts before the top replaces it. Ties keep the earlier
  // arrival (a fatal finding is never displaced by a later equal place).
  if (sorted_) {  // a finding after SortByLocation: back to a heap
    std::make_heap(result_.findings.begin(), result_.findings.end(), Before);
    sorted_ = false;
  }
  if (result_.findings.size() < max_kept_) {
    result_.findings.push_back(std::move(finding));
    std::push_heap(result_.findings.begin(), result_.findings.end(), Before);
    return;
  }
  ++result_.omitted;
  if (!Before(finding, result_.findings.front())) return;
  std::pop_heap(result_.findings.begin(), result_.findings.end(), Before);
  result_.findings.back() = std::move(finding);
  std::push_heap(result_.findings.begin(), result_.findings.end(), Before);
}

Findings Report::Refilter(const Findings& findings,
                          std::shared_ptr<const FindingFilter> filter,
                          std::size_t max_kept) {
  Report out(findings.file, max_kept);
  out.set_filter(std::move(filter));
  out.set_resources(findings.resources);
  out.result_.suppressed = findings.suppressed;
  for (const Finding& f : findings.findings) out.Add(f);
  out.result_.omitted += findings.omitted;
  out.result_.unreadable |= findings.unreadable;
  return std::move(out).Take();
}

void Report::RewriteKept(const std::function<bool(Finding&)>& rewrite) {
  for (Finding& f : result_.findings) {
    if (rewrite(f)) f.fingerprint = Fingerprint(f, identity_, result_.file);
  }
}

void Report::SortByLocation() {
  // Before() is a total order (arrival breaks ties), so this is stable.
  std::vector<Finding>& findings = result_.findings;
  if (max_kept_ == 0) {
    std::sort(findings.begin(), findings.end(), Before);
  } else if (!sorted_) {
    std::sort_heap(findings.begin(), findings.end(), Before);
  }
  sorted_ = true;
}

Findings Report::Take() && {
  SortByLocation();
  return std::move(result_);
}

}  // namespace pstate::diag

// The API's (pstate/pstate.h).
namespace pstate {

Findings FilterFindings(const Findings& findings, const FindingFilter& filter,
                        std::size_t max_findings) {
  return diag::Report::Refilter(
      findings, std::make_shared<const FindingFilter>(filter), max_findings);
}

}  // namespace pstate
