// Shell-style glob patterns: the one dialect every pstate option that takes
// a GLOB speaks (ls --type, --name, --urn, --provider; redact --also).
//
//   *        any run of characters, including none ('/' is not special)
//   ?        exactly one character
//   [set]    one character in the set: single characters and ranges a-z;
//            [!set] or [^set] one character not in it; ']' right after
//            '[' (or '[!', '[^') and '-' first or last are members; a '['
//            without its ']' is an ordinary character
//   \c       the character c itself (\*, \?, \[, \\)
//
// A character is a UTF-8 code point (an ill-formed byte counts as one). The
// whole text must match, as fnmatch(3) without flags does; unlike
// fnmatch(3), there are no [:class:] names.
#ifndef PSTATE_BASE_GLOB_H_
#define PSTATE_BASE_GLOB_H_

#include <string_view>

#include "base/ascii.h"

namespace pstate {

/// True when all of `text` matches `pattern`. With ascii::Case::kFold,
/// ASCII letters match either case, in sets and ranges too ("[a-c]" then
/// matches "B"). Who folds: redact --also (property names are camelCase or
/// snake_case by each provider's convention, so "*password*" should find
/// "dbPassword"); not the ls filters (types and URNs are case-sensitive
/// identifiers in Pulumi). Time O(|pattern|·|text|) at worst: one backtrack
/// point, the last '*'.
bool GlobMatch(std::string_view pattern, std::string_view text,
               ascii::Case letter_case = ascii::Case::kSensitive);

}  // namespace pstate

#endif  // PSTATE_BASE_GLOB_H_
