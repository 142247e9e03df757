#include "crypto/provider_crypter.h"

#include <gtest/gtest.h>

#include <string>

namespace pstate::crypto {
namespace {

// Pulumi's pkg/secrets/passphrase/manager_test.go vector.
constexpr char kPassphrase[] = "password";
constexpr char kSaltState[] =
    "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==";

state::SecretsProvider Provider(state::ProviderKind kind,
                                std::string salt = "") {
  state::SecretsProvider p;
  p.kind = kind;
  p.salt = std::move(salt);
  return p;
}

/// A source that counts how often it is asked.
struct Source {
  int asked = 0;
  Result<std::string> answer;
  PassphraseSource Fn() {
    return [this] {
      ++asked;
      return answer;
    };
  }
};

TEST(UnlockTest, NoProviderGivesNothing) {
  Unlocked u = Unlock(Provider(state::ProviderKind::kNone), nullptr);
  EXPECT_FALSE(u.crypter.has_value());
  EXPECT_EQ(u.failure, UnlockFailure::kNone);
}

TEST(UnlockTest, B64NeedsNoPassphrase) {
  Source source{0, Status(Errc::kInvalidArgument, "none")};
  Unlocked u = Unlock(Provider(state::ProviderKind::kB64), source.Fn());
  ASSERT_TRUE(u.crypter.has_value());
  EXPECT_EQ(source.asked, 0);
  std::string ct = u.crypter->Encrypt("\"hi\"");
  Result<std::string> pt = u.crypter->Decrypt(ct);
  ASSERT_TRUE(pt.ok());
  EXPECT_EQ(*pt, "\"hi\"");
}

TEST(UnlockTest, OfflineAndUnknownProviders) {
  for (auto kind :
       {state::ProviderKind::kService, state::ProviderKind::kCloud}) {
    Unlocked u = Unlock(Provider(kind), nullptr);
    EXPECT_FALSE(u.crypter.has_value());
    EXPECT_EQ(u.failure, UnlockFailure::kOffline);
  }
  EXPECT_EQ(Unlock(Provider(state::ProviderKind::kOther), nullptr).failure,
            UnlockFailure::kUnknown);
}

TEST(UnlockTest, PassphraseChecksTheSaltBeforeAsking) {
  Source source{0, std::string(kPassphrase)};
  Unlocked u = Unlock(Provider(state::ProviderKind::kPassphrase), source.Fn());
  EXPECT_EQ(u.failure, UnlockFailure::kNoSalt);
  EXPECT_EQ(source.asked, 0);
}

TEST(UnlockTest, MissingPassphrase) {
  Unlocked none =
      Unlock(Provider(state::ProviderKind::kPassphrase, kSaltState), nullptr);
  EXPECT_EQ(none.failure, UnlockFailure::kNoPassphrase);
  EXPECT_EQ(none.status.code(), Errc::kInvalidArgument);
  EXPECT_EQ(none.status.message(), "no passphrase was given");

  Source failing{0, Status(Errc::kIo, "cannot read the file")};
  Unlocked io = Unlock(Provider(state::ProviderKind::kPassphrase, kSaltState),
                       failing.Fn());
  EXPECT_EQ(io.failure, UnlockFailure::kNoPassphrase);
  EXPECT_EQ(io.status.code(), Errc::kIo);
  EXPECT_EQ(failing.asked, 1);
}

TEST(UnlockTest, PassphraseUnlocksOrFailsOnTheSalt) {
  Source wrong{0, std::string("wrong")};
  Unlocked bad = Unlock(Provider(state::ProviderKind::kPassphrase, kSaltState),
                        wrong.Fn());
  EXPECT_EQ(bad.failure, UnlockFailure::kBadSalt);
  EXPECT_EQ(bad.status.code(), Errc::kCrypto);

  Source malformed{0, std::string(kPassphrase)};
  Unlocked shape =
      Unlock(Provider(state::ProviderKind::kPassphrase, "v1"), malformed.Fn());
  EXPECT_EQ(shape.failure, UnlockFailure::kBadSalt);
  EXPECT_EQ(shape.status.code(), Errc::kFormat);

  Source right{0, std::string(kPassphrase)};
  Unlocked ok = Unlock(Provider(state::ProviderKind::kPassphrase, kSaltState),
                       right.Fn());
  ASSERT_TRUE(ok.crypter.has_value()) << ok.status.message();
  EXPECT_EQ(ok.failure, UnlockFailure::kNone);
  EXPECT_EQ(right.asked, 1);
  std::string ct = ok.crypter->Encrypt("\"secret\"");
  EXPECT_EQ(ct.substr(0, 3), "v1:");
  Result<std::string> pt = ok.crypter->Decrypt(ct);
  ASSERT_TRUE(pt.ok());
  EXPECT_EQ(*pt, "\"secret\"");
}

}  // namespace
}  // namespace pstate::crypto
