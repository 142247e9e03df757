#include "base/edit_distance.h"

#include <gtest/gtest.h>

namespace pstate {
namespace {

TEST(EditDistanceTest, Levenshtein) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("abc", ""), 3u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("verify", "verify"), 0u);
  EXPECT_EQ(EditDistance("verfy", "verify"), 1u);
  EXPECT_EQ(EditDistance("diff", "dif"), 1u);
}

TEST(EditDistanceTest, AdjacentSwapIsOneEdit) {
  EXPECT_EQ(EditDistance("fromat", "format"), 1u);
  EXPECT_EQ(EditDistance("ab", "ba"), 1u);
  // Optimal string alignment: no substring is edited twice, so "ca" to
  // "abc" is 3 (Damerau-Levenshtein proper would say 2).
  EXPECT_EQ(EditDistance("ca", "abc"), 3u);
  // Without swaps: Levenshtein.
  EXPECT_EQ(EditDistance("fromat", "format", {.adjacent_swaps = false}), 2u);
  EXPECT_EQ(EditDistance("kitten", "sitting", {.adjacent_swaps = false}), 3u);
}

TEST(EditDistanceTest, CaseFolding) {
  EXPECT_EQ(EditDistance("Verify", "verify"), 1u);
  EXPECT_EQ(
      EditDistance("Verify", "verify", {.letter_case = ascii::Case::kFold}),
      0u);
  EXPECT_EQ(EditDistance("uRN", "Urn", {.letter_case = ascii::Case::kFold}),
            0u);
  EXPECT_EQ(EditDistance("Ab", "bA", {.letter_case = ascii::Case::kFold}), 1u);
  // Only ASCII letters fold.
  EXPECT_EQ(
      EditDistance("\xC3\x89", "\xC3\xA9", {.letter_case = ascii::Case::kFold}),
      1u);
}

TEST(EditDistanceTest, Symmetric) {
  for (auto [a, b] : {std::pair{"pstate", "ptsate"},
                      {"abcdef", "azced"},
                      {"urn:pulumi:dev", "urn:pulumi:prod"}}) {
    EXPECT_EQ(EditDistance(a, b), EditDistance(b, a)) << a << " " << b;
  }
}

}  // namespace
}  // namespace pstate
