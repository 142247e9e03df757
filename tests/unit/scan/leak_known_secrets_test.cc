// KnownSecrets (matchable rule, Aho-Corasick search, incremental adds) and
// SecretCollector (plaintext payloads, structured and nested secrets,
// decryption).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "base/base64.h"
#include "json/parser.h"
#include "json/string_codec.h"
#include "scan/known_secrets.h"

namespace pstate::scan {
namespace {

/// `s` as a JSON string literal (test input).
std::string JsonLiteral(std::string_view s) {
  std::string out = "\"";
  json::AppendEscaped(s, &out);
  return out + "\"";
}

std::vector<std::size_t> Find(const KnownSecrets& known, std::string_view text,
                              std::size_t limit = 16) {
  std::vector<std::size_t> ids;
  known.FindIn(text, &ids, limit);
  std::sort(ids.begin(), ids.end());
  return ids;
}

TEST(MatchableSecret, RejectsShortCommonAndReferenceValues) {
  EXPECT_TRUE(IsMatchableSecret("hunter2-Xq"));
  EXPECT_TRUE(IsMatchableSecret("q9Zx3Lk_wP0"));
  // Too weak to mean anything when found elsewhere: words, names, short.
  EXPECT_FALSE(IsMatchableSecret("hunter2"));
  EXPECT_FALSE(IsMatchableSecret("changeme"));
  EXPECT_FALSE(IsMatchableSecret("Private"));
  EXPECT_FALSE(IsMatchableSecret("production"));
  EXPECT_FALSE(IsMatchableSecret("aaaaaaaa11"));
  // pstate's own placeholders.
  EXPECT_FALSE(IsMatchableSecret("[redacted by pstate]"));
  EXPECT_FALSE(IsMatchableSecret(
      "hmac-sha256:"
      "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"));
  EXPECT_FALSE(IsMatchableSecret("abc12"));  // shorter than 6 bytes
  EXPECT_FALSE(IsMatchableSecret("true"));
  EXPECT_FALSE(IsMatchableSecret("123456789"));  // numbers
  EXPECT_FALSE(IsMatchableSecret("[secret]"));   // redaction marker
  EXPECT_FALSE(IsMatchableSecret("04da6b54-80e4-46f7-96ec-b56ff0331ba9"));
  EXPECT_FALSE(
      IsMatchableSecret("arn:aws:secretsmanager:us-east-1:1:secret:x"));
  EXPECT_FALSE(IsMatchableSecret("/etc/ssl/private/key.pem"));
}

TEST(KnownSecrets, AddDeduplicatesAndFiltersUnmatchable) {
  KnownSecrets known;
  EXPECT_TRUE(known.Add("hunter2-Xq"));
  EXPECT_FALSE(known.Add("hunter2-Xq"));
  EXPECT_FALSE(known.Add("true"));
  EXPECT_FALSE(known.Add("production"));  // kept for masking only
  EXPECT_EQ(known.size(), 1u);
  EXPECT_TRUE(known.Contains("hunter2-Xq"));
  EXPECT_FALSE(known.Contains("hunter"));
  EXPECT_FALSE(known.Contains("production"));
}

TEST(KnownSecrets, FindsShortAndLongPatternsAnywhere) {
  KnownSecrets known;
  ASSERT_TRUE(known.Add("hunter2-Xq"));
  // A key body as random as a real one (the strength rule needs entropy).
  std::string body;
  std::uint32_t x = 12345;
  for (int i = 0; i < 200; ++i) {
    x = x * 1103515245u + 12345u;
    body.push_back(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
            [(x >> 16) & 63]);
  }
  std::string pem = "-----BEGIN RSA PRIVATE KEY-----\n" + body +
                    "zz9\n-----END RSA PRIVATE KEY-----\n";
  ASSERT_TRUE(known.Add(pem));
  EXPECT_EQ(Find(known, "hunter2-Xq"), (std::vector<std::size_t>{0}));
  EXPECT_EQ(Find(known, "user=app pass=hunter2-Xq;"),
            (std::vector<std::size_t>{0}));
  EXPECT_EQ(Find(known, "key: " + pem + " end"), (std::vector<std::size_t>{1}));
  EXPECT_EQ(Find(known, "hunter2-Xq and " + pem),
            (std::vector<std::size_t>{0, 1}));
  // Negative: a prefix, a near miss and a truncated long pattern.
  EXPECT_TRUE(Find(known, "hunter2-X").empty());
  EXPECT_TRUE(Find(known, "hunter3-Xq huntex2-Xq").empty());
  EXPECT_TRUE(Find(known, pem.substr(0, pem.size() - 2)).empty());
  std::string altered = pem;
  altered[100] = 'R';
  EXPECT_TRUE(Find(known, altered).empty());
}

TEST(KnownSecrets, PatternsSharingAWindowAreAllVerified) {
  KnownSecrets known;
  // Same middle 32 bytes, different ends.
  std::string middle;
  for (int i = 0; i < 5; ++i) middle += "Mx7-Qz9+";
  ASSERT_TRUE(known.Add("aaaa" + middle + "aaaa"));
  ASSERT_TRUE(known.Add("bbbb" + middle + "bbbb"));
  EXPECT_EQ(Find(known, "x bbbb" + middle + "bbbb y"),
            (std::vector<std::size_t>{1}));
  EXPECT_EQ(Find(known, "aaaa" + middle + "aaaa"),
            (std::vector<std::size_t>{0}));
  EXPECT_TRUE(Find(known, "cccc" + middle + "cccc").empty());
}

TEST(KnownSecrets, OverlappingPatternsAndFailureLinks) {
  KnownSecrets known;
  ASSERT_TRUE(known.Add("Ab1-Ab2-Cd"));
  ASSERT_TRUE(known.Add("Ab2-Cd3-Ef"));
  ASSERT_TRUE(known.Add("Cd3-Ef4-Gh"));
  EXPECT_EQ(Find(known, "Ab1-Ab1-Ab2-Cd3-Ef4-Gh"),
            (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(Find(known, "Ab1-Ab1-Ab2-Cd3-Ef4-Gh", 1).size(), 1u);
}

TEST(KnownSecrets, AddsAfterSearchesAreFound) {
  KnownSecrets known;
  std::vector<std::string> secrets;
  for (int i = 0; i < 300; ++i) {
    secrets.push_back("secret-value-" + std::to_string(i * 7919));
    ASSERT_TRUE(known.Add(secrets.back()));
    // Every earlier secret is still found after the automata were merged.
    if (i % 37 == 0) {
      for (int j = 0; j <= i; j += 13) {
        auto ids =
            Find(known,
                 "prefix " + secrets[static_cast<std::size_t>(j)] + " suffix");
        ASSERT_FALSE(ids.empty()) << j;
        EXPECT_NE(
            std::find(ids.begin(), ids.end(), static_cast<std::size_t>(j)),
            ids.end());
      }
    }
  }
  EXPECT_TRUE(Find(known, "secret-value-x").empty());
}

constexpr char kSig[] =
    "\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\"";

json::Value ParseOrDie(std::string_view text, json::Arena& arena) {
  json::Parser parser;
  json::Value v;
  EXPECT_EQ(parser.ParseDocument(text, 0, arena, &v), json::ParseStatus::kOk)
      << text;
  return v;
}

std::string SecretObject(std::string_view field, std::string_view payload) {
  return std::string("{") + kSig + ",\"" + std::string(field) +
         "\":" + JsonLiteral(payload) + "}";
}

TEST(SecretCollector, PlaintextStringObjectAndNestedSecrets) {
  KnownSecrets known;
  SecretCollector collector(&known, nullptr);
  // A nested secret inside a payload keeps its JSON text in `ciphertext`.
  std::string inner = SecretObject("ciphertext", "\"nested-secret\"");
  std::string object_payload =
      "{\"user\":\"admin-user\",\"password\":\"Adm1n-pass!\","
      "\"n\":123456789,\"inner\":" +
      inner + "}";
  std::string doc =
      "{\"inputs\":{\"a\":" + SecretObject("plaintext", "\"hunter2-pw\"") +
      ",\"b\":[" + SecretObject("plaintext", object_payload) +
      "],\"c\":\"not-a-secret\"}}";
  json::Arena arena;
  collector.Collect(ParseOrDie(doc, arena));
  EXPECT_TRUE(known.Contains("hunter2-pw"));
  // Inside a structured secret only credential-named strings are seeded.
  EXPECT_FALSE(known.Contains("admin-user"));
  EXPECT_TRUE(known.Contains("Adm1n-pass!"));
  EXPECT_TRUE(known.Contains("nested-secret"));
  EXPECT_FALSE(known.Contains("not-a-secret"));
  EXPECT_FALSE(known.Contains("123456789"));
  EXPECT_EQ(known.size(), 3u);
}

TEST(SecretCollector, PayloadThatIsNotJsonIsOneString) {
  KnownSecrets known;
  SecretCollector collector(&known, nullptr);
  collector.AddPayload("raw-not-json-text");
  EXPECT_TRUE(known.Contains("raw-not-json-text"));
}

TEST(SecretCollector, CiphertextNeedsADecryptor) {
  std::string payload = "\"from-ciphertext\"";
  std::string doc = std::string("{") + kSig + ",\"ciphertext\":\"" +
                    Base64Encode(payload) + "\"}";
  json::Arena arena;
  json::Value v = ParseOrDie(doc, arena);
  {
    KnownSecrets known;
    SecretCollector collector(&known, nullptr);
    collector.Collect(v);
    EXPECT_EQ(known.size(), 0u);
  }
  KnownSecrets known;
  Decryptor decrypt = [](std::string_view ct) -> std::optional<std::string> {
    auto r = Base64Decode(ct);
    if (!r.ok()) return std::nullopt;
    return std::move(*r);
  };
  SecretCollector collector(&known, &decrypt);
  collector.Collect(v);
  EXPECT_TRUE(known.Contains("from-ciphertext"));
  Decryptor failing = [](std::string_view) -> std::optional<std::string> {
    return std::nullopt;
  };
  SecretCollector failing_collector(&known, &failing);
  failing_collector.Collect(v);
  EXPECT_EQ(failing_collector.undecryptable(), 1u);
}

TEST(SecretCollector, FollowsSecretsToAnyDepth) {
  // Review F22: 20 arrays deep (under a credential name), and a secret
  // nested in a secret's payload 20 times.
  std::string deep = "\"Deep-Arr4y-S3cret\"";
  for (int i = 0; i < 20; ++i) deep = "[" + deep + "]";
  std::string payload = "{\"password\":" + deep + "}";
  std::string nested = "\"Deep-Nest3d-S3cret\"";
  for (int i = 0; i < 20; ++i) nested = SecretObject("plaintext", nested);
  std::string doc =
      "{\"a\":" + SecretObject("plaintext", payload) + ",\"b\":" + nested + "}";
  KnownSecrets known;
  SecretCollector collector(&known, nullptr);
  json::Arena arena;
  collector.Collect(ParseOrDie(doc, arena));
  EXPECT_TRUE(known.Contains("Deep-Arr4y-S3cret"));
  EXPECT_TRUE(known.Contains("Deep-Nest3d-S3cret"));
}

TEST(SecretCollector, StructuredSecretsSeedOnlyCredentialStrings) {
  // awsx tagsAll, a Helm Release's __inputs, a container env list.
  std::string tags = "{\"Name\":\"platform-prod-eks\",\"Tier\":\"Private\"}";
  std::string helm =
      "{\"namespace\":\"ingress-system\",\"chart\":\"ingress-nginx\","
      "\"repositoryOpts\":{\"repo\":\"https://kubernetes.github.io/"
      "ingress-nginx\"},"
      "\"values\":{\"auth\":{\"password\":\"Hx7-q2Lw9-Pz4v\"}}}";
  std::string env =
      "[{\"name\":\"LOG_LEVEL\",\"value\":\"verbose-debug-1\"},"
      "{\"name\":\"DB_PASSWORD\",\"value\":\"k8s-Pa55w0rd-7\"}]";
  std::string doc = "{\"t\":" + SecretObject("plaintext", tags) +
                    ",\"h\":" + SecretObject("plaintext", helm) +
                    ",\"e\":" + SecretObject("plaintext", env) + "}";
  KnownSecrets known;
  SecretCollector collector(&known, nullptr);
  json::Arena arena;
  collector.Collect(ParseOrDie(doc, arena));
  EXPECT_EQ(known.size(), 2u);
  EXPECT_TRUE(known.Contains("Hx7-q2Lw9-Pz4v"));
  EXPECT_TRUE(known.Contains("k8s-Pa55w0rd-7"));
  EXPECT_FALSE(known.Contains("platform-prod-eks"));
  EXPECT_FALSE(known.Contains("verbose-debug-1"));
  EXPECT_EQ(known.Mask("urn:pulumi:dev::p::t::platform-prod-eks"),
            "urn:pulumi:dev::p::t::platform-prod-eks");
}

TEST(KnownSecrets, MaskHidesBothTiers) {
  KnownSecrets known;
  known.Add("Zq81-xWvB3");  // searchable
  known.Add("production");  // too weak to search for: masked only
  EXPECT_EQ(known.Mask("urn:pulumi:production::p::t::Zq81-xWvB3"),
            "urn:pulumi:***::p::t::***");
  EXPECT_EQ(known.Mask("/a/Zq81-xWvB3Zq81-xWvB3/b"), "/a/***/b");
  EXPECT_EQ(known.Mask("nothing here"), "nothing here");
  EXPECT_TRUE(known.NeedsMask("x production"));
  EXPECT_FALSE(known.NeedsMask("x prod"));
  // Only the searchable tier is reported as a leak.
  EXPECT_EQ(Find(known, "production Zq81-xWvB3"),
            (std::vector<std::size_t>{0}));
}

}  // namespace
}  // namespace pstate::scan
