#include "diag/ignore_file.h"

#include <gtest/gtest.h>

#include <string>

#include "diag/fingerprint.h"

namespace pstate::diag {
namespace {

constexpr const char* kFp = "0123456789abcdef0123456789abcdef";

TEST(IgnoreFileTest, NewFileGetsOneLineWithTheReason) {
  auto added = AddToIgnoreFile("", ".pstateignore", kFp, "legacy bucket");
  ASSERT_TRUE(added.ok()) << added.status().message();
  EXPECT_FALSE(added->already_listed);
  EXPECT_EQ(added->text, std::string(kFp) + "  # legacy bucket\n");
  // What it writes is what verify and scan read.
  auto read = ParseIgnoreFile(added->text, ".pstateignore");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, std::vector<std::string>{kFp});
}

TEST(IgnoreFileTest, AppendsKeepingTheFileAndEndsTheLastLine) {
  const std::string old = "# accepted\nffffffffffffffffffffffffffffffff";
  auto added =
      AddToIgnoreFile(old, "f", "0123456789ABCDEF0123456789ABCDEF", "");
  ASSERT_TRUE(added.ok());
  EXPECT_EQ(added->text, old + "\n" + kFp + "\n");  // lower-cased, no "#"
}

TEST(IgnoreFileTest, AListedFingerprintIsNotAddedTwice) {
  const std::string old = std::string(kFp) + "  # why\n";
  auto added = AddToIgnoreFile(old, "f", kFp, "again");
  ASSERT_TRUE(added.ok());
  EXPECT_TRUE(added->already_listed);
  EXPECT_EQ(added->text, old);
}

TEST(IgnoreFileTest, RefusesWhatItCannotWriteSafely) {
  // A scan value HMAC (12 hex digits) is not a finding fingerprint.
  EXPECT_EQ(AddToIgnoreFile("", "f", "38db229be781", "").status().code(),
            Errc::kInvalidArgument);
  EXPECT_EQ(AddToIgnoreFile("", "f", kFp, "two\nlines").status().code(),
            Errc::kInvalidArgument);
  // A broken ignore file is named with its line, and not extended.
  auto broken = AddToIgnoreFile("# ok\nnot-a-fingerprint\n", "f", kFp, "");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.status().code(), Errc::kFormat);
  EXPECT_NE(broken.status().message().find("f:2:"), std::string::npos)
      << broken.status().message();
}

}  // namespace
}  // namespace pstate::diag
