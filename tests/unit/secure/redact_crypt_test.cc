// Tests for redact, decrypt and encrypt (library level), on the states in
// fixtures/secrets/ (see its README for passphrases and plaintexts).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pstate/secrets/passphrase.h"
#include "pstate/secure/crypt_pass.h"
#include "pstate/secure/redactor.h"
#include "pstate/secure/rewrite.h"

namespace pstate::secure {
namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(PSTATE_FIXTURES_DIR) / "secrets";
const char* const kPlaintexts[] = {
    "hunter2-s3cret",  "tok-PLAINTEXT-42", "nested-SECRET-9",
    "result-SECRET-3", "hash-SECRET-4",    "pending-SECRET-5",
    "env-SECRET-VALUE-6", "db-SECURE-config-1", "pstate fixture passphrase"};

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Fails the test when `text` contains any fixture plaintext or passphrase.
/// `env_vars`: also the integrity-error env var (plain in the fixtures, so
/// only redact removes it; encrypt leaves it).
void ExpectNoPlaintext(const std::string& text, const std::string& what,
                       bool env_vars = true) {
  for (const char* p : kPlaintexts) {
    if (!env_vars && std::string_view(p) == "env-SECRET-VALUE-6") continue;
    EXPECT_EQ(text.find(p), std::string::npos)
        << what << " contains a fixture plaintext (not printed)";
  }
}

class SecureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() /
           ("pstate-secure-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(tmp_);
    fs::create_directories(tmp_);
    ::unsetenv("PULUMI_CONFIG_PASSPHRASE");
    ::unsetenv("PULUMI_CONFIG_PASSPHRASE_FILE");
  }
  void TearDown() override { fs::remove_all(tmp_); }

  Status Redact(const fs::path& in, const fs::path& out, RedactOptions o,
                RedactStats* stats = nullptr) {
    Redactor redactor(std::move(o));
    RewriteOptions options;
    options.input = in.string();
    options.output = out.string();
    RewriteJob job;
    job.make_pass = [&](OutputGate*) -> state::StateWriter::Pass {
      return [&](state::Leaf& l, state::Context& c) { redactor.Process(l, c); };
    };
    Status s = RewriteState(options, job);
    if (stats) *stats = redactor.stats();
    return s;
  }

  Status Crypt(CryptMode mode, const fs::path& in, const fs::path& out,
               std::optional<fs::path> passphrase_file = std::nullopt,
               unsigned threads = 0) {
    CryptOptions co;
    co.mode = mode;
    co.passphrase_file = passphrase_file;
    co.threads = threads;
    co.input_name = in.filename().string();
    std::unique_ptr<CryptPass> pass;
    RewriteOptions options;
    options.input = in.string();
    options.output = out.string();
    options.hold_output = true;
    RewriteJob job;
    job.make_pass = [&](OutputGate* gate) -> state::StateWriter::Pass {
      pass = std::make_unique<CryptPass>(co, gate);
      return [&](state::Leaf& l, state::Context& c) { pass->Process(l, c); };
    };
    job.pass_status = [&] { return pass->status(); };
    Status s = RewriteState(options, job);
    messages_ += s.message() + "\n";
    return s;
  }

  fs::path tmp_;
  std::string messages_;
};

TEST(GlobTest, Matches) {
  EXPECT_TRUE(GlobMatch("*password*", "dbPassword"));
  EXPECT_TRUE(GlobMatch("*PASSWORD*", "password"));
  EXPECT_TRUE(GlobMatch("a?c", "abc"));
  EXPECT_FALSE(GlobMatch("a?c", "ac"));
  EXPECT_TRUE(GlobMatch("*", ""));
  EXPECT_FALSE(GlobMatch("*key", "keys"));
  EXPECT_TRUE(GlobMatch("*a*b*c", "xxaxxbxxbc"));
  EXPECT_FALSE(GlobMatch("token", "tokens"));
}

TEST(PlaceholderTest, ShapesPassTheChecks) {
  // The salt placeholder must look like a salt, and no passphrase opens it.
  auto c = secrets::PassphraseCrypter::FromSalt(kRedactedSalt, "");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), Errc::kCrypto);
}

TEST_F(SecureTest, PulumiTestVectorDecrypts) {
  fs::path pass = tmp_ / "pass";
  std::ofstream(pass) << "password";
  ASSERT_TRUE(Crypt(CryptMode::kDecrypt, kDir / "test-vector.json",
                    tmp_ / "out.json", pass)
                  .ok());
  EXPECT_EQ(ReadFile(tmp_ / "out.json"),
            ReadFile(kDir / "test-vector-plain.json"));
}

