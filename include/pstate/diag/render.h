// Renderers: the three ways findings leave pstate.
//
//   text   file:line:column: severity[code]: message, then the URN and the
//          JSON pointer, then a summary line per input.
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
};

void RenderText(const Report& report, std::ostream& out,
                const TextOptions& options = {});

/// {"file", "findings": [{"code", "severity", "message", "pointer", "line",
/// "column", "urn"}], "summary": {"errors", "warnings", "notes",
/// "resources"}} on one line. Unknown line/column and URN are null.
void RenderJsonLine(const Report& report, std::ostream& out);

/// GitHub accepts at most this many results per SARIF run.
inline constexpr std::size_t kSarifMaxResults = 25000;

void RenderSarif(std::span<const Report* const> reports, std::ostream& out,
                 std::string_view tool_version);

/// `s` as a JSON string literal, quotes included.
std::string JsonString(std::string_view s);

}  // namespace pstate::diag

#endif  // PSTATE_DIAG_RENDER_H_
