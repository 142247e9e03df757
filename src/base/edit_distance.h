// How far apart two names are, for "did you mean ...?" suggestions.
#ifndef PSTATE_BASE_EDIT_DISTANCE_H_
#define PSTATE_BASE_EDIT_DISTANCE_H_

#include <cstddef>
#include <string_view>

#include "base/ascii.h"

namespace pstate {

struct EditDistanceOptions {
  /// A swap of two adjacent bytes counts as one edit (optimal string
  /// alignment: "fromat" is 1 from "format"); false gives the Levenshtein
  /// distance, which counts it as two.
  bool adjacent_swaps = true;
  /// ascii::Case::kFold: letters that differ only in ASCII case are equal.
  ascii::Case letter_case = ascii::Case::kSensitive;
};

/// The fewest insertions, deletions and substitutions of one byte (and
/// adjacent swaps, per `options`) that turn `a` into `b`, no byte edited
/// twice ("verfy" is 1 from "verify"). O(|a|·|b|) time, O(|b|) memory.
std::size_t EditDistance(std::string_view a, std::string_view b,
                         EditDistanceOptions options = {});

}  // namespace pstate

#endif  // PSTATE_BASE_EDIT_DISTANCE_H_