TEST_F(SecureTest, DecryptEncryptRoundTrip) {
  fs::path pass = kDir / "passphrase.txt";
  for (unsigned threads : {1u, 4u}) {
    ASSERT_TRUE(Crypt(CryptMode::kEncrypt, kDir / "passphrase-plain.json",
                      tmp_ / "enc1.json", pass, threads)
                    .ok());
    ASSERT_TRUE(Crypt(CryptMode::kEncrypt, kDir / "passphrase-plain.json",
                      tmp_ / "enc2.json", pass, threads)
                    .ok());
    std::string e1 = ReadFile(tmp_ / "enc1.json");
    ExpectNoPlaintext(e1, "encrypted state", false);
    EXPECT_NE(e1, ReadFile(tmp_ / "enc2.json")) << "nonces must be fresh";
    ASSERT_TRUE(Crypt(CryptMode::kDecrypt, tmp_ / "enc1.json",
                      tmp_ / "dec.json", pass, threads)
                    .ok());
    EXPECT_EQ(ReadFile(tmp_ / "dec.json"),
              ReadFile(kDir / "passphrase-plain.json"));
  }
  // From the environment as well.
  ::setenv("PULUMI_CONFIG_PASSPHRASE", "pstate fixture passphrase", 1);
  ASSERT_TRUE(Crypt(CryptMode::kDecrypt, kDir / "passphrase.json",
                    tmp_ / "dec2.json")
                  .ok());
  EXPECT_EQ(ReadFile(tmp_ / "dec2.json"),
            ReadFile(kDir / "passphrase-plain.json"));
  ExpectNoPlaintext(messages_, "messages");
}

TEST_F(SecureTest, B64RoundTrip) {
  ASSERT_TRUE(
      Crypt(CryptMode::kDecrypt, kDir / "b64.json", tmp_ / "d.json").ok());
  EXPECT_EQ(ReadFile(tmp_ / "d.json"), ReadFile(kDir / "b64-plain.json"));
  ASSERT_TRUE(
      Crypt(CryptMode::kEncrypt, tmp_ / "d.json", tmp_ / "e.json").ok());
  EXPECT_EQ(ReadFile(tmp_ / "e.json"), ReadFile(kDir / "b64.json"));
}

TEST_F(SecureTest, WrongAndEmptyPassphrasesWriteNothing) {
  for (const char* wrong : {"", "wrong", "pstate fixture passphrase "}) {
    ::setenv("PULUMI_CONFIG_PASSPHRASE", wrong, 1);
    Status s = Crypt(CryptMode::kDecrypt, kDir / "passphrase.json",
                     tmp_ / "out.json");
    EXPECT_EQ(s.code(), Errc::kCrypto);
    EXPECT_NE(s.message().find("incorrect passphrase"), std::string::npos);
    EXPECT_FALSE(fs::exists(tmp_ / "out.json"));
    s = Crypt(CryptMode::kEncrypt, kDir / "passphrase-plain.json",
              tmp_ / "out.json");
    EXPECT_EQ(s.code(), Errc::kCrypto);
    EXPECT_FALSE(fs::exists(tmp_ / "out.json"));
  }
  // The empty passphrase is a valid one for a state made with it.
  ::setenv("PULUMI_CONFIG_PASSPHRASE", "", 1);
  ASSERT_TRUE(Crypt(CryptMode::kDecrypt, kDir / "empty-passphrase.json",
                    tmp_ / "out.json")
                  .ok());
  EXPECT_EQ(ReadFile(tmp_ / "out.json"),
            ReadFile(kDir / "empty-passphrase-plain.json"));
  // No passphrase at all.
  ::unsetenv("PULUMI_CONFIG_PASSPHRASE");
  Status s = Crypt(CryptMode::kDecrypt, kDir / "passphrase.json",
                   tmp_ / "none.json");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("PULUMI_CONFIG_PASSPHRASE"), std::string::npos);
  EXPECT_FALSE(fs::exists(tmp_ / "none.json"));
  ExpectNoPlaintext(messages_, "messages");
}

TEST_F(SecureTest, ServiceAndCloudExplainWhy) {
  Status s = Crypt(CryptMode::kDecrypt, kDir / "service.json", tmp_ / "o");
  EXPECT_EQ(s.code(), Errc::kUnsupported);
  EXPECT_NE(s.message().find("Pulumi Cloud"), std::string::npos);
  s = Crypt(CryptMode::kDecrypt, kDir / "cloud.json", tmp_ / "o");
  EXPECT_EQ(s.code(), Errc::kUnsupported);
  EXPECT_NE(s.message().find("KMS"), std::string::npos);
  EXPECT_FALSE(fs::exists(tmp_ / "o"));
}

