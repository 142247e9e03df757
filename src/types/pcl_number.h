// Exact decimal helpers for the PCL checker: the int32 test of
// `literalValueType` and of `int` values. (cty's number/string conversions
// come from pstate/types/cty.h.) Private to src/types/pcl*.cc.
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

}  // namespace pstate::types::pcl

#endif  // PSTATE_TYPES_PCL_NUMBER_H_
