#include "pstate/diag/report.h"

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

}  // namespace pstate::diag