TEST_F(SecureTest, RedactsEveryTarget) {
  for (const char* name :
       {"passphrase.json", "passphrase-plain.json", "b64.json", "b64-plain.json",
        "service.json", "cloud.json", "checkpoint.json"}) {
    RedactStats stats;
    ASSERT_TRUE(Redact(kDir / name, tmp_ / "r.json", {}, &stats).ok()) << name;
    std::string out = ReadFile(tmp_ / "r.json");
    ExpectNoPlaintext(out, name);
    EXPECT_EQ(stats.secrets, 8u) << name;
    EXPECT_EQ(stats.env_vars, 2u) << name;
    EXPECT_EQ(out.find("env-SECRET"), std::string::npos);
    // The provider's state values are gone, its type is kept.
    EXPECT_EQ(out.find("acme-SECRET-org"), std::string::npos);
    EXPECT_EQ(out.find("pstate-SECRET-key"), std::string::npos);
    EXPECT_EQ(out.find("c2VjcmV0LWtleS1TRUNSRVQtYnl0ZXM="), std::string::npos);
    EXPECT_EQ(out.find("A87qv3df9vE="), std::string::npos);
    // Everything else is unchanged: numbers as written.
    EXPECT_NE(out.find("12345678901234567890"), std::string::npos);
    // Plain values stay unless asked for.
    EXPECT_NE(out.find("plain-PASSWORD-7"), std::string::npos);
  }
  RedactStats stats;
  ASSERT_TRUE(Redact(kDir / "checkpoint.json", tmp_ / "c.json", {}, &stats).ok());
  EXPECT_EQ(stats.config_values, 1u);
  RedactOptions also;
  also.also = {"*PASSWORD*"};
  ASSERT_TRUE(Redact(kDir / "checkpoint.json", tmp_ / "a.json", also, &stats).ok());
  std::string out = ReadFile(tmp_ / "a.json");
  EXPECT_EQ(out.find("PASSWORD-"), std::string::npos);
  EXPECT_EQ(stats.also_values, 5u);  // config, dbPassword, the list's 3 items
}

TEST_F(SecureTest, ExistingOutputSurvivesAFailure) {
  std::ofstream(tmp_ / "out.json") << "keep";
  fs::path bad = tmp_ / "bad.json";
  std::ofstream(bad) << "{\"version\":3,\"deployment\":{\"resources\":[";
  EXPECT_FALSE(Redact(bad, tmp_ / "out.json", {}).ok());
  EXPECT_EQ(ReadFile(tmp_ / "out.json"), "keep");
  EXPECT_FALSE(Redact(tmp_ / "out.json", tmp_ / "out.json", {}).ok());
}

TEST_F(SecureTest, FingerprintsStableUnderOneKeyDifferentUnderTwo) {
  auto key1 = secrets::Fingerprinter::FromKey("key one");
  auto key2 = secrets::Fingerprinter::FromKey("key two");
  ASSERT_TRUE(key1.ok() && key2.ok());
  RedactOptions o1, o1b, o2;
  o1.fingerprinter = *key1;
  o1b.fingerprinter = *key1;
  o2.fingerprinter = *key2;
  ASSERT_TRUE(Redact(kDir / "passphrase-plain.json", tmp_ / "1.json", o1).ok());
  ASSERT_TRUE(Redact(kDir / "passphrase-plain.json", tmp_ / "1b.json", o1b).ok());
  ASSERT_TRUE(Redact(kDir / "passphrase-plain.json", tmp_ / "2.json", o2).ok());
  std::string a = ReadFile(tmp_ / "1.json"), b = ReadFile(tmp_ / "1b.json"),
              c = ReadFile(tmp_ / "2.json");
  ExpectNoPlaintext(a, "fingerprinted");
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  // The two equal "hunter2-s3cret" secrets share one fingerprint.
  std::string fp = key1->Fingerprint("\"hunter2-s3cret\"");
  std::size_t first = a.find(fp);
  ASSERT_NE(first, std::string::npos);
  EXPECT_NE(a.find(fp, first + 1), std::string::npos);
  EXPECT_EQ(c.find(fp), std::string::npos);
  // Fingerprinted ciphertexts keep the v1 shape.
  ASSERT_TRUE(Redact(kDir / "passphrase.json", tmp_ / "3.json", o1).ok());
  EXPECT_NE(ReadFile(tmp_ / "3.json").find("\"v1:AAAAAAAAAAAAAAAA:"),
            std::string::npos);
}

/// Every golden case of these commands: its expected output and messages
/// (identical to what the binary printed when the golden tests pass).
TEST(GoldenOutputsTest, NoPlaintextAnywhere) {
  fs::path golden = fs::path(PSTATE_FIXTURES_DIR).parent_path() / "tests" / "golden";
  int files = 0;
  for (const char* command : {"redact", "encrypt"}) {
    if (!fs::exists(golden / command)) continue;
    for (const auto& e : fs::recursive_directory_iterator(golden / command)) {
      if (!e.is_regular_file() || e.path().filename() == "cmd") continue;
      if (e.path().filename() == "truncated.json") continue;
      ExpectNoPlaintext(ReadFile(e.path()), e.path().string(),
                        std::string_view(command) == "redact");
      ++files;
    }
  }
  // decrypt writes plaintexts by design; only its messages are checked.
  for (const auto& e : fs::recursive_directory_iterator(golden / "decrypt")) {
    if (e.path().filename() != "stderr") continue;
    ExpectNoPlaintext(ReadFile(e.path()), e.path().string());
    ++files;
  }
  EXPECT_GT(files, 20);
}

}  // namespace
}  // namespace pstate::secure
