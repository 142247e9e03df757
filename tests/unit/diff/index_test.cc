#include "pstate/diff/index.h"

#include <gtest/gtest.h>

#include <string>

namespace pstate::diff {
namespace {

TEST(ResourceIndexTest, FindsEachKeyAndPairsDuplicatesInOrder) {
  ResourceIndex index;
  for (int i = 0; i < 5000; ++i) {
    IndexEntry e;
    e.key = KeyOf("urn:" + std::to_string(i), false, "");
    e.offset = static_cast<std::uint64_t>(i);
    EXPECT_EQ(index.Add(e), static_cast<std::uint32_t>(i));
  }
  IndexEntry dup;
  dup.key = KeyOf("urn:7", false, "");
  dup.offset = 99999;
  std::uint32_t second = index.Add(dup);
  for (int i = 0; i < 5000; ++i) {
    std::uint32_t found =
        index.FindUnmatched(KeyOf("urn:" + std::to_string(i), false, ""));
    ASSERT_EQ(found, static_cast<std::uint32_t>(i));
  }
  EXPECT_EQ(index.FindUnmatched(KeyOf("urn:nope", false, "")),
            IndexEntry::kNone);
  // The k-th copy pairs with the k-th copy.
  index.entries()[7].matched = true;
  EXPECT_EQ(index.FindUnmatched(dup.key), second);
  index.entries()[second].matched = true;
  EXPECT_EQ(index.FindUnmatched(dup.key), IndexEntry::kNone);
}

TEST(ResourceIndexTest, DeleteCopiesAreKeyedByUrnAndId) {
  EXPECT_EQ(KeyOf("u", false, "a"), KeyOf("u", false, "b"));
  EXPECT_FALSE(KeyOf("u", true, "a") == KeyOf("u", true, "b"));
  EXPECT_FALSE(KeyOf("u", true, "a") == KeyOf("u", false, "a"));
  EXPECT_EQ(TypeIdHash("t", ""), 0u);
  EXPECT_NE(TypeIdHash("t", "1"), TypeIdHash("t", "2"));
  EXPECT_EQ(TypeIdHash("t", "1"), TypeIdHash("t", "1"));
}

}  // namespace
}  // namespace pstate::diff
