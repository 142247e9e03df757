#include "base/ascii.h"

#include <gtest/gtest.h>

namespace pstate::ascii {
namespace {

TEST(AsciiTest, Classes) {
  EXPECT_TRUE(IsDigit('0'));
  EXPECT_TRUE(IsDigit('9'));
  EXPECT_FALSE(IsDigit('a'));
  EXPECT_TRUE(IsAlpha('z'));
  EXPECT_TRUE(IsAlpha('A'));
  EXPECT_FALSE(IsAlpha('['));
  EXPECT_FALSE(IsAlpha('@'));
  EXPECT_TRUE(IsAlnum('7'));
  EXPECT_FALSE(IsAlnum('_'));
  EXPECT_TRUE(IsHexDigit('F'));
  EXPECT_FALSE(IsHexDigit('g'));
  EXPECT_TRUE(IsLowerHexDigit('f'));
  EXPECT_FALSE(IsLowerHexDigit('F'));
  for (char c : {' ', '\t', '\n', '\v', '\f', '\r'}) EXPECT_TRUE(IsSpace(c));
  EXPECT_FALSE(IsSpace('\0'));
  // Bytes of UTF-8 sequences are never letters, digits or spaces.
  for (int b = 0x80; b < 0x100; ++b) {
    char c = static_cast<char>(b);
    EXPECT_FALSE(IsAlnum(c) || IsSpace(c) || IsHexDigit(c)) << b;
    EXPECT_EQ(ToLower(c), c);
    EXPECT_EQ(ToUpper(c), c);
  }
}

TEST(AsciiTest, HexValue) {
  EXPECT_EQ(HexValue('0'), 0);
  EXPECT_EQ(HexValue('a'), 10);
  EXPECT_EQ(HexValue('F'), 15);
  EXPECT_EQ(HexValue('g'), -1);
}

TEST(AsciiTest, CaseMapping) {
  EXPECT_EQ(ToLower('Q'), 'q');
  EXPECT_EQ(ToLower('q'), 'q');
  EXPECT_EQ(ToUpper('q'), 'Q');
  EXPECT_EQ(ToLower('@'), '@');
  EXPECT_EQ(ToLower(std::string_view("AbC-\xC3\x89")), "abc-\xC3\x89");
  EXPECT_TRUE(EqualFold("Kubeconfig", "kubeCONFIG"));
  EXPECT_FALSE(EqualFold("kube", "kubes"));
  EXPECT_TRUE(ContainsFold("myKubeConfig", "kubeconfig"));
  EXPECT_FALSE(ContainsFold("kube-conf", "kubeconfig"));
  EXPECT_TRUE(ContainsFold("x", ""));
}

TEST(AsciiTest, TrimAndDigits) {
  EXPECT_EQ(TrimSpace(" \t x y \n"), "x y");
  EXPECT_EQ(TrimSpace("   "), "");
  EXPECT_TRUE(AllDigits("0123"));
  EXPECT_FALSE(AllDigits(""));
  EXPECT_FALSE(AllDigits("12a"));
}

}  // namespace
}  // namespace pstate::ascii
