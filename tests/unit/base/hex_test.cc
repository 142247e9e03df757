#include "base/hex.h"

#include <gtest/gtest.h>

#include <array>

#include "base/result.h"

namespace pstate {
namespace {

TEST(HexTest, EncodesLowercase) {
  std::array<std::uint8_t, 3> bytes{0x00, 0xAB, 0x7F};
  EXPECT_EQ(HexEncode(bytes), "00ab7f");
}

TEST(HexTest, IsLowerHexChecksLengthAndAlphabet) {
  EXPECT_TRUE(IsLowerHex("0123456789abcdef", 16));
  EXPECT_FALSE(IsLowerHex("0123456789ABCDEF", 16));
  EXPECT_FALSE(IsLowerHex("abc", 4));
  EXPECT_FALSE(IsLowerHex("abcg", 4));
}

TEST(ResultTest, HoldsValueOrStatus) {
  Result<int> good(7);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 7);
  Result<int> bad(Errc::kNotFound, "no such file");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Errc::kNotFound);
  EXPECT_EQ(bad.status().message(), "no such file");
}

}  // namespace
}  // namespace pstate
