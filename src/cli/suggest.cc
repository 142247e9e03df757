#include "cli/suggest.h"

#include <algorithm>
#include <vector>

namespace pstate::cli {

std::size_t EditDistance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (std::size_t j = 0; j <= m; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
      }
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[m];
}

std::optional<std::string> Suggest(std::string_view typed,
                                   std::span<const std::string> candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const std::string& c : candidates) {
    std::size_t d = EditDistance(typed, c);
    std::size_t longer = std::max(typed.size(), c.size());
    bool close = d <= 2 && d * 2 < longer;
    bool prefix = typed.size() >= 3 && c.size() > typed.size() &&
                  c.compare(0, typed.size(), typed) == 0;
    if (!close && !prefix) continue;
    if (prefix && !close) d = c.size() - typed.size() + 2;
    if (!best || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string DidYouMean(std::string_view typed,
                       std::span<const std::string> candidates) {
  std::optional<std::string> s = Suggest(typed, candidates);
  return s ? " (did you mean '" + *s + "'?)" : std::string();
}

}  // namespace pstate::cli
