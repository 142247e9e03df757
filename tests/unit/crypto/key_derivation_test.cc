// F7 (D23): a state repeating its secrets provider costs one key derivation,
// and a run stops after a bounded number of distinct salts.
#include <gtest/gtest.h>

#include <string>

#include "crypto/passphrase.h"

namespace pstate::crypto {
namespace {

// Pulumi's pkg/secrets/passphrase/manager_test.go vector.
constexpr char kPassphrase[] = "password";
constexpr char kSaltState[] =
    "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==";

class KeyDerivationTest : public ::testing::Test {
 protected:
  void TearDown() override { ResetKeyDerivationsForTesting(); }
};

TEST_F(KeyDerivationTest, OneDerivationPerSaltAndABoundPerRun) {
  ResetKeyDerivationsForTesting(1);
  // With room for one derivation, the same salt works any number of times:
  // the key is derived once and reused.
  for (int i = 0; i < 100; ++i) {
    Result<PassphraseCrypter> again =
        PassphraseCrypter::FromSalt(kSaltState, kPassphrase);
    ASSERT_TRUE(again.ok()) << i << ": " << again.status().message();
  }
  // A different salt (or passphrase) needs a second derivation: refused.
  Result<PassphraseCrypter> other = PassphraseCrypter::FromSalt(
      "v1:AAAAAAAAAAA=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==",
      kPassphrase);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), Errc::kLimit);
  Result<PassphraseCrypter> wrong =
      PassphraseCrypter::FromSalt(kSaltState, "not the passphrase");
  EXPECT_EQ(wrong.status().code(), Errc::kLimit);
}

TEST_F(KeyDerivationTest, AWrongPassphraseStaysWrongWhenCached) {
  ResetKeyDerivationsForTesting(4);
  for (int i = 0; i < 3; ++i) {
    Result<PassphraseCrypter> wrong =
        PassphraseCrypter::FromSalt(kSaltState, "Password");
    ASSERT_FALSE(wrong.ok());
    EXPECT_EQ(wrong.status().code(), Errc::kCrypto);
  }
  EXPECT_TRUE(PassphraseCrypter::FromSalt(kSaltState, kPassphrase).ok());
}

TEST_F(KeyDerivationTest, DefaultBound) {
  EXPECT_EQ(kMaxKeyDerivationsPerRun, 64u);
}

}  // namespace
}  // namespace pstate::crypto
