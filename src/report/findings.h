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
//   junit   one JUnit XML document for all inputs: a testsuite per input,
//           a testcase per rule and per finding. (junit.cc)
//   gitlab  one GitLab Code Quality report (a JSON array of issues) for
//           all inputs. (gitlab.cc)
#ifndef PSTATE_REPORT_FINDINGS_H_
#define PSTATE_REPORT_FINDINGS_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>

#include "diag/codes.h"
#include "json/writer.h"
#include "pstate/pstate.h"

namespace pstate::report {

struct TextOptions {
  bool color = false;
  /// After the summary, a "  by code:" line (TallyLine) when anything was
  /// counted.
  bool tally = true;
};

void RenderText(const Findings& report, std::ostream& out,
                const TextOptions& options = {});
/// Only RenderText's summary (and tally) lines.
void RenderTextSummary(const Findings& report, std::ostream& out,
                       const TextOptions& options = {});
/// The line after several inputs' text: "total: N files, ... in N
/// resources" (with the suppressed count), then the tally line.
void RenderTextTotal(std::uint64_t files, const FindingCounts& total,
                     std::ostream& out);

/// {"file", "findings": [{"code", "severity", "message", "pointer", "line",
/// "column", "urn", "fingerprint"}], "summary": {"errors", "warnings",
/// "notes", "resources", "omitted", "suppressed", "by_code": {code: n}}}
/// on one line. Unknown line/column and URN are null.
void RenderJsonLine(const Findings& report, std::ostream& out);
/// That object, at the writer's position (the HTML report embeds it).
void WriteReportJson(const Findings& report, json::Writer& w);

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
void RenderSarif(std::span<const Findings* const> reports, std::ostream& out,
                 const SarifOptions& options);
void RenderSarif(std::span<const Findings* const> reports, std::ostream& out,
                 std::string_view tool_version);

/// One GitHub Actions workflow command per finding ("::error file=F,
/// line=L,col=C,title=CODE::message (at POINTER)"), escaped as the runner
/// parses them (% CR LF, and : , in properties), then RenderTextSummary.
void RenderGithub(const Findings& report, std::ostream& out);

struct JunitOptions {
  /// The command that made the findings ("verify", "scan"): the document's
  /// name is "pstate <command>".
  std::string_view command;
  /// The lowest severity that fails (--fail-on), or nullopt for "never": a
  /// finding at or above it is a <failure>, one below it a passing
  /// testcase that shows the finding in <system-out>, so the report agrees
  /// with the exit code. A finding that stopped an input (IsFatal) is an
  /// <error> whatever the threshold.
  std::optional<diag::Severity> fail_threshold = diag::Severity::kError;
};

/// One JUnit XML document (valid against the JUnit schema Jenkins' xUnit
/// plugin publishes, junit-10.xsd, which GitLab, Azure Pipelines and
/// GitHub test reporters read): <testsuites name="pstate COMMAND"> with a
/// <testsuite> per input (name: the file, properties: resources,
/// suppressed, omitted). In it, a testcase per finding (classname: the
/// file, name: "CODE at POINTER", made unique with " (2)"...; its detail:
/// place, URN and fingerprint), in file order within each rule, and one
/// passing testcase named CODE for every rule without a finding. Findings
/// counted but not kept (--max-findings) are one testcase "CODE (N not
/// listed)" per rule.
void RenderJunit(std::span<const Findings* const> reports, std::ostream& out,
                 const JunitOptions& options);

/// One GitLab Code Quality report: a JSON array with an issue per kept
/// finding, {"type": "issue", "check_name": CODE, "description": message
/// (and " (at POINTER)"), "categories", "fingerprint" (the finding's, as
/// baselines use it; unique in the report, as GitLab needs: a repeated one
/// gets "-2", "-3"...), "severity" (blocker for an unreadable input,
/// critical for a secret leaked in the clear, major for another error,
/// minor for a warning, info for a note), "location": {"path",
/// "lines": {"begin"}}}. Paths as RepositoryPath; line 1 for a finding
/// without a place.
void RenderGitlab(std::span<const Findings* const> reports, std::ostream& out);

/// GitHub's security-severity of the secret rules (a CVSS-like score as a
/// string: "9.0" for a known secret or credential format, ...); "" for the
/// other rules, which are correctness findings.
std::string_view SecuritySeverity(diag::Code code);

/// A relative input path as repository tools name files: without leading
/// "./" ("./a/b.json" and "a/b.json" are one file); others unchanged.
std::string_view RepositoryPath(std::string_view file);

/// "  by code: field-unknown 3, dependency-order 1" (most frequent first,
/// then by name), or "" when nothing was counted.
std::string TallyLine(const FindingCounts& summary);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_FINDINGS_H_
