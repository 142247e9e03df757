// crypt::Run: the probe pass (a wrong passphrase stops at the provider),
// a provider written after the resources, and standard output that never
// receives a part of a run that fails.
#include "crypt/run.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "unit/testing/temp_dir.h"

namespace pstate::crypt {
namespace {

namespace fs = std::filesystem;
using pstate::testing::ReadFile;
using pstate::testing::TempDir;

const fs::path kDir = fs::path(PSTATE_FIXTURES_DIR) / "secrets";

std::string Fixture(const std::string& name) {
  return ReadFile((kDir / name).string());
}

/// A secret of the b64 provider: base64 of the JSON text `"hi"`, or bytes
/// that are not base64 at all.
std::string B64Secret(bool valid) {
  return std::string(R"({"4dabf18193072939515e22adb298388d":)"
                     R"("1b47061264138c4ac30d75fd1eb44270","ciphertext":")") +
         (valid ? "ImhpIg==" : "%%%not base64%%%") + "\"}";
}

std::string B64Resource(int i, bool valid = true) {
  return R"({"urn":"urn:pulumi:dev::proj::t:index:T::r)" + std::to_string(i) +
         R"(","custom":true,"type":"t:index:T","outputs":{"s":)" +
         B64Secret(valid) + "}}";
}

Config DecryptConfig(const std::string& in, const std::string& out,
                     const std::string& passphrase) {
  Config config;
  config.input = in;
  config.output = out;
  config.options.mode = CryptMode::kDecrypt;
  config.options.jobs = 1;
  config.options.passphrase = [passphrase]() -> Result<std::string> {
    return passphrase;
  };
  return config;
}

TEST(CryptRunTest, WrongPassphraseStopsAtTheProviderOfABigState) {
  // passphrase.json with 20,000 more resources after the provider: the
  // probe must stop at the provider, long before them.
  std::string state = Fixture("passphrase.json");
  std::string many;
  for (int i = 0; i < 20000; ++i) {
    many += R"({"urn":"urn:pulumi:dev::proj::t:index:T::pad)" +
            std::to_string(i) + R"(","custom":true,"type":"t:index:T"},)";
  }
  std::size_t at = state.find("\"resources\": [");
  ASSERT_NE(at, std::string::npos);
  state.insert(at + 14, many);
  TempDir dir;
  std::string in = dir.Write("big.json", state);
  std::string out = dir.File("out.json");
  Result<CryptStats> r =
      crypt::Run(DecryptConfig(in, out, "not the passphrase"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kCrypto);
  EXPECT_EQ(r.status().message().rfind(in + ":12:25: incorrect passphrase", 0),
            0u)
      << r.status().message();
  EXPECT_GT(LastProbeBytesForTesting(), 0u);
  EXPECT_LT(LastProbeBytesForTesting(), 1000u);  // of more than 1.5 MB
  EXPECT_GT(state.size(), std::size_t{1500000});
  EXPECT_FALSE(fs::exists(out));
}

TEST(CryptRunTest, ProviderAfterTheResourcesStillDecrypts) {
  std::string state = R"({"version":3,"deployment":{"manifest":{"time":)"
                      R"("2024-01-01T00:00:00Z","magic":"","version":""},)"
                      R"("resources":[)" +
                      B64Resource(1) +
                      R"(],"secrets_providers":{"type":"b64"}}})";
  TempDir dir;
  std::string in = dir.Write("late.json", state);
  std::string out = dir.File("out.json");
  Result<CryptStats> r = crypt::Run(DecryptConfig(in, out, ""));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->secrets, 1u);
  std::string written = ReadFile(out);
  EXPECT_NE(written.find("\"plaintext\""), std::string::npos);
  EXPECT_EQ(written.find("ImhpIg=="), std::string::npos);
}

/// Runs `config` with standard output redirected to a file; returns what
/// reached it.
std::string StdoutOf(Config config, Result<CryptStats>* result) {
  TempDir dir;
  std::string path = dir.File("stdout");
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  EXPECT_GE(fd, 0);
  int saved = ::dup(1);
  ::dup2(fd, 1);
  ::close(fd);
  config.output = "-";
  *result = crypt::Run(std::move(config));
  ::dup2(saved, 1);
  ::close(saved);
  return ReadFile(path);
}

TEST(CryptRunTest, StdoutGetsNothingWhenASecretFailsHalfway) {
  // Resource 1 decrypts; resource 2000 does not. Nothing may reach
  // standard output, although resource 1's plaintext was ready long before.
  std::string state = R"({"version":3,"deployment":{"manifest":{"time":)"
                      R"("2024-01-01T00:00:00Z","magic":"","version":""},)"
                      R"("secrets_providers":{"type":"b64"},"resources":[)";
  for (int i = 0; i < 2000; ++i) state += B64Resource(i) + ",";
  state += B64Resource(2000, /*valid=*/false) + "]}}";
  TempDir dir;
  std::string in = dir.Write("half.json", state);
  Result<CryptStats> r = Status(Errc::kIo, "not run");
  std::string seen = StdoutOf(DecryptConfig(in, "-", ""), &r);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cannot decrypt the secret here"),
            std::string::npos)
      << r.status().message();
  EXPECT_EQ(seen, "");

  // The same state without the bad secret reaches stdout whole.
  std::string good = state;
  good.replace(good.rfind("%%%not base64%%%"), 16, "ImhpIg==");
  std::string good_in = dir.Write("good.json", good);
  std::string whole = StdoutOf(DecryptConfig(good_in, "-", ""), &r);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->secrets, 2001u);
  EXPECT_EQ(whole.substr(0, 1), "{");
  EXPECT_EQ(whole.substr(whole.size() - 2), "}\n");
}

TEST(CryptRunTest, GzipInputIsReplayed) {
  TempDir dir;
  std::string plain = dir.Write("b64.json", Fixture("b64.json"));
  std::string gz = dir.File("b64.json.gz");
  ASSERT_EQ(std::system(("gzip -c -n " + plain + " > " + gz).c_str()), 0);
  std::string from_plain = dir.File("a.json");
  std::string from_gzip = dir.File("b.json");
  ASSERT_TRUE(crypt::Run(DecryptConfig(plain, from_plain, "")).ok());
  Result<CryptStats> r = crypt::Run(DecryptConfig(gz, from_gzip, ""));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(ReadFile(from_plain), ReadFile(from_gzip));
}

}  // namespace
}  // namespace pstate::crypt
