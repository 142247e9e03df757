#include "base/sha256.h"

#include <gtest/gtest.h>

#include <string>

#include "base/hex.h"

namespace pstate {
namespace {

TEST(Sha256Test, KnownDigests) {
  // FIPS 180-2 examples.
  EXPECT_EQ(Sha256::HexOf(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256::HexOf("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256Test, IncrementalEqualsOneShot) {
  std::string data(100000, 'x');
  Sha256 sha;
  sha.Update(data.substr(0, 3));
  sha.Update(data.data() + 3, data.size() - 3);
  EXPECT_TRUE(sha.ok());
  std::optional<Sha256::Digest> digest = sha.Finish();
  ASSERT_TRUE(digest);
  EXPECT_EQ(HexEncode(*digest), Sha256::HexOf(data));
  // Finish resets: the same object hashes a new message.
  sha.Update("abc");
  EXPECT_EQ(sha.FinishHex(), Sha256::HexOf("abc"));
  ASSERT_TRUE(Sha256::Of("abc"));
  EXPECT_EQ(HexEncode(*Sha256::Of("abc")), Sha256::HexOf("abc"));
}

}  // namespace
}  // namespace pstate
