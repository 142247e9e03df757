#include "crypto/b64_crypter.h"

#include <gtest/gtest.h>

namespace pstate::crypto {
namespace {

TEST(B64CrypterTest, RoundTripsJsonText) {
  B64Crypter crypter;
  EXPECT_EQ(crypter.Encrypt("\"hunter2\""), "Imh1bnRlcjIi");
  Result<std::string> back = crypter.Decrypt("Imh1bnRlcjIi");
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(*back == "\"hunter2\"");
  EXPECT_TRUE(crypter.Decrypt(crypter.Encrypt(""))->empty());
}

TEST(B64CrypterTest, RejectsNonBase64) {
  B64Crypter crypter;
  Result<std::string> r = crypter.Decrypt("v1:abc:def");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kSyntax);
}

}  // namespace
}  // namespace pstate::crypto
