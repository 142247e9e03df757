// JSON numbers as exact decimals, and the float64 view Go's encoding/json
// takes of them.
//
// pstate keeps every number as its source text (see value.h), so two texts
// may spell the same value ("1", "1.0", "10e-1"). The functions here compare
// and canonicalize those texts exactly, as decimals of unbounded precision
// and exponent, never through a double: "9007199254740993" and
// "9007199254740992" are different numbers even though both parse to the
// same float64. Separately, ToDouble and GoFloatText reproduce what Pulumi
// (Go) does when it decodes a number into a float64 and encodes it again,
// so a pass can tell whether a round trip through Go loses anything.
//
// Input contract: the texts are JSON number texts (RFC 8259 section 6:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), as the parser keeps them.
// Anything else is handled without undefined behaviour but is not a number:
// see each function for what it does with such text.
#ifndef PSTATE_JSON_NUMBER_H_
#define PSTATE_JSON_NUMBER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pstate::json {

/// True when `text` is a JSON number text (RFC 8259 grammar, whole text).
bool IsNumberText(std::string_view text);

/// True when the two number texts denote the same mathematical value,
/// compared exactly: "1" == "1.0" == "1e0" == "10e-1", "-0" == "0",
/// "1e400" == "10e399". Texts that are not numbers equal only themselves
/// (byte for byte).
bool NumbersEqual(std::string_view a, std::string_view b);

/// -1, 0 or 1 as the value of `a` is below, equal to or above `b`, exactly.
/// Non-number texts sort after every number, bytewise among themselves, so
/// the order stays total.
int CompareNumbers(std::string_view a, std::string_view b);

/// A canonical spelling of the value, equal for equal values (for hashing):
/// "0" for zero (of either sign), otherwise an optional '-', the significant
/// digits without leading or trailing zeros with a '.' after the first one
/// when there are more, 'e' and the decimal exponent, which has no '+' and
/// no leading zeros: "1e0", "-1.5e2", "9.007199254740993e15", "1e400". The
/// result is itself a JSON number text. Non-number texts come back as they
/// are.
std::string CanonicalNumber(std::string_view text);

/// A number as an exact decimal with its own digits, for arithmetic on
/// values (the type languages' conversions): value = (negative ? -1 : 1) *
/// digits * 10^exponent, where `digits` has no leading or trailing zeros
/// and is empty for zero (exponent 0; a zero keeps the text's sign).
struct ExactDecimal {
  bool negative = false;
  std::string digits;
  std::int64_t exponent = 0;
};

/// Exponents are clamped to +-kDecimalExponentLimit (2^40): far beyond any
/// value a conversion can produce, and small enough for int64 arithmetic.
inline constexpr std::int64_t kDecimalExponentLimit = std::int64_t{1} << 40;

/// `text` as an ExactDecimal; a text that is not a number is zero.
ExactDecimal ParseDecimal(std::string_view text);

/// The float64 Go's strconv.ParseFloat(text, 64) gives, which is what
/// encoding/json decodes a number into: correctly rounded (ties to even);
/// values too small for a float64 become zero of the text's sign (Go reports
/// no error for underflow). std::nullopt when the magnitude rounds beyond
/// the largest float64 (Go's ErrRange, so encoding/json fails on "1e400")
/// or when `text` is not a number.
std::optional<double> ToDouble(std::string_view text);

/// What Go's encoding/json writes for the float64 `value` (encode.go,
/// floatEncoder): the shortest digits that read back as `value`, in plain
/// decimal notation ("100000000000000000000", "0.000001", "-0") unless the
/// magnitude is below 1e-6 or at least 1e21, then in exponent form with at
/// least one exponent digit after a '-' and two after a '+' ("1e-7",
/// "1.5e-10", "1e+21"). NaN and infinities, which Go refuses to encode
/// (UnsupportedValueError), give an empty string.
std::string GoFloatText(double value);

/// True when a float64 holds the value of `text` exactly AND GoFloatText of
/// that float64 denotes the same value, i.e. decoding the number in Go and
/// encoding it again changes at most its spelling. "0.5", "1e21", "-0" and
/// "9007199254740992" qualify; "0.1" (not a binary fraction),
/// "9007199254740993" (rounds) and "1180591620717411303424" (2^70: exact,
/// but Go writes it as 1.1805916207174113e+21) do not.
bool IsExactFloat64(std::string_view text);

}  // namespace pstate::json

#endif  // PSTATE_JSON_NUMBER_H_
