#include "crypto/passphrase.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "base/base64.h"
#include "crypto/ciphertext.h"

namespace pstate::crypto {
namespace {

// Pulumi's pkg/secrets/passphrase/manager_test.go vector.
constexpr char kPassphrase[] = "password";
constexpr char kSaltState[] =
    "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==";
constexpr char kCheck[] =
    "v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==";

// PBKDF2 with 1e6 rounds is slow (more so under sanitizers): derive the key
// for the vector once for the whole suite.
class PassphraseCrypterTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    Result<PassphraseCrypter> crypter =
        PassphraseCrypter::FromSalt(kSaltState, kPassphrase);
    ASSERT_TRUE(crypter.ok()) << crypter.status().message();
    crypter_ = new PassphraseCrypter(*crypter);
  }
  static void TearDownTestSuite() {
    delete crypter_;
    crypter_ = nullptr;
  }
  static const PassphraseCrypter& crypter() { return *crypter_; }

  // Replaces one character of the base64 `part` (1 = nonce, 2 = sealed) of a
  // ciphertext with another alphabet character, keeping the shape valid.
  static std::string Tamper(const std::string& ciphertext, int part,
                            std::size_t index) {
    std::size_t start = ciphertext.find(':') + 1;
    if (part == 2) start = ciphertext.find(':', start) + 1;
    std::string out = ciphertext;
    char& c = out[start + index];
    c = c == 'A' ? 'B' : 'A';
    return out;
  }

  static PassphraseCrypter* crypter_;
};

PassphraseCrypter* PassphraseCrypterTest::crypter_ = nullptr;

TEST_F(PassphraseCrypterTest, DecryptsPulumiVector) {
  Result<std::string> check = crypter().Decrypt(kCheck);
  ASSERT_TRUE(check.ok()) << check.status().message();
  EXPECT_EQ(*check, "pulumi");
}

TEST_F(PassphraseCrypterTest, WrongPassphraseIsCryptoError) {
  Result<PassphraseCrypter> wrong =
      PassphraseCrypter::FromSalt(kSaltState, "Password");
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), Errc::kCrypto);
  EXPECT_EQ(wrong.status().message(), "incorrect passphrase");
}

TEST_F(PassphraseCrypterTest, EmptyPassphraseIsCryptoError) {
  Result<PassphraseCrypter> empty = PassphraseCrypter::FromSalt(kSaltState, "");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), Errc::kCrypto);
}

TEST_F(PassphraseCrypterTest, MalformedSaltStatesFailBeforeDerivation) {
  for (const char* state :
       {"", "v1", "v1:fozI5u6B030=",
        "v2:fozI5u6B030=:"
        "v1:F+6ZduKKd8G0/V7L:x",
        "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L", "v1:fozI5u6B030=:garbage",
        "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/"
        "V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==:x"}) {
    Result<PassphraseCrypter> r =
        PassphraseCrypter::FromSalt(state, kPassphrase);
    ASSERT_FALSE(r.ok()) << state;
    EXPECT_EQ(r.status().code(), Errc::kFormat) << state;
  }
  Result<PassphraseCrypter> bad_salt = PassphraseCrypter::FromSalt(
      "v1:foz!5u6B030=:" + std::string(kCheck), kPassphrase);
  ASSERT_FALSE(bad_salt.ok());
  EXPECT_EQ(bad_salt.status().code(), Errc::kSyntax);
}

TEST_F(PassphraseCrypterTest, RoundTripsValues) {
  std::string megabyte(1 << 20, '\0');
  for (std::size_t i = 0; i < megabyte.size(); ++i) {
    megabyte[i] = static_cast<char>((i * 131 + 7) & 0xFF);
  }
  const std::vector<std::string> values = {
      "",
      "\"hunter2\"",
      "{\"a\":1}",
      "p\xC3\xA4ssw\xC3\xB6rd \xF0\x9F\x94\x91",
      std::string("nul\0inside", 10),
      megabyte};
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string ciphertext = crypter().Encrypt(values[i]);
    EXPECT_TRUE(IsPassphraseCiphertextShape(ciphertext)) << "value #" << i;
    Result<std::string> plaintext = crypter().Decrypt(ciphertext);
    ASSERT_TRUE(plaintext.ok())
        << "value #" << i << ": " << plaintext.status().message();
    EXPECT_TRUE(*plaintext == values[i]) << "value #" << i;
  }
}

TEST_F(PassphraseCrypterTest, FreshNonceEachEncryption) {
  EXPECT_NE(crypter().Encrypt("same"), crypter().Encrypt("same"));
}

