// Tests for redact, decrypt and encrypt (library level), on the states in
// fixtures/secrets/ (see its README for passphrases and plaintexts).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "crypt/run.h"
#include "crypto/passphrase.h"
#include "crypto/passphrase_source.h"
#include "redact/run.h"
#include "scan/known_secrets.h"

namespace pstate::crypt {
namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(PSTATE_FIXTURES_DIR) / "secrets";
const char* const kPlaintexts[] = {
    "hunter2-s3cret",     "tok-PLAINTEXT-42",   "nested-SECRET-9",
    "result-SECRET-3",    "hash-SECRET-4",      "pending-SECRET-5",
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

  Status Redact(const fs::path& in, const fs::path& out,
                redact::RedactOptions o, redact::RedactStats* stats = nullptr) {
    redact::Config config;
    config.input = in.string();
    config.output = out.string();
    config.options = std::move(o);
    Result<redact::RedactStats> r = redact::Run(std::move(config));
    if (stats && r.ok()) *stats = *r;
    return r.status();
  }

  Status Crypt(crypt::CryptMode mode, const fs::path& in, const fs::path& out,
               std::optional<fs::path> passphrase_file = std::nullopt,
               unsigned threads = 0) {
    crypt::Config config;
    config.input = in.string();
    config.output = out.string();
    config.options.mode = mode;
    config.options.passphrase = [passphrase_file] {
      // What the command line gives (cli/passphrase.cc reads the same
      // variable): the tests set PULUMI_CONFIG_PASSPHRASE.
      crypto::PassphraseInputs inputs;
      inputs.file = passphrase_file;
      if (const char* phrase = std::getenv(crypto::kPassphraseEnv)) {
        inputs.passphrase = phrase;
      }
      return crypto::ResolvePassphrase(inputs);
    };
    config.options.jobs = static_cast<int>(threads);
    Result<crypt::CryptStats> r = crypt::Run(std::move(config));
    messages_ += r.status().message() + "\n";
    return r.status();
  }

  fs::path tmp_;
  std::string messages_;
};

TEST(PlaceholderTest, ShapesPassTheChecks) {
  // The salt placeholder must look like a salt, and no passphrase opens it.
  auto c = crypto::PassphraseCrypter::FromSalt(redact::kRedactedSalt, "");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), Errc::kCrypto);
}

TEST_F(SecureTest, PulumiTestVectorDecrypts) {
  fs::path pass = tmp_ / "pass";
  std::ofstream(pass) << "password";
  ASSERT_TRUE(Crypt(crypt::CryptMode::kDecrypt, kDir / "test-vector.json",
                    tmp_ / "out.json", pass)
                  .ok());
  EXPECT_EQ(ReadFile(tmp_ / "out.json"),
            ReadFile(kDir / "test-vector-plain.json"));
}

TEST_F(SecureTest, DecryptEncryptRoundTrip) {
  fs::path pass = kDir / "passphrase.txt";
  for (unsigned threads : {1u, 4u}) {
    ASSERT_TRUE(Crypt(crypt::CryptMode::kEncrypt,
                      kDir / "passphrase-plain.json", tmp_ / "enc1.json", pass,
                      threads)
                    .ok());
    ASSERT_TRUE(Crypt(crypt::CryptMode::kEncrypt,
                      kDir / "passphrase-plain.json", tmp_ / "enc2.json", pass,
                      threads)
                    .ok());
    std::string e1 = ReadFile(tmp_ / "enc1.json");
    ExpectNoPlaintext(e1, "encrypted state", false);
    EXPECT_NE(e1, ReadFile(tmp_ / "enc2.json")) << "nonces must be fresh";
    ASSERT_TRUE(Crypt(crypt::CryptMode::kDecrypt, tmp_ / "enc1.json",
                      tmp_ / "dec.json", pass, threads)
                    .ok());
    EXPECT_EQ(ReadFile(tmp_ / "dec.json"),
              ReadFile(kDir / "passphrase-plain.json"));
  }
  // From the environment as well.
  ::setenv("PULUMI_CONFIG_PASSPHRASE", "pstate fixture passphrase", 1);
  ASSERT_TRUE(Crypt(crypt::CryptMode::kDecrypt, kDir / "passphrase.json",
                    tmp_ / "dec2.json")
                  .ok());
  EXPECT_EQ(ReadFile(tmp_ / "dec2.json"),
            ReadFile(kDir / "passphrase-plain.json"));
  ExpectNoPlaintext(messages_, "messages");
}

