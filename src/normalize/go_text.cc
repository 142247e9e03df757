#include "normalize/go_text.h"

#include "base/ascii.h"
#include "base/rfc3339.h"

namespace pstate::normalize {

bool IsPlainInteger(std::string_view text) {
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') ++i;
  std::size_t digits = text.size() - i;
  if (digits == 0 || digits > 15) return false;
  if (text[i] == '0' && digits > 1) return false;
  for (; i < text.size(); ++i) {
    if (!ascii::IsDigit(text[i])) return false;
  }
  return true;
}

bool IsGoDecimal(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  if (i < n && text[i] == '-') ++i;
  const std::size_t int_start = i;
  while (i < n && ascii::IsDigit(text[i])) ++i;
  const std::size_t int_digits = i - int_start;
  if (int_digits == 0 || i == n || text[i] != '.') return false;
  const bool zero_int = text[int_start] == '0';
  if (zero_int && int_digits > 1) return false;  // not valid JSON anyway
  ++i;
  const std::size_t frac_start = i;
  while (i < n && ascii::IsDigit(text[i])) ++i;
  if (i != n || i == frac_start || text[n - 1] == '0') return false;
  std::size_t significant = 0;
  if (zero_int) {
    std::size_t lead = frac_start;
    while (text[lead] == '0') ++lead;
    if (lead - frac_start > 5) return false;  // below 1e-6: Go writes 1e-7
    significant = n - lead;
  } else {
    significant = int_digits + (n - frac_start);
  }
  return significant <= 15;
}

std::optional<std::string> GoTimeText(std::string_view s) {
  std::optional<GoTime> t = ParseRfc3339(s);
  if (!t) return std::nullopt;
  return FormatRfc3339(*t);
}

}  // namespace pstate::normalize
