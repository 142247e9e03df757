#include "pstate/diag/report.h"

#include <algorithm>

namespace pstate::diag {

void Report::Add(Finding finding) {
  switch (finding.severity) {
    case Severity::kError: ++summary_.errors; break;
    case Severity::kWarning: ++summary_.warnings; break;
    case Severity::kNote: ++summary_.notes; break;
  }
  if (IsFatal(finding.code)) fatal_ = true;
  if (max_kept_ != 0 && findings_.size() >= max_kept_) {
    ++omitted_;
    return;
  }
  findings_.push_back(std::move(finding));
}

void Report::SortByLocation() {
  std::stable_sort(findings_.begin(), findings_.end(),
                   [](const Finding& a, const Finding& b) {
                     if ((a.line == 0) != (b.line == 0)) return b.line == 0;
                     if (a.line != b.line) return a.line < b.line;
                     return a.column < b.column;
                   });
}

}  // namespace pstate::diag