TEST_F(SecureTest, B64RoundTrip) {
  ASSERT_TRUE(
      Crypt(crypt::CryptMode::kDecrypt, kDir / "b64.json", tmp_ / "d.json")
          .ok());
  EXPECT_EQ(ReadFile(tmp_ / "d.json"), ReadFile(kDir / "b64-plain.json"));
  ASSERT_TRUE(
      Crypt(crypt::CryptMode::kEncrypt, tmp_ / "d.json", tmp_ / "e.json").ok());
  EXPECT_EQ(ReadFile(tmp_ / "e.json"), ReadFile(kDir / "b64.json"));
}

TEST_F(SecureTest, WrongAndEmptyPassphrasesWriteNothing) {
  for (const char* wrong : {"", "wrong", "pstate fixture passphrase "}) {
    ::setenv("PULUMI_CONFIG_PASSPHRASE", wrong, 1);
    Status s = Crypt(crypt::CryptMode::kDecrypt, kDir / "passphrase.json",
                     tmp_ / "out.json");
    EXPECT_EQ(s.code(), Errc::kCrypto);
    EXPECT_NE(s.message().find("incorrect passphrase"), std::string::npos);
    EXPECT_FALSE(fs::exists(tmp_ / "out.json"));
    s = Crypt(crypt::CryptMode::kEncrypt, kDir / "passphrase-plain.json",
              tmp_ / "out.json");
    EXPECT_EQ(s.code(), Errc::kCrypto);
    EXPECT_FALSE(fs::exists(tmp_ / "out.json"));
  }
  // The empty passphrase is a valid one for a state made with it.
  ::setenv("PULUMI_CONFIG_PASSPHRASE", "", 1);
  ASSERT_TRUE(Crypt(crypt::CryptMode::kDecrypt, kDir / "empty-passphrase.json",
                    tmp_ / "out.json")
                  .ok());
  EXPECT_EQ(ReadFile(tmp_ / "out.json"),
            ReadFile(kDir / "empty-passphrase-plain.json"));
  // No passphrase at all.
  ::unsetenv("PULUMI_CONFIG_PASSPHRASE");
  Status s = Crypt(crypt::CryptMode::kDecrypt, kDir / "passphrase.json",
                   tmp_ / "none.json");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("PULUMI_CONFIG_PASSPHRASE"), std::string::npos);
  EXPECT_FALSE(fs::exists(tmp_ / "none.json"));
  ExpectNoPlaintext(messages_, "messages");
}

TEST_F(SecureTest, ServiceAndCloudExplainWhy) {
  Status s =
      Crypt(crypt::CryptMode::kDecrypt, kDir / "service.json", tmp_ / "o");
  EXPECT_EQ(s.code(), Errc::kUnsupported);
  EXPECT_NE(s.message().find("Pulumi Cloud"), std::string::npos);
  s = Crypt(crypt::CryptMode::kDecrypt, kDir / "cloud.json", tmp_ / "o");
  EXPECT_EQ(s.code(), Errc::kUnsupported);
  EXPECT_NE(s.message().find("KMS"), std::string::npos);
  EXPECT_FALSE(fs::exists(tmp_ / "o"));
}

