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

/// How Go's time.Time MarshalJSON writes the instant the RFC 3339 text `s`
/// denotes (Go's time/format_rfc3339.go): the fraction without trailing
/// zeros (and without the '.' when nothing is left), a zero offset as "Z",
/// any other as ±hh:mm. nullopt when Go's decoder would not accept the text
/// (lowercase 't' or 'z', a missing offset, more than 9 fraction digits,
/// fields out of range): such text is left as it is.
std::optional<std::string> GoTimeText(std::string_view s);

}  // namespace pstate::normalize

#endif  // PSTATE_NORMALIZE_GO_TEXT_H_
