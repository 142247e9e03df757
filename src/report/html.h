// The HTML report (`pstate report`): one self-contained page. The data is
// one JSON document inside <script type="application/json">, written by
// json::Writer with HTML-safe escaping (<, >, & and U+2028/U+2029 as
// \u escapes, so no text from the state can close the script or become
// markup); the page's CSS and JS (src/report/html/) and the libraries it
// lays out with (dagre, d3-hierarchy from npm, with their licences) are
// embedded at build time. A Content-Security-Policy forbids every network
// request. The data's schema is in docs/report.md.
#ifndef PSTATE_REPORT_HTML_H_
#define PSTATE_REPORT_HTML_H_

#include <string>

#include "base/result.h"
#include "htmlreport/htmlreport.h"
#include "io/output.h"
#include "json/writer.h"

namespace pstate::report {

/// Writes the page to `out` (the caller commits it).
void WriteHtmlReport(const htmlreport::ReportData& data, io::Output& out);

/// Writes the page to the file `path`: a temporary file renamed into place
/// once whole. Fails (naming the file) when it cannot be written.
Status WriteHtmlReportFile(const HtmlReportModel& model,
                           const std::string& path);

/// The page's data document alone (tests read it).
void WriteHtmlReportData(const htmlreport::ReportData& data, json::Writer& w);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_HTML_H_
