#include "base/fingerprint.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

namespace pstate {
namespace {

TEST(FingerprintTest, SameTextSameFingerprintOtherTextOther) {
  std::string urn = "urn:pulumi:dev::app::aws:s3/bucket:Bucket::logs";
  EXPECT_EQ(FingerprintOf(urn), FingerprintOf(std::string(urn)));
  EXPECT_FALSE(FingerprintOf(urn) == FingerprintOf(urn + "2"));
  // Length is part of the hash: a trailing NUL is not the same string.
  EXPECT_FALSE(FingerprintOf("ab") == FingerprintOf(std::string("ab\0", 3)));
}

TEST(FingerprintTest, NeverTheEmptySlotAndNoCollisionsOnManyUrns) {
  EXPECT_FALSE(FingerprintOf("").empty());
  std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
  for (int i = 0; i < 100000; ++i) {
    Fingerprint f =
        FingerprintOf("urn:pulumi:dev::app::t::r" + std::to_string(i));
    EXPECT_FALSE(f.empty());
    seen.insert({f.hi, f.lo});
  }
  EXPECT_EQ(seen.size(), 100000u);
}

}  // namespace
}  // namespace pstate
