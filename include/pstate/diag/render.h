// Renderers: the three ways findings leave pstate.
//
//   text   file:line:column: severity[code]: message, then the URN and the
//          JSON pointer, then a summary line per input. Control characters
//          from the input are escaped (TerminalSafe).
//   json   one JSON object per input per line (JSON Lines).
//   sarif  one SARIF 2.1.0 log for all inputs, as GitHub code scanning
//          accepts it.
#ifndef PSTATE_DIAG_RENDER_H_
#define PSTATE_DIAG_RENDER_H_

#include <ostream>
#include <span>
#include <string>

#include "pstate/diag/report.h"

namespace pstate::diag {

struct TextOptions {
  bool color = false;
  /// After the summary, a "  by code:" line (TallyLine) when anything was
  /// counted.
  bool tally = true;
};

void RenderText(const Report& report, std::ostream& out,
                const TextOptions& options = {});
/// Only RenderText's summary (and tally) lines.
void RenderTextSummary(const Report& report, std::ostream& out,
                       const TextOptions& options = {});

/// {"file", "findings": [{"code", "severity", "message", "pointer", "line",
/// "column", "urn", "fingerprint"}], "summary": {"errors", "warnings",
/// "notes", "resources", "omitted", "suppressed", "by_code": {code: n}}}
/// on one line. Unknown line/column and URN are null.
void RenderJsonLine(const Report& report, std::ostream& out);

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
void RenderSarif(std::span<const Report* const> reports, std::ostream& out,
                 const SarifOptions& options);
void RenderSarif(std::span<const Report* const> reports, std::ostream& out,
                 std::string_view tool_version);

/// "  by code: field-unknown 3, dependency-order 1" (most frequent first,
/// then by name), or "" when nothing was counted.
std::string TallyLine(const Summary& summary);

/// `s` with every control character escaped as git quotes paths
/// (core.quotePath): \a \b \t \n \v \f \r by name, other C0 bytes and
/// DEL as three-digit octal (ESC is \033), and C1 controls (U+0080..U+009F,
/// UTF-8 C2 80..C2 9F) as the octal of both bytes. Everything else,
/// backslashes included, is unchanged. Text output runs every string that
/// comes from a state or the command line through it, so a state can
/// neither move the cursor, recolour or erase lines, nor forge a finding
/// line.
std::string TerminalSafe(std::string_view s);

/// `s` as a JSON string literal, quotes included.
std::string JsonString(std::string_view s);

}  // namespace pstate::diag

#endif  // PSTATE_DIAG_RENDER_H_
