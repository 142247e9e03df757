#include "detect/credential_formats.h"

#include <gtest/gtest.h>

#include <string>

namespace pstate::detect {
namespace {

// Sample tokens are assembled from parts so that the source holds no
// realistic-looking credential, and failure messages print only the kind.
std::string Repeat(std::string_view unit, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out.append(unit);
  return out;
}
std::string Alnum(std::size_t n) {
  static constexpr std::string_view kChars =
      "aB3dE5fG7hJ9kLmN0pQrStUvWxYz1C2D4F6H8K";
  std::string out;
  for (std::size_t i = 0; i < n; ++i)
    out.push_back(kChars[(i * 7 + 3) % kChars.size()]);
  return out;
}

std::string_view KindOf(std::string_view text) {
  auto m = DetectCredentialFormat(text);
  return m ? m->kind : std::string_view("none");
}

void ExpectSpan(const std::string& text, std::string_view kind,
                std::size_t offset, std::size_t length) {
  auto m = DetectCredentialFormat(text);
  ASSERT_TRUE(m.has_value()) << kind;
  EXPECT_EQ(m->kind, kind);
  EXPECT_EQ(m->offset, offset) << kind;
  EXPECT_EQ(m->length, length) << kind;
}

TEST(CredentialFormatTest, AwsAccessKeyId) {
  // AWS's documented example key id.
  ExpectSpan("AKIAIOSFODNN7EXAMPLE", kinds::kAwsAccessKeyId, 0, 20);
  ExpectSpan("id=ASIAIOSFODNN7EXAMPLE;", kinds::kAwsAccessKeyId, 3, 20);
  EXPECT_EQ(KindOf("xAKIAIOSFODNN7EXAMPLE"), "none");  // no boundary before
  EXPECT_EQ(KindOf("AKIAIOSFODNN7EXAMPLE1"), "none");  // 17 characters
  EXPECT_EQ(KindOf("AKIAIOSFODNN7EXAMPLEx"), "none");  // no boundary after
  EXPECT_EQ(KindOf("AKIAIOSFODNN7EXAMPL"), "none");    // too short
  EXPECT_EQ(KindOf("AKIAiosfodnn7example"), "none");   // lower case
}

TEST(CredentialFormatTest, PemPrivateKeys) {
  const std::string body =
      "\n" + Repeat("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 3) + "\n";
  const std::string rsa = "-----BEGIN RSA PRIVATE KEY-----" + body +
                          "-----END RSA PRIVATE KEY-----";
  ExpectSpan("key: " + rsa + "\ntrailer", kinds::kPemPrivateKey, 5, rsa.size());
  ExpectSpan("-----BEGIN PRIVATE KEY-----" + body, kinds::kPemPrivateKey, 0,
             27 + body.size());
  EXPECT_EQ(KindOf("-----BEGIN ENCRYPTED PRIVATE KEY-----" + body),
            kinds::kPemPrivateKey);
  EXPECT_EQ(
      KindOf("-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n" + body),
      kinds::kPemPrivateKey);
  EXPECT_EQ(KindOf("-----BEGIN OPENSSH PRIVATE KEY-----" + body),
            kinds::kPrivateSshKey);
  EXPECT_EQ(KindOf("-----BEGIN PGP PRIVATE KEY BLOCK-----" + body),
            kinds::kPgpPrivateKey);
  // Public material and bodiless headers are not keys.
  EXPECT_EQ(KindOf("-----BEGIN PUBLIC KEY-----" + body), "none");
  EXPECT_EQ(KindOf("-----BEGIN CERTIFICATE-----" + body), "none");
  EXPECT_EQ(KindOf("-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE "
                   "KEY-----"),
            "none");
}

TEST(CredentialFormatTest, GithubTokens) {
  for (const char* prefix : {"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}) {
    ExpectSpan(std::string("token ") + prefix + Alnum(36), kinds::kGithubToken,
               6, 40);
    EXPECT_EQ(KindOf(prefix + Alnum(35)), "none") << prefix;
    EXPECT_EQ(KindOf(prefix + Alnum(37)), "none") << prefix;
  }
  EXPECT_EQ(KindOf("ghx_" + Alnum(36)), "none");
  EXPECT_EQ(KindOf("github_pat_" + Alnum(22) + "_" + Alnum(59)),
            kinds::kGithubToken);
  EXPECT_EQ(KindOf("github_pat_" + Alnum(10)), "none");
}

TEST(CredentialFormatTest, OtherVendorTokens) {
  EXPECT_EQ(KindOf("glpat-" + Alnum(20)), kinds::kGitlabToken);
  EXPECT_EQ(KindOf("glpat-" + Alnum(19)), "none");
  EXPECT_EQ(KindOf("//registry/:_authToken=npm_" + Alnum(36)),
            kinds::kNpmToken);
  EXPECT_EQ(KindOf("npm_" + Alnum(30)), "none");
  EXPECT_EQ(KindOf("xoxb-" + Alnum(12) + "-" + Alnum(24)), kinds::kSlackToken);
  EXPECT_EQ(KindOf("xoxz-" + Alnum(24)), "none");
  EXPECT_EQ(KindOf("https://hooks.slack.com/services/T" + Alnum(8) + "/B" +
                   Alnum(8) + "/" + Alnum(24)),
            kinds::kSlackWebhookUrl);
  ExpectSpan("key=AIza" + Alnum(35), kinds::kGoogleApiKey, 4, 39);
  EXPECT_EQ(KindOf("AIza" + Alnum(34)), "none");
  EXPECT_EQ(KindOf("sk_live_" + Alnum(24)), kinds::kStripeSecretKey);
  EXPECT_EQ(KindOf("rk_live_" + Alnum(24)), kinds::kStripeSecretKey);
  EXPECT_EQ(KindOf("sk_test_" + Alnum(24)), "none");
  EXPECT_EQ(KindOf("mask_live_" + Alnum(24)), "none");
}

TEST(CredentialFormatTest, Jwt) {
  // {"alg":"HS256","typ":"JWT"} . {"sub":"1"} . signature
  const std::string header = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9";
  const std::string jwt = header + ".eyJzdWIiOiIxIn0." + Alnum(43);
  ExpectSpan("Bearer " + jwt, kinds::kJwt, 7, jwt.size());
  // {"typ":"JWT"} has no alg.
  EXPECT_EQ(KindOf("eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiIxIn0." + Alnum(43)), "none");
  // Three base64url segments without JSON structure.
  EXPECT_EQ(KindOf("eyJxxxxxxxxxxxxxxxx.eyJzdWIiOiIxIn0." + Alnum(43)), "none");
  EXPECT_EQ(KindOf(header + ".eyJzdWIiOiIxIn0"), "none");  // two segments
  EXPECT_EQ(KindOf("x" + jwt), "none");  // not at a segment start
  // A long base64 blob with no structure.
  EXPECT_EQ(
      KindOf("eyJ" + Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldY", 40) + "=="),
      "none");
}

TEST(CredentialFormatTest, AzureStrings) {
  const std::string key = Repeat("Zm9vYmFyYmF6", 7) + "AAAA==";
  const std::string conn =
      "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + key +
      ";EndpointSuffix=core.windows.net";
  ExpectSpan(conn, kinds::kAzureStorageConnectionString,
             conn.find("AccountKey="), 11 + key.size());
  EXPECT_EQ(
      KindOf(
          "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;"
          "SharedAccessKey=" +
          key),
      kinds::kAzureSharedAccessKey);
  EXPECT_EQ(KindOf("AccountKey=short"), "none");
  EXPECT_EQ(
      KindOf("https://acct.blob.core.windows.net/c?sv=2022-11-02&se=2030&sig=" +
             Alnum(40) + "%3D"),
      kinds::kAzureSasToken);
}

TEST(CredentialFormatTest, UrlWithPassword) {
  ExpectSpan("DATABASE_URL=postgres://app:" + Alnum(12) + "@db:5432/app",
             kinds::kUrlWithPassword, 13, 28);
  EXPECT_EQ(KindOf("redis://:" + Alnum(12) + "@cache:6379"),
            kinds::kUrlWithPassword);
  EXPECT_EQ(KindOf("https://user@example.com/"), "none");
  EXPECT_EQ(KindOf("https://user:@example.com/"), "none");
  EXPECT_EQ(KindOf("https://user:****@example.com/"), "none");
  EXPECT_EQ(KindOf("https://example.com/a:b@c"), "none");
  EXPECT_EQ(KindOf("://user:pw@host"), "none");
}

TEST(CredentialFormatTest, NothingInOrdinaryText) {
  EXPECT_EQ(KindOf(""), "none");
  EXPECT_EQ(KindOf("urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b"), "none");
  EXPECT_EQ(KindOf("arn:aws:iam::123456789012:role/deploy"), "none");
  EXPECT_EQ(KindOf("04da6b54-80e4-46f7-96ec-b56ff0331ba9"), "none");
  EXPECT_EQ(KindOf(Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldY", 100)), "none");
}

TEST(CredentialFormatTest, FindAllReturnsEveryMatchInOrder) {
  const std::string text =
      "a=AKIAIOSFODNN7EXAMPLE b=ghp_" + Alnum(36) + " c=AKIAIOSFODNN7EXAMPLF";
  auto all = FindAllCredentialFormats(text);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].kind, kinds::kAwsAccessKeyId);
  EXPECT_EQ(all[1].kind, kinds::kGithubToken);
  EXPECT_EQ(all[2].kind, kinds::kAwsAccessKeyId);
  EXPECT_LT(all[0].offset, all[1].offset);
  auto second = FindCredentialFormat(text, all[0].offset + 1);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->offset, all[1].offset);
}

TEST(CredentialFormatTest, LinearOnAdversarialInput) {
  // Many candidate starts that each almost match. A scan that restarted at
  // each of them would take hours on these 0.2-1.4 MB inputs, which ctest's
  // per-test timeout reports; the test itself measures no time (unit tests
  // are never timed: the machine is shared), it checks that every input is
  // answered.
  const std::size_t n = 200'000;
  const std::string inputs[] = {
      Repeat("eyJ", n),
      Repeat("eyJhbGciOiJIUzI1NiJ9.", n / 8),
      Repeat("-----BEGIN PRIVATE KEY-----" + Repeat("A", 40), n / 60),
      Repeat("a://b:c", n),
      Repeat("AKIA", n),
      Repeat("AccountKey=", n / 3),
      Repeat("ghp_", n),
  };
  for (const std::string& input : inputs) {
    // Answered twice alike: the scan keeps no state between calls.
    EXPECT_EQ(FindAllCredentialFormats(input).size(),
              FindAllCredentialFormats(input).size());
  }
}

}  // namespace
}  // namespace pstate::detect
