#include "base/chunked_vector.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace pstate {
namespace {

TEST(ChunkedVectorTest, GrowsInWholeChunksAndKeepsOrder) {
  ChunkedVector<std::uint64_t, 8> v;
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.capacity(), 0u);
  for (std::uint64_t i = 0; i < 20; ++i) v.push_back(i * 3);
  EXPECT_EQ(v.size(), 20u);
  EXPECT_EQ(v.capacity(), 24u);  // three chunks of eight
  for (std::size_t i = 0; i < 20; ++i) EXPECT_EQ(v[i], i * 3) << i;
  EXPECT_EQ(v.back(), 57u);
  v[19] = 1;
  EXPECT_EQ(v.back(), 1u);
  v.clear();
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.capacity(), 0u);
  v.push_back(7);
  EXPECT_EQ(v[0], 7u);
}

// Elements never move: a reference stays valid while the vector grows.
TEST(ChunkedVectorTest, ElementsStayWhereTheyAre) {
  ChunkedVector<int, 4> v;
  v.push_back(1);
  const int* first = &v[0];
  for (int i = 0; i < 100; ++i) v.push_back(i);
  EXPECT_EQ(first, &v[0]);
  EXPECT_EQ(*first, 1);
}

}  // namespace
}  // namespace pstate
