#include "types/pcl_number.h"

#include <cstddef>
#include <cstdint>
#include <string>

#include "json/number.h"

namespace pstate::types::pcl {

bool IsInt32(const json::ExactDecimal& d) {
  if (d.digits.empty()) return true;
  if (d.exponent < 0) return false;
  if (static_cast<std::int64_t>(d.digits.size()) + d.exponent > 10) {
    return false;
  }
  std::int64_t v = 0;
  for (char c : d.digits) v = v * 10 + (c - '0');
  for (std::int64_t i = 0; i < d.exponent; ++i) v *= 10;
  return d.negative ? v <= 2147483648LL : v <= 2147483647LL;
}

bool IsInt32Text(std::string_view json_number) {
  // Fast path: a plain integer token of at most 10 digits.
  std::size_t i = !json_number.empty() && json_number[0] == '-' ? 1 : 0;
  std::size_t digits = json_number.size() - i;
  if (digits > 0 && digits <= 10 &&
      json_number.find_first_not_of("0123456789", i) == std::string::npos) {
    std::int64_t v = 0;
    for (; i < json_number.size(); ++i) v = v * 10 + (json_number[i] - '0');
    return json_number[0] == '-' ? v <= 2147483648LL : v <= 2147483647LL;
  }
  return IsInt32(json::ParseDecimal(json_number));
}

}  // namespace pstate::types::pcl
