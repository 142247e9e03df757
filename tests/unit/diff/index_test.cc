#include "diff/index.h"

#include <gtest/gtest.h>

#include <string>

namespace pstate::diff {
namespace {

TEST(ResourceIndexTest, FindsEachKeyAndPairsDuplicatesInOrder) {
  ResourceIndex index;
  for (int i = 0; i < 5000; ++i) {
    IndexEntry e;
    e.key = KeyOf("urn:" + std::to_string(i), false, "");
    e.range = {static_cast<std::uint64_t>(i),
               static_cast<std::uint64_t>(i) + 1};
    EXPECT_EQ(index.Add(e), static_cast<std::uint32_t>(i));
  }
  IndexEntry dup;
  dup.key = KeyOf("urn:7", false, "");
  dup.range = {99999, 100000};
  std::uint32_t second = index.Add(dup);
  for (int i = 0; i < 5000; ++i) {
    std::uint32_t found =
        index.FindUnmatched(KeyOf("urn:" + std::to_string(i), false, ""));
    ASSERT_EQ(found, static_cast<std::uint32_t>(i));
  }
  EXPECT_EQ(index.FindUnmatched(KeyOf("urn:nope", false, "")),
            ResourceIndex::kNone);
  // The k-th copy pairs with the k-th copy.
  index.set_matched(7);
  EXPECT_EQ(index.FindUnmatched(dup.key), second);
  EXPECT_EQ(index.range(second).begin, 99999u);
  index.set_matched(second);
  EXPECT_EQ(index.FindUnmatched(dup.key), ResourceIndex::kNone);
}

TEST(ResourceIndexTest, DeleteCopiesAreKeyedByUrnAndId) {
  EXPECT_EQ(KeyOf("u", false, "a"), KeyOf("u", false, "b"));
  EXPECT_FALSE(KeyOf("u", true, "a") == KeyOf("u", true, "b"));
  EXPECT_FALSE(KeyOf("u", true, "a") == KeyOf("u", false, "a"));
  EXPECT_EQ(TypeIdHash("t", ""), 0u);
  EXPECT_NE(TypeIdHash("t", "1"), TypeIdHash("t", "2"));
  EXPECT_EQ(TypeIdHash("t", "1"), TypeIdHash("t", "1"));
}

TEST(BytesDigestTest, EqualBytesEqualDigestsAnyChangeDiffers) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "{\"urn\":\"u" + std::to_string(i);
  EXPECT_EQ(BytesDigest(text), BytesDigest(std::string(text)));
  EXPECT_EQ(BytesDigest(""), BytesDigest(""));
  // One byte changed anywhere (each lane, the 8-byte tail, the last bytes),
  // a byte added, a byte dropped: always another digest.
  for (std::size_t at = 0; at < text.size(); ++at) {
    std::string changed = text;
    changed[at] = static_cast<char>(changed[at] ^ 1);
    EXPECT_NE(BytesDigest(changed), BytesDigest(text)) << at;
  }
  EXPECT_NE(BytesDigest(text + " "), BytesDigest(text));
  EXPECT_NE(BytesDigest(text.substr(1)), BytesDigest(text));
  // Zero bytes at the end are not the same as none.
  EXPECT_NE(BytesDigest(std::string_view("a\0", 2)), BytesDigest("a"));
}

}  // namespace
}  // namespace pstate::diff