TEST_F(PassphraseCrypterTest, TamperingIsDetected) {
  const std::string ciphertext = crypter().Encrypt("\"a secret value\"");
  const std::size_t sealed_len = ciphertext.size() - ciphertext.rfind(':') - 1;
  // Nonce, first ciphertext character, last tag character before padding.
  for (auto [part, index] : {std::pair<int, std::size_t>{1, 0},
                             {1, 15},
                             {2, 0},
                             {2, sealed_len - 3}}) {
    Result<std::string> r = crypter().Decrypt(Tamper(ciphertext, part, index));
    ASSERT_FALSE(r.ok()) << "part " << part << " index " << index;
    EXPECT_EQ(r.status().code(), Errc::kCrypto);
  }
  // Truncating the tag by a byte also fails authentication.
  Result<std::string> sealed =
      Base64Decode(ciphertext.substr(ciphertext.rfind(':') + 1));
  ASSERT_TRUE(sealed.ok());
  const std::string truncated =
      ciphertext.substr(0, ciphertext.rfind(':') + 1) +
      Base64Encode(sealed->substr(0, sealed->size() - 1));
  EXPECT_EQ(crypter().Decrypt(truncated).status().code(), Errc::kCrypto);
}

TEST_F(PassphraseCrypterTest, MalformedCiphertextsAreErrorsNotCrashes) {
  struct Case {
    const char* text;
    Errc code;
  };
  const Case cases[] = {
      {"", Errc::kFormat},
      {"v1", Errc::kFormat},
      {"v1:F+6ZduKKd8G0/V7L", Errc::kFormat},
      {"v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==:", Errc::kFormat},
      {"v2:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==", Errc::kFormat},
      {"v1:F+6ZduKKd8G0/V7L!:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==", Errc::kSyntax},
      {"v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ=", Errc::kSyntax},
      {"v1:F+6ZduKKd8G0:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==",
       Errc::kFormat},  // 9-byte nonce
      {"v1:F+6ZduKKd8G0/V7LAAAA:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==",
       Errc::kFormat},
      {"v1:F+6ZduKKd8G0/V7L:", Errc::kFormat},                  // no tag
      {"v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEA", Errc::kFormat},  // 12 bytes
      {"v1::", Errc::kFormat},
      {":::", Errc::kFormat},
  };
  for (const Case& c : cases) {
    Result<std::string> r = crypter().Decrypt(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.status().code(), c.code) << c.text;
  }
}

TEST_F(PassphraseCrypterTest, ConcurrentUseIsSafe) {
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < 200; ++i) {
        const std::string value =
            "value-" + std::to_string(t) + "-" + std::to_string(i);
        Result<std::string> back = crypter().Decrypt(crypter().Encrypt(value));
        if (!back.ok() || *back != value)
          ++failures[static_cast<std::size_t>(t)];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int f : failures) EXPECT_EQ(f, 0);
}

TEST_F(PassphraseCrypterTest, CreatesASaltStateThatUnlocks) {
  auto created = PassphraseCrypter::Create("correct horse");
  ASSERT_TRUE(created.ok());
  auto& [fresh, salt_state] = *created;
  EXPECT_TRUE(IsPassphraseSaltShape(salt_state))
      << *PassphraseSaltShapeProblem(salt_state);
  const std::string ciphertext = fresh.Encrypt("\"x\"");

  Result<PassphraseCrypter> reopened =
      PassphraseCrypter::FromSalt(salt_state, "correct horse");
  ASSERT_TRUE(reopened.ok()) << reopened.status().message();
  Result<std::string> plaintext = reopened->Decrypt(ciphertext);
  ASSERT_TRUE(plaintext.ok());
  EXPECT_TRUE(*plaintext == "\"x\"");

  // A crypter for another stack (other salt) cannot read it.
  EXPECT_EQ(crypter().Decrypt(ciphertext).status().code(), Errc::kCrypto);
}

TEST(PassphraseCrypterFromKeyTest, RequiresThirtyTwoBytes) {
  std::vector<std::uint8_t> key(31, 7);
  EXPECT_EQ(PassphraseCrypter::FromKey(key).status().code(),
            Errc::kInvalidArgument);
  key.push_back(7);
  Result<PassphraseCrypter> crypter = PassphraseCrypter::FromKey(key);
  ASSERT_TRUE(crypter.ok());
  Result<std::string> back = crypter->Decrypt(crypter->Encrypt("data key"));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(*back == "data key");
}

}  // namespace
}  // namespace pstate::crypto
