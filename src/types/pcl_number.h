// The int32 test of the PCL checker (`literalValueType` and `int` values),
// on json::ExactDecimal. (cty's number/string conversions
// come from pstate/types/cty.h.) Private to src/types/pcl*.cc.
#ifndef PSTATE_TYPES_PCL_NUMBER_H_
#define PSTATE_TYPES_PCL_NUMBER_H_

#include <string_view>

#include "json/number.h"

namespace pstate::types::pcl {

/// An exact integer within [-2^31, 2^31 - 1].
bool IsInt32(const json::ExactDecimal& d);
bool IsInt32Text(std::string_view json_number);

}  // namespace pstate::types::pcl

#endif  // PSTATE_TYPES_PCL_NUMBER_H_
