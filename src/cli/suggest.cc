#include "cli/suggest.h"

#include <algorithm>

#include "base/edit_distance.h"

namespace pstate::cli {

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
