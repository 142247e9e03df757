#include "crypto/fingerprint.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "base/hex.h"

namespace pstate::crypto {
namespace {

TEST(FingerprintTest, FormatAndStability) {
  Fingerprinter f = Fingerprinter::WithRandomKey();
  const std::string a = f.Fingerprint("value");
  ASSERT_EQ(a.size(), 12u + 64u);
  EXPECT_EQ(a.rfind("hmac-sha256:", 0), 0u);
  EXPECT_TRUE(IsLowerHex(a.substr(12), 64));
  EXPECT_EQ(f.Fingerprint("value"), a);
  EXPECT_NE(f.Fingerprint("value2"), a);
  EXPECT_EQ(f.ShortFingerprint("value"), a.substr(12, 12));
  EXPECT_EQ(f.Fingerprint("").size(), 76u);
}

TEST(FingerprintTest, KnownHmacVector) {
  // RFC 4231 test case 2: key "Jefe".
  Result<Fingerprinter> f = Fingerprinter::FromKey("Jefe");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->Fingerprint("what do ya want for nothing?"),
            "hmac-sha256:"
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(FingerprintTest, DifferentKeysDiffer) {
  Fingerprinter a = Fingerprinter::WithRandomKey();
  Fingerprinter b = Fingerprinter::WithRandomKey();
  EXPECT_NE(a.Fingerprint("value"), b.Fingerprint("value"));
  EXPECT_NE(a.ShortFingerprint("value"), b.ShortFingerprint("value"));
}

TEST(FingerprintTest, KeyFile) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("pstate-fingerprint-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "key", std::ios::binary) << "Jefe";
  std::ofstream(dir / "key-nl", std::ios::binary) << "Jefe\n";
  std::ofstream(dir / "empty", std::ios::binary);

  Result<Fingerprinter> from_file = Fingerprinter::FromKeyFile(dir / "key");
  ASSERT_TRUE(from_file.ok());
  EXPECT_EQ(from_file->Fingerprint("x"),
            Fingerprinter::FromKey("Jefe")->Fingerprint("x"));
  // The bytes are the key: no trimming.
  Result<Fingerprinter> with_newline =
      Fingerprinter::FromKeyFile(dir / "key-nl");
  ASSERT_TRUE(with_newline.ok());
  EXPECT_NE(with_newline->Fingerprint("x"), from_file->Fingerprint("x"));

  EXPECT_EQ(Fingerprinter::FromKeyFile(dir / "empty").status().code(),
            Errc::kInvalidArgument);
  EXPECT_EQ(Fingerprinter::FromKeyFile(dir / "absent").status().code(),
            Errc::kNotFound);
  EXPECT_EQ(Fingerprinter::FromKeyFile(dir).status().code(), Errc::kIo);
  EXPECT_EQ(Fingerprinter::FromKey("").status().code(), Errc::kInvalidArgument);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pstate::crypto