TEST_F(SecureTest, RedactsEveryTarget) {
  for (const char* name :
       {"passphrase.json", "passphrase-plain.json", "b64.json",
        "b64-plain.json", "service.json", "cloud.json", "checkpoint.json"}) {
    redact::RedactStats stats;
    // Secrets only: plaintext credentials stay (--keep-leaks).
    redact::RedactOptions keep_leaks;
    keep_leaks.leaks = false;
    ASSERT_TRUE(Redact(kDir / name, tmp_ / "r.json", keep_leaks, &stats).ok())
        << name;
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
  redact::RedactStats stats;
  ASSERT_TRUE(
      Redact(kDir / "checkpoint.json", tmp_ / "c.json", {}, &stats).ok());
  EXPECT_EQ(stats.config_values, 1u);
  redact::RedactOptions also;
  also.leaks = false;  // what --also alone replaces
  also.also = {"*PASSWORD*"};
  ASSERT_TRUE(
      Redact(kDir / "checkpoint.json", tmp_ / "a.json", also, &stats).ok());
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
  auto key1 = crypto::Fingerprinter::FromKey("key one");
  auto key2 = crypto::Fingerprinter::FromKey("key two");
  ASSERT_TRUE(key1.ok() && key2.ok());
  redact::RedactOptions o1, o1b, o2;
  o1.fingerprinter = *key1;
  o1b.fingerprinter = *key1;
  o2.fingerprinter = *key2;
  ASSERT_TRUE(Redact(kDir / "passphrase-plain.json", tmp_ / "1.json", o1).ok());
  ASSERT_TRUE(
      Redact(kDir / "passphrase-plain.json", tmp_ / "1b.json", o1b).ok());
  ASSERT_TRUE(Redact(kDir / "passphrase-plain.json", tmp_ / "2.json", o2).ok());
  std::string a = ReadFile(tmp_ / "1.json"), b = ReadFile(tmp_ / "1b.json"),
              c = ReadFile(tmp_ / "2.json");
  ExpectNoPlaintext(a, "fingerprinted");
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  // The two equal "hunter2-s3cret" secrets share one fingerprint: the HMAC
  // of the decoded value, the definition scan uses too (B9, D1).
  std::string fp = key1->Fingerprint("hunter2-s3cret");
  EXPECT_EQ(fp.substr(std::strlen(crypto::kFingerprintPrefix), 12),
            key1->ShortFingerprint("hunter2-s3cret"));
  std::size_t first = a.find(fp);
  ASSERT_NE(first, std::string::npos);
  EXPECT_NE(a.find(fp, first + 1), std::string::npos);
  EXPECT_EQ(c.find(fp), std::string::npos);
  // Fingerprinted ciphertexts keep the v1 shape.
  ASSERT_TRUE(Redact(kDir / "passphrase.json", tmp_ / "3.json", o1).ok());
  EXPECT_NE(ReadFile(tmp_ / "3.json").find("\"v1:AAAAAAAAAAAAAAAA:"),
            std::string::npos);
}

// ---- hostile shapes (review F3, F6, F11, F14, F15)

constexpr char kSecretSig[] =
    "\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\"";
constexpr char kAssetSig[] =
    "\"4dabf18193072939515e22adb298388d\":\"c44067f5952c0a294b673a41bacd8c17\"";

std::string PlainSecret(std::string_view word) {
  return std::string("{") + kSecretSig + ",\"plaintext\":\"\\\"" +
         std::string(word) + "\\\"\"}";
}

/// An export whose one resource has `outputs`, plus `extra` deployment
/// members and `root` root members.
std::string Export(const std::string& outputs, const std::string& extra = "",
                   const std::string& root = "") {
  return "{\"version\":3," + root +
         "\"deployment\":{\"manifest\":{\"time\":\"2024-01-01T00:00:00Z\","
         "\"magic\":\"\",\"version\":\"\"},\"secrets_providers\":{\"type\":"
         "\"b64\"},\"resources\":[{\"urn\":\"urn:pulumi:dev::p::pulumi:pulumi:"
         "Stack::p-dev\",\"custom\":false,\"type\":\"pulumi:pulumi:Stack\","
         "\"outputs\":" +
         outputs + "}]" + extra + "}}";
}

TEST_F(SecureTest, RedactRewritesEverySecretWhereverItIs) {
  // Duplicate signature key (first asset, last secret: Go's reading),
  // duplicate plaintext members, a secret inside a secret's extra member,
  // and secrets in snippets, extensions, unknown members, a misshapen
  // container, a pending operation's other fields, a duplicate provider
  // state and a second "checkpoint" envelope.
  std::string dup_sig = std::string("{") + kAssetSig + "," + kSecretSig +
                        ",\"plaintext\":\"\\\"dupsig-SECRET-a1\\\"\"}";
  std::string dup_plain = std::string("{") + kSecretSig +
                          ",\"plaintext\":\"\\\"dupfirst-SECRET-a2\\\"\","
                          "\"plaintext\":\"\\\"duplast-SECRET-a3\\\"\","
                          "\"extra\":" +
                          PlainSecret("inner-SECRET-a4") + "}";
  std::string extra =
      ",\"snippets\":[{\"uuid\":\"u\",\"x\":" +
      PlainSecret("snippet-SECRET-b1") +
      "}],\"extensions\":{\"e\":" + PlainSecret("ext-SECRET-b2") +
      "},\"unknownMember\":" + PlainSecret("unknown-SECRET-b3") +
      ",\"pending_operations\":[{\"type\":\"creating\",\"resource\":{\"urn\":"
      "\"urn:pulumi:dev::p::t:m:R::r\",\"type\":\"t:m:R\",\"custom\":true,"
      "\"outputs\":{\"a\":" +
      PlainSecret("pendres-SECRET-b4") +
      "}},"
      "\"resource\":{\"urn\":\"urn:pulumi:dev::p::t:m:R::r\",\"type\":\"t:m:"
      "R\","
      "\"custom\":true,\"outputs\":{\"a\":" +
      PlainSecret("pendres2-SECRET-b5") +
      "}},\"other\":" + PlainSecret("opextra-SECRET-b6") +
      "}],"
      "\"metadata\":{\"integrity_error\":{\"command\":\"pulumi up -c "
      "db:password=cmdline-SECRET-c1\",\"env_vars\":{\"A\":\"envfirst-SECRET-"
      "c2\"},"
      "\"env_vars\":{\"A\":\"envlast-SECRET-c3\"}}}";
  std::string root =
      "\"checkpoint\":{\"stack\":\"dev\",\"latest\":{\"resources\":[{\"urn\":"
      "\"urn:pulumi:dev::p::t:m:R::c\",\"outputs\":{\"a\":" +
      PlainSecret("bothenv-SECRET-d1") + "}}]}},";
  std::string state =
      Export("{\"a\":" + dup_sig + ",\"b\":" + dup_plain + "}", extra, root);
  fs::path in = tmp_ / "in.json";
  std::ofstream(in) << state;
  redact::RedactStats stats;
  ASSERT_TRUE(Redact(in, tmp_ / "out.json", {}, &stats).ok());
  std::string out = ReadFile(tmp_ / "out.json");
  for (const char* p :
       {"dupsig-SECRET-a1", "dupfirst-SECRET-a2", "duplast-SECRET-a3",
        "inner-SECRET-a4", "snippet-SECRET-b1", "ext-SECRET-b2",
        "unknown-SECRET-b3", "pendres-SECRET-b4", "pendres2-SECRET-b5",
        "opextra-SECRET-b6", "cmdline-SECRET-c1", "envfirst-SECRET-c2",
        "envlast-SECRET-c3", "bothenv-SECRET-d1"}) {
    EXPECT_EQ(out.find(p), std::string::npos) << "a planted secret survived";
  }
  // Argv: program and subcommand stay for verify's message.
  EXPECT_NE(out.find("\"pulumi up [redacted by pstate]\""), std::string::npos);
  EXPECT_EQ(stats.commands, 1u);
}

TEST_F(SecureTest, RedactDuplicateProviderStateKeepsNoSalt) {
  std::string state =
      "{\"version\":3,\"deployment\":{\"manifest\":{\"time\":"
      "\"2024-01-01T00:00:00Z\",\"magic\":\"\",\"version\":\"\"},"
      "\"secrets_providers\":{\"type\":\"passphrase\",\"state\":{\"salt\":"
      "\"v1:AAAAAAAAAAA=:first\"},\"State\":{\"salt\":\"v1:A87qv3df9vE=:last\"}"
      "},"
      "\"resources\":[]}}";
  fs::path in = tmp_ / "in.json";
  std::ofstream(in) << state;
  ASSERT_TRUE(Redact(in, tmp_ / "out.json", {}).ok());
  std::string out = ReadFile(tmp_ / "out.json");
  EXPECT_EQ(out.find("A87qv3df9vE"), std::string::npos);
  EXPECT_EQ(out.find(":first"), std::string::npos);
}

TEST_F(SecureTest, RedactLeaksNeverTouchesReferenceFields) {
  // The URN, id and dependencies hold a secret's plaintext (pulumi#8946
  // style): --leaks redacts the secret and plain copies in values, keeps
  // every reference as it is and counts them.
  std::string state =
      "{\"version\":3,\"deployment\":{\"manifest\":{\"time\":"
      "\"2024-01-01T00:00:00Z\",\"magic\":\"\",\"version\":\"\"},"
      "\"resources\":[{\"urn\":\"urn:pulumi:dev::p::random:index/randomId:"
      "RandomId::k-Zq81xWvQ\",\"custom\":true,\"id\":\"k-Zq81xWvQ\",\"type\":"
      "\"random:index/randomId:RandomId\",\"outputs\":{\"hex\":" +
      PlainSecret("k-Zq81xWvQ") +
      ",\"copy\":\"key=k-Zq81xWvQ\"}},{\"urn\":"
      "\"urn:pulumi:dev::p::t:m:R::r\",\"custom\":true,\"id\":\"r\",\"type\":"
      "\"t:m:R\",\"parent\":\"urn:pulumi:dev::p::random:index/randomId:"
      "RandomId::k-Zq81xWvQ\",\"dependencies\":[\"urn:pulumi:dev::p::random:"
      "index/randomId:RandomId::k-Zq81xWvQ\"]}]}}";
  fs::path in = tmp_ / "in.json";
  std::ofstream(in) << state;
  scan::KnownSecrets known;
  ASSERT_TRUE(known.Add("k-Zq81xWvQ"));
  redact::RedactOptions o;
  o.leaks = true;
  o.known_secrets = &known;
  redact::RedactStats stats;
  ASSERT_TRUE(Redact(in, tmp_ / "out.json", o, &stats).ok());
  std::string out = ReadFile(tmp_ / "out.json");
  EXPECT_NE(out.find("\"urn\": \"urn:pulumi:dev::p::random:index/randomId:"
                     "RandomId::k-Zq81xWvQ\""),
            std::string::npos);
  EXPECT_NE(out.find("\"id\": \"k-Zq81xWvQ\""), std::string::npos);
  EXPECT_NE(out.find("\"copy\": \"[redacted by pstate]\""), std::string::npos);
  EXPECT_EQ(out.find("key=k-Zq81xWvQ"), std::string::npos);
  EXPECT_EQ(stats.leak_values, 1u);
  // The URN note is counted; the id equals the resource name, which is
  // never a leak.
  EXPECT_EQ(stats.reference_leaks, 1u);
}

TEST_F(SecureTest, EncryptLeavesNoPlaintextAnywhere) {
  std::string dup_sig = std::string("{") + kAssetSig + "," + kSecretSig +
                        ",\"plaintext\":\"\\\"encdup-SECRET-E01\\\"\"}";
  std::string state =
      Export("{\"a\":" + dup_sig + "}",
             ",\"unknownMember\":" + PlainSecret("unk-SECRET-E03") +
                 ",\"snippets\":[{\"uuid\":\"u\",\"x\":" +
                 PlainSecret("snip-SECRET-E04") + "}]");
  fs::path in = tmp_ / "in.json";
  std::ofstream(in) << state;
  ASSERT_TRUE(Crypt(crypt::CryptMode::kEncrypt, in, tmp_ / "out.json").ok())
      << messages_;
  std::string out = ReadFile(tmp_ / "out.json");
  for (const char* p :
       {"encdup-SECRET-E01", "unk-SECRET-E03", "snip-SECRET-E04"}) {
    EXPECT_EQ(out.find(p), std::string::npos) << "a plaintext survived encrypt";
  }
  // And back: decrypt restores every one.
  ASSERT_TRUE(
      Crypt(crypt::CryptMode::kDecrypt, tmp_ / "out.json", tmp_ / "back.json")
          .ok());
  std::string back = ReadFile(tmp_ / "back.json");
  for (const char* p :
       {"encdup-SECRET-E01", "unk-SECRET-E03", "snip-SECRET-E04"}) {
    EXPECT_NE(back.find(p), std::string::npos) << "not decrypted back";
  }
}

TEST_F(SecureTest, EncryptRefusesASecretWithBothForms) {
  std::string both = std::string("{") + kSecretSig +
                     ",\"ciphertext\":\"ImFiYyI=\",\"plaintext\":"
                     "\"\\\"both-SECRET-E02\\\"\"}";
  fs::path in = tmp_ / "in.json";
  std::ofstream(in) << Export("{\"a\":" + both + "}");
  Status s = Crypt(crypt::CryptMode::kEncrypt, in, tmp_ / "out.json");
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(fs::exists(tmp_ / "out.json"));
  EXPECT_NE(s.message().find("both"), std::string::npos);
  EXPECT_EQ(s.message().find("both-SECRET-E02"), std::string::npos);
}

/// Every golden case of these commands: its expected output and messages
/// (identical to what the binary printed when the golden tests pass).
TEST(GoldenOutputsTest, NoPlaintextAnywhere) {
  fs::path golden =
      fs::path(PSTATE_FIXTURES_DIR).parent_path() / "tests" / "golden";
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
}  // namespace pstate::crypt
