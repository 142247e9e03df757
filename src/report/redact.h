// What `pstate redact` prints besides the state: one closing line saying
// what it replaced and what kinds of identifying data it did not touch.
#ifndef PSTATE_REPORT_REDACT_H_
#define PSTATE_REPORT_REDACT_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"  // pstate.h: RedactResult

namespace pstate::report {

struct RedactSummaryOptions {
  bool also = false;        ///< --also was given: show its count
  bool keep_leaks = false;  ///< --keep-leaks: leaks were counted, not replaced
  /// --anonymize: distinct values replaced, by kind name ("e-mail
  /// addresses"); empty without it.
  bool anonymize = false;
  std::vector<std::pair<std::string, std::uint64_t>> anonymized;
};

/// "pstate redact: replaced N secrets, ...; kept: ..." on one line, then
/// the warning on leaks inside names, URNs or IDs (left in place), then the
/// inexact-strings note. Counts only, never values.
void RenderRedactSummary(const ::pstate::RedactResult& result,
                         const RedactSummaryOptions& options,
                         std::ostream& out);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_REDACT_H_
