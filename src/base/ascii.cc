#include "base/ascii.h"

#include <algorithm>

namespace pstate::ascii {

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ToLower(c);
  return out;
}

bool EqualFold(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ToLower(a[i]) != ToLower(b[i])) return false;
  }
  return true;
}

bool ContainsFold(std::string_view hay, std::string_view needle) {
  auto it =
      std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                  [](char x, char y) { return ToLower(x) == ToLower(y); });
  return it != hay.end();
}

std::string_view TrimSpace(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), IsDigit);
}

}  // namespace pstate::ascii
