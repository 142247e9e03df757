#include "pstate/normalize/go_text.h"

namespace pstate::normalize {
namespace {

bool Digits(std::string_view s, std::size_t at, std::size_t n, int* out) {
  if (at + n > s.size()) return false;
  int v = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

}  // namespace

bool IsPlainInteger(std::string_view text) {
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') ++i;
  std::size_t digits = text.size() - i;
  if (digits == 0 || digits > 15) return false;
  if (text[i] == '0' && digits > 1) return false;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

bool IsGoDecimal(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  if (i < n && text[i] == '-') ++i;
  const std::size_t int_start = i;
  while (i < n && text[i] >= '0' && text[i] <= '9') ++i;
  const std::size_t int_digits = i - int_start;
  if (int_digits == 0 || i == n || text[i] != '.') return false;
  const bool zero_int = text[int_start] == '0';
  if (zero_int && int_digits > 1) return false;  // not valid JSON anyway
  ++i;
  const std::size_t frac_start = i;
  while (i < n && text[i] >= '0' && text[i] <= '9') ++i;
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
  // YYYY-MM-DDTHH:MM:SS[.fraction](Z|±hh:mm)
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!Digits(s, 0, 4, &year) || s.size() < 20 || s[4] != '-' ||
      !Digits(s, 5, 2, &month) || s[7] != '-' || !Digits(s, 8, 2, &day) ||
      s[10] != 'T' || !Digits(s, 11, 2, &hour) || s[13] != ':' ||
      !Digits(s, 14, 2, &minute) || s[16] != ':' ||
      !Digits(s, 17, 2, &second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 ||
      minute > 59 || second > 59) {
    return std::nullopt;
  }
  std::size_t i = 19;
  std::string fraction;
  if (i < s.size() && s[i] == '.') {
    ++i;
    std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == start || i - start > 9) return std::nullopt;
    fraction.assign(s.substr(start, i - start));
    while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  }
  std::string zone;
  if (i < s.size() && s[i] == 'Z' && i + 1 == s.size()) {
    zone = "Z";
  } else if (i + 6 == s.size() && (s[i] == '+' || s[i] == '-') &&
             s[i + 3] == ':') {
    int oh = 0, om = 0;
    if (!Digits(s, i + 1, 2, &oh) || !Digits(s, i + 4, 2, &om) || oh > 23 ||
        om > 59) {
      return std::nullopt;
    }
    zone = oh == 0 && om == 0 ? std::string("Z") : std::string(s.substr(i));
  } else {
    return std::nullopt;
  }
  std::string out(s.substr(0, 19));
  if (!fraction.empty()) out += "." + fraction;
  return out + zone;
}

}  // namespace pstate::normalize
