// The one escaper of text that reaches a terminal, and the one format of a
// fatal failure.
#ifndef PSTATE_REPORT_TERMINAL_H_
#define PSTATE_REPORT_TERMINAL_H_

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "diag/failure.h"

namespace pstate::report {

/// `s` with every control character escaped as git quotes paths
/// (core.quotePath): \a \b \t \n \v \f \r by name, other C0 bytes and
/// DEL as three-digit octal (ESC is \033), and C1 controls (U+0080..U+009F,
/// UTF-8 C2 80..C2 9F) as the octal of both bytes. Everything else,
/// backslashes included, is unchanged. Every string that comes from a
/// state or the command line and is printed as text goes through it, so a
/// state can neither move the cursor, recolour or erase lines, nor forge a
/// line of output.
std::string TerminalSafe(std::string_view s);

/// `text` cut to at most `width` bytes, whole UTF-8 characters only, and
/// ending in the marker "..." when something was cut; unchanged when it
/// fits or `width` is 0. How diff and show shorten long values.
std::string Shorten(std::string_view text, std::size_t width);

/// "pstate: error: MESSAGE\n" with each line of MESSAGE passed through
/// TerminalSafe (a message of several lines keeps its line breaks): the one
/// way a command reports why it stopped.
void PrintError(std::ostream& out, std::string_view message);
/// The same for a located failure: "pstate: error: FILE:LINE:COL: reason",
/// then "    at: POINTER" when the failure has one.
void PrintError(std::ostream& out, const diag::Failure& failure);

/// Rows as aligned columns, each padded to its widest cell (in bytes) plus
/// two spaces; the last column is not padded, and every line goes through
/// TerminalSafe.
void Table(const std::vector<std::vector<std::string>>& rows,
           std::ostream& out);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_TERMINAL_H_
