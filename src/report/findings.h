// The ways findings leave pstate.
//
//   text    file:line:column: severity[code]: message, then the URN and the
//           JSON pointer, then a summary line per input. Control characters
//           from the input are escaped (TerminalSafe). (findings_text.cc)
//   json    one JSON object per input per line (JSON Lines). (findings_json.cc)
//   sarif   one SARIF 2.1.0 log for all inputs, as GitHub code scanning
//           accepts it. (sarif.cc)
//   github  GitHub Actions workflow commands (::error file=...::message),
//           one per finding, then the text summary. (github.cc)
#ifndef PSTATE_REPORT_FINDINGS_H_
#define PSTATE_REPORT_FINDINGS_H_

#include <cstdint>
#include <ostream>
#include <span>
#include <string>

#include "diag/report.h"

namespace pstate::report {

struct TextOptions {
  bool color = false;
  /// After the summary, a "  by code:" line (TallyLine) when anything was
  /// counted.
  bool tally = true;
};

void RenderText(const diag::Report& report, std::ostream& out,
                const TextOptions& options = {});
/// Only RenderText's summary (and tally) lines.
void RenderTextSummary(const diag::Report& report, std::ostream& out,
                       const TextOptions& options = {});
/// The line after several inputs' text: "total: N files, ... in N
/// resources" (with the suppressed count), then the tally line.
void RenderTextTotal(std::uint64_t files, const diag::Summary& total,
                     std::ostream& out);

/// {"file", "findings": [{"code", "severity", "message", "pointer", "line",
/// "column", "urn", "fingerprint"}], "summary": {"errors", "warnings",
/// "notes", "resources", "omitted", "suppressed", "by_code": {code: n}}}
/// on one line. Unknown line/column and URN are null.
void RenderJsonLine(const diag::Report& report, std::ostream& out);

/// GitHub accepts at most this many results per SARIF run.
inline constexpr std::size_t kSarifMaxResults = 25000;

struct SarifOptions {
  std::string_view tool_version = "0.0.0";
  /// The command that made the findings ("verify", "scan"): the run's
  /// automationDetails.id is "pstate/<command>/", which GitHub code
  /// scanning uses as the category, so verify's and scan's uploads for one
  /// commit do not replace each other.
  std::string_view command;
};

/// One SARIF 2.1.0 log as GitHub code scanning's validator (SARIF
/// Multitool, rule kinds Sarif, Gh and Ghas) accepts it: rules with full
/// descriptions and help from docs/diagnostics.md, columnKind
/// "unicodeCodePoints" with code-point columns, end positions, stable
/// partialFingerprints ("pstate/v1", see fingerprint.h), security-severity
/// and tags on the leak-* rules, absolute paths as file:// URIs.
void RenderSarif(std::span<const diag::Report* const> reports,
                 std::ostream& out, const SarifOptions& options);
void RenderSarif(std::span<const diag::Report* const> reports,
                 std::ostream& out, std::string_view tool_version);

/// One GitHub Actions workflow command per finding ("::error file=F,
/// line=L,col=C,title=CODE::message (at POINTER)"), escaped as the runner
/// parses them (% CR LF, and : , in properties), then RenderTextSummary.
void RenderGithub(const diag::Report& report, std::ostream& out);

/// "  by code: field-unknown 3, dependency-order 1" (most frequent first,
/// then by name), or "" when nothing was counted.
std::string TallyLine(const diag::Summary& summary);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_FINDINGS_H_
