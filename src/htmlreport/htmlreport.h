// `pstate report`: what a self-contained HTML report of a state shows
// (issue 26 §2), gathered as typed results from the modules that compute
// them: inspect's stats, rows and tree, verify's findings (diag::Report,
// secrets masked as verify masks them), the graph (graph::Build, every
// edge kind) and, given a second state, diff's DiffResult (secrets shown
// as [secret]: the report never opens them). report/html.h writes the page.
//
// Each view is its own streaming read of the file (the state is never
// held); standard input cannot be read twice, so the report takes files.
#ifndef PSTATE_HTMLREPORT_HTMLREPORT_H_
#define PSTATE_HTMLREPORT_HTMLREPORT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace pstate::htmlreport {

struct Config {
  std::string path;   ///< the state (a file)
  std::string after;  ///< optional: a second state to diff against
  /// As diff::DiffConfig::passphrase (secrets compared by value; never
  /// shown).
  std::function<Result<std::string>()> passphrase;
  /// Findings kept for the page (the counts are always whole).
  std::size_t max_findings = 2000;
  /// The largest resources stats lists.
  std::size_t top = 20;
};

/// The page's model: the API's HtmlReportModel (API types only).
using ReportData = ::pstate::HtmlReportModel;

Result<ReportData> Collect(const Config& config);

}  // namespace pstate::htmlreport

#endif  // PSTATE_HTMLREPORT_HTMLREPORT_H_
