#include "crypto/ciphertext.h"

#include <gtest/gtest.h>

namespace pstate::crypto {
namespace {

constexpr char kPulumiSalt[] =
    "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==";
constexpr char kPulumiCheck[] =
    "v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==";

TEST(CiphertextShapeTest, AcceptsPulumiValues) {
  EXPECT_TRUE(IsPassphraseCiphertextShape(kPulumiCheck));
  EXPECT_TRUE(IsPassphraseSaltShape(kPulumiSalt));
  EXPECT_FALSE(PassphraseSaltShapeProblem(kPulumiSalt).has_value());
}

TEST(CiphertextShapeTest, AcceptsBareTag) {
  // 12-byte nonce, 16 bytes = tag only (empty plaintext).
  EXPECT_TRUE(IsPassphraseCiphertextShape(
      "v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA=="));
}

TEST(CiphertextShapeTest, RejectsWrongShapes) {
  EXPECT_FALSE(IsPassphraseCiphertextShape(""));
  EXPECT_FALSE(IsPassphraseCiphertextShape("v1:F+6ZduKKd8G0/V7L"));
  EXPECT_FALSE(IsPassphraseCiphertextShape(std::string(kPulumiCheck) + ":x"));
  EXPECT_FALSE(IsPassphraseCiphertextShape(
      "v2:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ=="));
  EXPECT_FALSE(IsPassphraseCiphertextShape(
      "v1:F+6ZduKKd8G0:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ=="));
  EXPECT_FALSE(IsPassphraseCiphertextShape(
      "v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEA"));  // 12 bytes
  EXPECT_FALSE(IsPassphraseCiphertextShape(
      "v1:F+6ZduKKd8G0/V7L:PGMF*IzwobWRKmEAzUdaQHqC5mMRIQ=="));
  EXPECT_FALSE(IsPassphraseSaltShape(kPulumiCheck));
  EXPECT_FALSE(
      IsPassphraseSaltShape("v1:fozI5u6B030AAA==:v1:F+6ZduKKd8G0/"
                            "V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ=="));
  EXPECT_FALSE(IsPassphraseSaltShape(
      "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEA"));
}

TEST(CiphertextShapeTest, ReasonsDescribeWithoutQuoting) {
  const std::string value =
      "v1:c2VjcmV0LXZhbA==:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==";
  auto problem = PassphraseCiphertextShapeProblem(value);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("nonce is 10 bytes"), std::string::npos);
  EXPECT_EQ(problem->find("c2VjcmV0"), std::string::npos);
  auto parts = PassphraseCiphertextShapeProblem("hunter2");
  ASSERT_TRUE(parts.has_value());
  EXPECT_NE(parts->find("found 1"), std::string::npos);
  EXPECT_EQ(parts->find("hunter2"), std::string::npos);
}

}  // namespace
}  // namespace pstate::crypto
