#include "base/edit_distance.h"

#include <algorithm>
#include <vector>

namespace pstate {

std::size_t EditDistance(std::string_view a, std::string_view b,
                         EditDistanceOptions options) {
  const bool fold = options.letter_case == ascii::Case::kFold;
  auto same = [fold](char x, char y) {
    return fold ? ascii::ToLower(x) == ascii::ToLower(y) : x == y;
  };
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (std::size_t j = 0; j <= m; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      std::size_t cost = same(a[i - 1], b[j - 1]) ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (options.adjacent_swaps && i > 1 && j > 1 &&
          same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1])) {
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
      }
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

}  // namespace pstate
