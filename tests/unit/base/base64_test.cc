#include "base/base64.h"

#include <gtest/gtest.h>

#include <string>

namespace pstate {
namespace {

TEST(Base64Test, EncodesRfc4648Vectors) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode(std::string("\xFB\xFF\x00", 3)), "+/8A");
}

TEST(Base64Test, DecodesRfc4648Vectors) {
  for (const char* plain : {"", "f", "fo", "foo", "foob", "fooba", "foobar"}) {
    Result<std::string> decoded = Base64Decode(Base64Encode(plain));
    ASSERT_TRUE(decoded.ok()) << plain;
    EXPECT_EQ(*decoded, plain);
  }
}

TEST(Base64Test, RoundTripsAllByteValues) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  for (std::size_t len = 0; len <= bytes.size(); len += 7) {
    Result<std::string> decoded =
        Base64Decode(Base64Encode(bytes.substr(0, len)));
    ASSERT_TRUE(decoded.ok());
    EXPECT_TRUE(*decoded == bytes.substr(0, len));
  }
}

TEST(Base64Test, RequiresPadding) {
  EXPECT_FALSE(Base64Decode("Zg").ok());
  EXPECT_FALSE(Base64Decode("Zg=").ok());
  EXPECT_FALSE(Base64Decode("Zm8").ok());
  EXPECT_FALSE(Base64Decode("Z").ok());
  EXPECT_FALSE(Base64Decode("Z===").ok());
  EXPECT_FALSE(Base64Decode("====").ok());
  EXPECT_FALSE(Base64Decode("=").ok());
}

TEST(Base64Test, RejectsDataAfterPadding) {
  EXPECT_FALSE(Base64Decode("Zg==Zg==").ok());
  EXPECT_FALSE(Base64Decode("Zm8=Zm8=").ok());
  EXPECT_FALSE(Base64Decode("Zg===").ok());
  EXPECT_FALSE(Base64Decode("Zg=a").ok());
}

TEST(Base64Test, RejectsCharactersOutsideTheStandardAlphabet) {
  EXPECT_FALSE(Base64Decode("Zm9v YmFy").ok());
  EXPECT_FALSE(Base64Decode(" Zm9v").ok());
  EXPECT_FALSE(Base64Decode("Zm9v\t").ok());
  EXPECT_FALSE(Base64Decode("-_8A").ok());  // URL alphabet
  EXPECT_FALSE(Base64Decode(std::string("Zm9v\0", 5)).ok());
  Result<std::string> bad = Base64Decode("Zm9v*mFy");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Errc::kSyntax);
  EXPECT_NE(bad.status().message().find("4"), std::string::npos);
}

TEST(Base64Test, IgnoresNewlinesLikeGo) {
  Result<std::string> decoded = Base64Decode("Zm9v\r\nYmFy\n");
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, "foobar");
  decoded = Base64Decode("Zg=\n=\n");
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, "f");
  decoded = Base64Decode("\n");
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, "");
}

TEST(Base64Test, AcceptsNonZeroTrailingBitsLikeGoNonStrict) {
  Result<std::string> a = Base64Decode("Zh==");  // 'h' leaves bits set
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*a, "f");
  Result<std::string> b = Base64Decode("Zm9=");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, "fo");
}

TEST(Base64Test, IsBase64AndDecodedSizeAgreeWithDecode) {
  EXPECT_TRUE(IsBase64(""));
  EXPECT_TRUE(IsBase64("Zm9vYmE="));
  EXPECT_FALSE(IsBase64("Zm9vYmE"));
  EXPECT_EQ(Base64DecodedSize("Zm9vYmE="), 5);
  EXPECT_EQ(Base64DecodedSize("AAAAAAAAAAAAAAAA"), 12);
  EXPECT_EQ(Base64DecodedSize("not base64!"), -1);
}

TEST(Base64Test, RawUrlIsGosRawURLEncoding) {
  auto decode = [](std::string_view text) {
    return Base64Decode(text, Base64Encoding::kRawUrl);
  };
  EXPECT_EQ(*decode(""), "");
  EXPECT_EQ(*decode("Zg"), "f");
  EXPECT_EQ(*decode("Zm8"), "fo");
  EXPECT_EQ(*decode("Zm9v"), "foo");
  EXPECT_EQ(*decode("-_8A"), std::string("\xFB\xFF\x00", 3));
  EXPECT_EQ(*decode("eyJh\nbGciOiJI"), "{\"alg\":\"H");  // newlines skipped
  EXPECT_FALSE(decode("Z").ok());      // a last group of one character
  EXPECT_FALSE(decode("Zm9vY").ok());  // likewise
  EXPECT_FALSE(decode("Zg==").ok());   // no padding in RawURLEncoding
  EXPECT_FALSE(decode("+/8A").ok());   // standard alphabet
  EXPECT_TRUE(IsBase64("Zm9vYg", Base64Encoding::kRawUrl));
  EXPECT_EQ(Base64DecodedSize("Zm9vYmE", Base64Encoding::kRawUrl), 5);
}

}  // namespace
}  // namespace pstate
