// The terminal colours of every text report (the escape sequences and the
// rule that each one is reset before the end of its line). Whether to
// colour is the CLI's decision (cli::UseColor: a terminal, NO_COLOR,
// TERM=dumb, --color); renderers take it as a flag.
#ifndef PSTATE_REPORT_COLOR_H_
#define PSTATE_REPORT_COLOR_H_

#include <string>
#include <string_view>

namespace pstate::report::sgr {

inline constexpr std::string_view kReset = "\033[0m";
inline constexpr std::string_view kBold = "\033[1m";
inline constexpr std::string_view kDim = "\033[2m";
inline constexpr std::string_view kRed = "\033[31m";
inline constexpr std::string_view kGreen = "\033[32m";
inline constexpr std::string_view kYellow = "\033[33m";
inline constexpr std::string_view kMagenta = "\033[35m";
inline constexpr std::string_view kCyan = "\033[36m";
inline constexpr std::string_view kBoldRed = "\033[1;31m";
inline constexpr std::string_view kBoldYellow = "\033[1;33m";
inline constexpr std::string_view kBoldCyan = "\033[1;36m";

/// `text` between `code` and a reset when `color`; `text` unchanged
/// otherwise. `text` must hold no line break.
std::string Paint(std::string_view text, std::string_view code, bool color);

/// Each line of `text` coloured by its first non-blank character when a
/// space follows it, as Pulumi colours steps: "+ " green, "- " red, "~ "
/// yellow, "! " magenta; other lines unchanged. Used by diff and
/// edit --dry-run (which prints a diff).
std::string ColorBySymbol(std::string_view text);

}  // namespace pstate::report::sgr

#endif  // PSTATE_REPORT_COLOR_H_
