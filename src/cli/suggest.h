// "Did you mean ...?": the closest of a set of names to a mistyped one.
#ifndef PSTATE_CLI_SUGGEST_H_
#define PSTATE_CLI_SUGGEST_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace pstate::cli {

/// The candidate closest to `typed` (EditDistance, base/edit_distance.h,
/// case-sensitive: flags and command names are), when it is close enough to
/// be a typo:
/// at most 2 edits, and fewer than half of the longer name's length; a
/// candidate that starts with `typed` (at least 3 characters) also counts.
std::optional<std::string> Suggest(std::string_view typed,
                                   std::span<const std::string> candidates);

/// " (did you mean 'x'?)" or "".
std::string DidYouMean(std::string_view typed,
                       std::span<const std::string> candidates);

}  // namespace pstate::cli

#endif  // PSTATE_CLI_SUGGEST_H_
