#include "state/urn.h"

#include <gtest/gtest.h>

#include "json/parser.h"
#include "state/signature.h"

namespace pstate::state {
namespace {

TEST(ParseUrnTest, Valid) {
  auto urn = ParseUrn("urn:pulumi:dev::proj::aws:s3/bucket:Bucket::my-bucket");
  ASSERT_TRUE(urn.has_value());
  EXPECT_EQ(urn->stack, "dev");
  EXPECT_EQ(urn->project, "proj");
  EXPECT_EQ(urn->qualified_type, "aws:s3/bucket:Bucket");
  EXPECT_EQ(urn->name, "my-bucket");
  EXPECT_EQ(urn->type(), "aws:s3/bucket:Bucket");
  EXPECT_EQ(urn->parent_chain(), "");
}

TEST(ParseUrnTest, QualifiedTypeWithParents) {
  auto urn = ParseUrn(
      "urn:pulumi:prod::web::my:mod:App$my:mod:Tier$aws:ec2/"
      "instance:Instance::vm");
  ASSERT_TRUE(urn.has_value());
  EXPECT_EQ(urn->qualified_type,
            "my:mod:App$my:mod:Tier$aws:ec2/instance:Instance");
  EXPECT_EQ(urn->type(), "aws:ec2/instance:Instance");
  EXPECT_EQ(urn->parent_chain(), "my:mod:App$my:mod:Tier");
  EXPECT_EQ(urn->name, "vm");
}

TEST(ParseUrnTest, NameMayContainSeparators) {
  auto urn = ParseUrn("urn:pulumi:dev::proj::pkg:index:Res::a::b::c");
  ASSERT_TRUE(urn.has_value());
  EXPECT_EQ(urn->qualified_type, "pkg:index:Res");
  EXPECT_EQ(urn->name, "a::b::c");
  auto empty_name = ParseUrn("urn:pulumi:dev::proj::pkg:index:Res::");
  ASSERT_TRUE(empty_name.has_value());
  EXPECT_EQ(empty_name->name, "");
}

TEST(ParseUrnTest, Invalid) {
  EXPECT_FALSE(ParseUrn("").has_value());
  EXPECT_FALSE(ParseUrn("urn:pulumi:").has_value());
  EXPECT_FALSE(ParseUrn("urn:pulumi:dev").has_value());
  EXPECT_FALSE(ParseUrn("urn:pulumi:dev::proj").has_value());
  EXPECT_FALSE(ParseUrn("urn:pulumi:dev::proj::type").has_value());
  EXPECT_FALSE(ParseUrn("urn:pulumi:dev::proj::type:name").has_value());
  EXPECT_FALSE(ParseUrn("urn:pulumu:dev::proj::type::name").has_value());
  EXPECT_FALSE(ParseUrn("URN:pulumi:dev::proj::type::name").has_value());
  EXPECT_FALSE(ParseUrn(" urn:pulumi:dev::proj::type::name").has_value());
  EXPECT_FALSE(ParseUrn("pulumi:dev::proj::type::name").has_value());
}

TEST(IsProviderTypeTest, Cases) {
  EXPECT_TRUE(IsProviderType("pulumi:providers:aws"));
  EXPECT_TRUE(IsProviderType("pulumi:providers:kubernetes"));
  EXPECT_FALSE(IsProviderType("pulumi:providers:"));
  EXPECT_FALSE(IsProviderType("pulumi:providers"));
  EXPECT_FALSE(IsProviderType("pulumi:providers:aws:extra"));
  EXPECT_FALSE(IsProviderType("pulumi:pulumi:Stack"));
  EXPECT_FALSE(IsProviderType("aws:s3/bucket:Bucket"));
  EXPECT_FALSE(IsProviderType(""));
}

TEST(ParseProviderReferenceTest, SplitsAtTheLastSeparator) {
  std::string_view why = "unset";
  auto ref = ParseProviderReference(
      "urn:pulumi:dev::proj::pulumi:providers:aws::default_6_0_0::"
      "c1b2a3d4-0000-4000-8000-000000000000",
      &why);
  ASSERT_TRUE(ref.has_value()) << why;
  EXPECT_EQ(ref->urn,
            "urn:pulumi:dev::proj::pulumi:providers:aws::default_6_0_0");
  EXPECT_EQ(ref->id, "c1b2a3d4-0000-4000-8000-000000000000");
  // A provider whose name contains "::": the id is after the last one.
  ref = ParseProviderReference(
      "urn:pulumi:dev::proj::pulumi:providers:aws::a::b::id", &why);
  ASSERT_TRUE(ref.has_value());
  EXPECT_EQ(ref->urn, "urn:pulumi:dev::proj::pulumi:providers:aws::a::b");
  EXPECT_EQ(ref->id, "id");
  // A provider under a component: the URN's own type counts.
  const std::string under_component =
      "urn:pulumi:dev::proj::my:C$pulumi:providers:gcp::p::" +
      std::string(kUnknownId);
  ref = ParseProviderReference(under_component, &why);
  ASSERT_TRUE(ref.has_value());
  EXPECT_EQ(ref->id, kUnknownId);
  // An empty id is accepted, as Pulumi does.
  ref = ParseProviderReference(
      "urn:pulumi:dev::proj::pulumi:providers:aws::default::", &why);
  ASSERT_TRUE(ref.has_value());
  EXPECT_EQ(ref->id, "");
}

TEST(ParseProviderReferenceTest, Errors) {
  std::string_view why;
  EXPECT_FALSE(ParseProviderReference("no separator at all", &why));
  EXPECT_NE(why.find("::"), std::string_view::npos) << why;
  why = {};
  EXPECT_FALSE(ParseProviderReference("not-a-urn::id", &why));
  EXPECT_NE(why.find("not a valid URN"), std::string_view::npos) << why;
  why = {};
  // Three separators: the URN part is
  // "urn:pulumi:dev::proj::pulumi:providers:aws" which has too few parts.
  EXPECT_FALSE(ParseProviderReference(
      "urn:pulumi:dev::proj::pulumi:providers:aws::id", &why));
  EXPECT_NE(why.find("not a valid URN"), std::string_view::npos) << why;
  why = {};
  EXPECT_FALSE(ParseProviderReference(
      "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b::id", &why));
  EXPECT_NE(why.find("provider type"), std::string_view::npos) << why;
  why = {};
  EXPECT_FALSE(ParseProviderReference(
      "urn:pulumi:dev::proj::pulumi:providers:aws:x::b::id", &why));
  EXPECT_NE(why.find("provider type"), std::string_view::npos) << why;
}

// Parses `text` into `arena` and recognizes its signature under `rule`.
PropertyKind Recognize(const std::string& text, json::Arena& arena,
                       SecretRule rule = SecretRule::kGo) {
  json::Parser parser;
  auto* v = arena.Allocate<json::Value>(1);
  new (v) json::Value();
  EXPECT_EQ(parser.ParseDocument(text, 0, arena, v), json::ParseStatus::kOk)
      << text;
  Signature sig = RecognizeSignature(*v, rule);
  EXPECT_EQ(IsSecret(*v, rule), sig.secret());
  return sig.kind;
}

PropertyKind Classify(const std::string& text) {
  json::Arena arena;
  return Recognize(text, arena);
}

std::string SigObject(std::string_view sig, std::string_view rest = "") {
  return "{\"" + std::string(kSigKey) + "\":\"" + std::string(sig) + "\"" +
         std::string(rest) + "}";
}

TEST(RecognizeSignatureTest, EachKind) {
  EXPECT_EQ(Classify(SigObject(kSigAsset, ",\"hash\":\"\"")),
            PropertyKind::kAsset);
  EXPECT_EQ(Classify(SigObject(kSigArchive)), PropertyKind::kArchive);
  EXPECT_EQ(Classify(SigObject(kSigSecret, ",\"ciphertext\":\"x\"")),
            PropertyKind::kSecret);
  EXPECT_EQ(Classify(SigObject(kSigResourceReference)),
            PropertyKind::kResourceReference);
  EXPECT_EQ(Classify(SigObject(kSigSpecialFloat)), PropertyKind::kSpecialFloat);
  EXPECT_EQ(Classify(SigObject(kSigByteString)), PropertyKind::kByteString);
  EXPECT_EQ(Classify(SigObject(kSigOutputValue)), PropertyKind::kOutputValue);
  EXPECT_EQ(Classify(SigObject("0123456789abcdef")),
            PropertyKind::kUnrecognized);
  EXPECT_EQ(Classify(SigObject("")), PropertyKind::kUnrecognized);
  EXPECT_EQ(Classify("{\"" + std::string(kSigKey) + "\":42}"),
            PropertyKind::kUnrecognized);
  EXPECT_EQ(Classify("{\"" + std::string(kSigKey) + "\":null}"),
            PropertyKind::kUnrecognized);
}

TEST(RecognizeSignatureTest, PlainValuesAndEscapes) {
  EXPECT_EQ(Classify("{}"), PropertyKind::kObject);
  EXPECT_EQ(Classify(R"({"a":"1b47061264138c4ac30d75fd1eb44270"})"),
            PropertyKind::kObject);
  EXPECT_EQ(Classify("\"" + std::string(kSigSecret) + "\""),
            PropertyKind::kObject);
  EXPECT_EQ(Classify("[" + SigObject(kSigSecret) + "]"), PropertyKind::kObject);
  EXPECT_EQ(Classify("null"), PropertyKind::kObject);
  // Key and value compared unescaped.
  std::string key(kSigKey);
  std::string escaped_key = key.substr(0, key.size() - 1) + "\\u0064";
  ASSERT_EQ(key.back(), 'd');
  EXPECT_EQ(
      Classify("{\"" + escaped_key + "\":\"" + std::string(kSigSecret) + "\"}"),
      PropertyKind::kSecret);
  std::string sig(kSigAsset);
  EXPECT_EQ(Classify(SigObject(sig.substr(0, sig.size() - 1) + "\\u0037")),
            PropertyKind::kAsset);
  ASSERT_EQ(sig.back(), '7');
}

// {SIG:first, SIG:second, "plaintext":...}
std::string TwoSignatures(std::string_view first, std::string_view second) {
  return "{\"" + std::string(kSigKey) + "\":\"" + std::string(first) + "\",\"" +
         std::string(kSigKey) + "\":\"" + std::string(second) +
         "\",\"plaintext\":\"\\\"x\\\"\"}";
}

TEST(RecognizeSignatureTest, AssetThenSecretIsASecretUnderEitherRule) {
  // Go's map keeps the last member: Pulumi reads a secret.
  json::Arena arena;
  std::string text = TwoSignatures(kSigAsset, kSigSecret);
  EXPECT_EQ(Recognize(text, arena, SecretRule::kGo), PropertyKind::kSecret);
  EXPECT_EQ(Recognize(text, arena, SecretRule::kAnySignature),
            PropertyKind::kSecret);
}

TEST(RecognizeSignatureTest, SecretThenAssetIsASecretOnlyToAnySignature) {
  json::Arena arena;
  std::string text = TwoSignatures(kSigSecret, kSigAsset);
  EXPECT_EQ(Recognize(text, arena, SecretRule::kGo), PropertyKind::kAsset);
  EXPECT_EQ(Recognize(text, arena, SecretRule::kAnySignature),
            PropertyKind::kSecret);
}

TEST(RecognizeSignatureTest, TheDecidingMemberIsReported) {
  json::Arena arena;
  json::Parser parser;
  json::Value v;
  ASSERT_EQ(parser.ParseDocument(
                arena.Copy(TwoSignatures(kSigSecret, kSigAsset)), 0, arena, &v),
            json::ParseStatus::kOk);
  Signature go = RecognizeSignature(v, SecretRule::kGo);
  ASSERT_TRUE(go.found());
  EXPECT_EQ(go.member, &v.members[1].value);
  Signature any = RecognizeSignature(v, SecretRule::kAnySignature);
  EXPECT_EQ(any.member, &v.members[0].value);
  EXPECT_FALSE(IsSecret(v, SecretRule::kGo));
  EXPECT_TRUE(IsSecret(v, SecretRule::kAnySignature));
}

TEST(RecognizeSignatureTest, Names) {
  EXPECT_EQ(PropertyKindName(PropertyKind::kObject), "object");
  EXPECT_EQ(PropertyKindName(PropertyKind::kSecret), "secret");
  EXPECT_EQ(PropertyKindName(PropertyKind::kResourceReference),
            "resource reference");
  EXPECT_EQ(PropertyKindName(PropertyKind::kUnrecognized), "unknown signature");
}

TEST(FormatUrnTest, RoundTripsWithParseUrn) {
  const std::string text =
      "urn:pulumi:prod::web::my:mod:App$aws:ec2/instance:Instance::vm::x";
  auto urn = ParseUrn(text);
  ASSERT_TRUE(urn.has_value());
  EXPECT_EQ(FormatUrn(*urn), text);
  EXPECT_EQ(FormatUrn("dev", "proj", "t:m:R", "n"),
            "urn:pulumi:dev::proj::t:m:R::n");
  // Parts are not validated.
  EXPECT_EQ(FormatUrn("", "", "", ""), "urn:pulumi:::::::");
}

TEST(FormatProviderReferenceTest, EmptyIdIsTheUnknownId) {
  const std::string urn = "urn:pulumi:dev::proj::pulumi:providers:aws::default";
  EXPECT_EQ(FormatProviderReference(urn, "id-1"), urn + "::id-1");
  EXPECT_EQ(FormatProviderReference(urn, ""),
            urn + "::" + std::string(kUnknownId));
  std::string_view why;
  const std::string text = FormatProviderReference(urn, "x::y");
  auto ref = ParseProviderReference(text, &why);
  ASSERT_TRUE(ref.has_value());
  EXPECT_EQ(ref->id, "y");  // split at the last "::", as Pulumi does
}

}  // namespace
}  // namespace pstate::state
