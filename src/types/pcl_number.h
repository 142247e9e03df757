// Exact decimal helpers for the PCL checker: the int32 test of
// `literalValueType`, cty's string-to-number parse (Go's big.ParseFloat in
// base 10) and cty's number-to-string text (big.Float.Text('f', -1)).
// Private to src/types/pcl*.cc.
#ifndef PSTATE_TYPES_PCL_NUMBER_H_
#define PSTATE_TYPES_PCL_NUMBER_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace pstate::types::pcl {

/// value = (negative ? -1 : 1) * digits * 10^exponent; `digits` has no
/// leading or trailing zeros and is empty for zero (which keeps its sign).
struct Decimal {
  bool negative = false;
  std::string digits;
  std::int64_t exponent = 0;
};

/// A JSON number text as a Decimal (through json::CanonicalNumber).
Decimal FromJsonNumber(std::string_view text);

/// An exact integer within [-2^31, 2^31 - 1].
bool IsInt32(const Decimal& d);
bool IsInt32Text(std::string_view json_number);

enum class CtyParse { kOk, kInfinity, kInvalid, kTooLarge };

/// cty.ParseNumberVal(s): Go's big.ParseFloat(s, 10, 512, ToNearestEven).
/// Accepts [sign] (digits ["." [digits]] | "." digits)
/// [("e"|"E"|"p"|"P") [sign] digits] and "Inf"/"inf" with an optional sign
/// (kInfinity, `*out` keeps the sign). No whitespace, base prefixes or
/// underscores. A 'p' exponent is binary: "1p3" is 8. Exponents beyond
/// what pstate expands exactly give kTooLarge. Digits beyond big.Float's
/// 512-bit mantissa are kept exactly (pstate does not round them).
CtyParse ParseCtyNumber(std::string_view s, Decimal* out);

/// big.Float.Text('f', -1) of an exact decimal: plain notation, no exponent,
/// no trailing fraction zeros ("1000", "0.0000001", "1.5", "-0"). Values
/// whose plain form would exceed `max_length` characters return "".
std::string PlainText(const Decimal& d, std::size_t max_length = 4096);

/// A JSON number text for the Decimal (plain when short, else exponent).
std::string JsonText(const Decimal& d);

}  // namespace pstate::types::pcl

#endif  // PSTATE_TYPES_PCL_NUMBER_H_
