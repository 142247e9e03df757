#include "state/resource_index.h"

#include <gtest/gtest.h>

#include <string>

namespace pstate::state {
namespace {

Fingerprint Key(int i) { return FingerprintOf("urn:" + std::to_string(i)); }

// Every key is found at its position, through any number of rehashes, and
// the copies of a key are chained in state order.
TEST(ResourceIndexTest, FindsEveryKeyAndChainsCopiesInOrder) {
  for (std::size_t reserve : {std::size_t{0}, std::size_t{10000}}) {
    ResourceIndex index;
    index.Reserve(reserve);
    for (int i = 0; i < 5000; ++i) {
      ByteRange range{static_cast<std::uint64_t>(i) * 10,
                      static_cast<std::uint64_t>(i) * 10 + 7};
      ASSERT_EQ(index.Add(Key(i), range), static_cast<std::uint32_t>(i));
    }
    std::uint32_t second = index.Add(Key(7), {90000, 90010});
    std::uint32_t third = index.Add(Key(7), {90010, 90020});
    EXPECT_EQ(index.size(), 5002u);
    for (int i = 0; i < 5000; ++i) {
      std::uint32_t at = index.First(Key(i));
      ASSERT_EQ(at, static_cast<std::uint32_t>(i));
      EXPECT_EQ(index.range(at).begin, static_cast<std::uint64_t>(i) * 10);
      EXPECT_EQ(index.key(at), Key(i));
    }
    EXPECT_EQ(index.First(FingerprintOf("urn:nope")), ResourceIndex::kNone);
    EXPECT_EQ(index.Next(7), second);
    EXPECT_EQ(index.Next(second), third);
    EXPECT_EQ(index.Next(third), ResourceIndex::kNone);
    EXPECT_EQ(index.Next(8), ResourceIndex::kNone);
    EXPECT_GT(index.memory(), 5000u * 40u);
  }
}

TEST(ResourceIndexTest, ClearForgetsEverything) {
  ResourceIndex index;
  index.Add(Key(1), {0, 5});
  index.Clear();
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.First(Key(1)), ResourceIndex::kNone);
  EXPECT_EQ(index.Add(Key(1), {5, 9}), 0u);
  EXPECT_EQ(index.range(index.First(Key(1))).end, 9u);
}

}  // namespace
}  // namespace pstate::state
