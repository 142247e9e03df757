// Small pieces of Go's text output that the normalizer needs and that are
// worth testing on their own.
#ifndef PSTATE_NORMALIZE_GO_TEXT_H_
#define PSTATE_NORMALIZE_GO_TEXT_H_

#include <optional>
#include <string>
#include <string_view>

namespace pstate::normalize {

/// True when `text` is a JSON integer of at most 15 digits ("0", "-12"):
/// Go's float64 spelling of it is the text itself, so no conversion is
/// needed (the fast path for most numbers in a state).
bool IsPlainInteger(std::string_view text);

/// True when `text` is a plain JSON decimal ("0.75", "-12.5", "0.000123")
/// that is already Go's float64 spelling of its value (encoding/json's
/// floatEncoder: strconv 'f' format, shortest digits, for 1e-6 <= |x| <
/// 1e21): no exponent, no trailing fraction zero, no leading zero, at most
/// 15 significant digits (so the digits are the shortest that round-trip)
/// and at most 5 zeros between the point and the first digit. Lets the
/// normalizer skip parsing and formatting a double for most fractions.
bool IsGoDecimal(std::string_view text);

/// How Go's time.Time MarshalJSON writes the time Time.UnmarshalJSON reads
/// from `s` (a JSON string's text as stored, between the quotes):
/// FormatRfc3339(ParseRfc3339(s)), base/rfc3339.h. nullopt when Go would
/// not read the text, or could not write it back: such text is left as it
/// is (and verify reports it).
std::optional<std::string> GoTimeText(std::string_view s);

}  // namespace pstate::normalize

#endif  // PSTATE_NORMALIZE_GO_TEXT_H_
