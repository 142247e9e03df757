#include "state/provider.h"

#include <gtest/gtest.h>

#include <string>

#include "json/parser.h"

namespace pstate::state {
namespace {

SecretsProvider Parse(const std::string& text) {
  static json::Arena arena;
  json::Parser parser;
  json::Value v;
  EXPECT_EQ(parser.ParseDocument(text, 0, arena, &v), json::ParseStatus::kOk);
  return ParseSecretsProvider(v);
}

TEST(ProviderTest, KindsAndStates) {
  SecretsProvider p = Parse(R"({"type":"passphrase","state":{"salt":"v1:x"}})");
  EXPECT_EQ(p.kind, ProviderKind::kPassphrase);
  EXPECT_EQ(p.salt, "v1:x");
  EXPECT_TRUE(p.writes_v1_ciphertexts());
  EXPECT_TRUE(p.offline());

  p = Parse(
      R"({"type":"cloud","state":{"url":"awskms://k","encryptedkey":"QQ=="}})");
  EXPECT_EQ(p.kind, ProviderKind::kCloud);
  EXPECT_EQ(p.url, "awskms://k");
  EXPECT_EQ(p.encrypted_key, "QQ==");
  EXPECT_TRUE(p.writes_v1_ciphertexts());
  EXPECT_FALSE(p.offline());

  p = Parse(
      R"({"type":"service","state":{"owner":"o","project":"p","stack":"s"}})");
  EXPECT_EQ(p.kind, ProviderKind::kService);
  EXPECT_EQ(p.owner + p.project + p.stack, "ops");
  EXPECT_FALSE(p.offline());

  EXPECT_EQ(Parse(R"({"type":"b64"})").kind, ProviderKind::kB64);
  EXPECT_EQ(Parse(R"({"type":"vault"})").kind, ProviderKind::kOther);
  EXPECT_EQ(Parse(R"({"type":"vault"})").type, "vault");
  EXPECT_EQ(Parse(R"({"type":""})").kind, ProviderKind::kNone);
  EXPECT_EQ(Parse(R"({"type":5})").kind, ProviderKind::kNone);
  EXPECT_EQ(Parse("null").kind, ProviderKind::kNone);
  // Misshapen states leave fields empty; verify judges them.
  EXPECT_EQ(Parse(R"({"type":"passphrase","state":{"salt":1}})").salt, "");
  EXPECT_EQ(Parse(R"({"type":"passphrase","state":[]})").salt, "");
  // Go's struct rules: case-insensitive field names, the last one wins.
  p = Parse(R"({"Type":"b64","TYPE":"passphrase","State":{"SALT":"v1:y"}})");
  EXPECT_EQ(p.kind, ProviderKind::kPassphrase);
  EXPECT_EQ(p.salt, "v1:y");
}

TEST(ProviderTest, Names) {
  EXPECT_EQ(ProviderKindName(ProviderKind::kPassphrase), "passphrase");
  EXPECT_EQ(ProviderKindName(ProviderKind::kService), "service");
  EXPECT_EQ(ProviderKindName(ProviderKind::kCloud), "cloud");
  EXPECT_EQ(ProviderKindName(ProviderKind::kB64), "b64");
  EXPECT_EQ(ProviderKindName(ProviderKind::kNone), "none");
  EXPECT_EQ(ProviderKindName(ProviderKind::kOther), "other");
}

}  // namespace
}  // namespace pstate::state
