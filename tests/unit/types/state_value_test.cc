#include "types/state_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "json/parser.h"
#include "types/type_system.h"

namespace pstate::types {
namespace {

constexpr std::string_view kSig = "\"4dabf18193072939515e22adb298388d\"";

class StateValueTest : public ::testing::Test {
 protected:
  // Parses `text` with every "SIG" replaced by the signature key.
  const json::Value& Parse(std::string text) {
    for (std::size_t at = text.find("SIG"); at != std::string::npos;
         at = text.find("SIG")) {
      text.replace(at, 3, kSig);
    }
    json::Value* v = arena_.Allocate<json::Value>(1);
    new (v) json::Value();
    json::Parser parser;
    EXPECT_EQ(parser.ParseDocument(text, 0, arena_, v), json::ParseStatus::kOk)
        << text;
    return *v;
  }
  Node DecodeText(std::string text) { return Decode(Parse(text), arena_); }

  json::Arena arena_;
};

TEST_F(StateValueTest, PlainKinds) {
  EXPECT_EQ(DecodeText("null").kind, PropertyKind::kNull);
  EXPECT_EQ(DecodeText("true").kind, PropertyKind::kBool);
  EXPECT_EQ(DecodeText("false").kind, PropertyKind::kBool);
  EXPECT_EQ(DecodeText("1e400").kind, PropertyKind::kNumber);
  EXPECT_EQ(DecodeText("\"x\"").kind, PropertyKind::kString);
  EXPECT_EQ(DecodeText("[1]").kind, PropertyKind::kArray);
  EXPECT_EQ(DecodeText("{\"a\":1}").kind, PropertyKind::kObject);
  const json::Value& v = Parse("[1]");
  EXPECT_EQ(Decode(v, arena_).value, &v);
}

TEST_F(StateValueTest, UnknownSentinelOnlyTheComputedOne) {
  EXPECT_EQ(DecodeText("\"04da6b54-80e4-46f7-96ec-b56ff0331ba9\"").kind,
            PropertyKind::kUnknown);
  // Escaped spelling of the same string still decodes to the sentinel.
  EXPECT_EQ(DecodeText("\"04da6b54-80e4-46f7-96ec-b56ff0331ba\\u0039\"").kind,
            PropertyKind::kUnknown);
  // The RPC layer's other sentinels are ordinary strings in a state.
  EXPECT_EQ(DecodeText("\"1c4a061d-8072-4f0a-a4cb-0ff528b18fe7\"").kind,
            PropertyKind::kString);
}

TEST_F(StateValueTest, Assets) {
  EXPECT_EQ(DecodeText(R"({SIG:"c44067f5952c0a294b673a41bacd8c17",)"
                       R"("hash":"ab","text":"hi"})")
                .kind,
            PropertyKind::kAsset);
  EXPECT_EQ(DecodeText(R"({SIG:"c44067f5952c0a294b673a41bacd8c17"})").kind,
            PropertyKind::kAsset);
  Node bad = DecodeText(R"({SIG:"c44067f5952c0a294b673a41bacd8c17","text":1})");
  EXPECT_EQ(bad.kind, PropertyKind::kUnrecognized);
  EXPECT_EQ(bad.reason, "asset text must be a string, not number");
  EXPECT_EQ(DecodeText(R"({SIG:"c44067f5952c0a294b673a41bacd8c17",)"
                       R"("hash":null})")
                .kind,
            PropertyKind::kUnrecognized);
  EXPECT_EQ(DecodeText(R"({SIG:"c44067f5952c0a294b673a41bacd8c17",)"
                       R"("uri":{}})")
                .kind,
            PropertyKind::kUnrecognized);
}

TEST_F(StateValueTest, Archives) {
  EXPECT_EQ(DecodeText(R"({SIG:"0def7320c3a5731c473e5ecbe6d01bc7"})").kind,
            PropertyKind::kArchive);
  EXPECT_EQ(DecodeText(R"({SIG:"0def7320c3a5731c473e5ecbe6d01bc7",)"
                       R"("assets":null})")
                .kind,
            PropertyKind::kArchive);
  EXPECT_EQ(
      DecodeText(R"({SIG:"0def7320c3a5731c473e5ecbe6d01bc7",)"
                 R"("assets":{"a":{SIG:"c44067f5952c0a294b673a41bacd8c17",)"
                 R"("text":"x"},"b":{SIG:"0def7320c3a5731c473e5ecbe6d01bc7",)"
                 R"("path":"p"}}})")
          .kind,
      PropertyKind::kArchive);
  Node not_member = DecodeText(
      R"({SIG:"0def7320c3a5731c473e5ecbe6d01bc7","assets":{"a":"x"}})");
  EXPECT_EQ(not_member.kind, PropertyKind::kUnrecognized);
  EXPECT_EQ(not_member.reason, "archive member 'a' is not an asset or archive");
  EXPECT_EQ(DecodeText(R"({SIG:"0def7320c3a5731c473e5ecbe6d01bc7",)"
                       R"("assets":[]})")
                .kind,
            PropertyKind::kUnrecognized);
  EXPECT_EQ(DecodeText(R"({SIG:"0def7320c3a5731c473e5ecbe6d01bc7",)"
                       R"("path":5})")
                .kind,
            PropertyKind::kUnrecognized);
  // A malformed asset inside an archive makes the archive malformed.
  EXPECT_EQ(
      DecodeText(R"({SIG:"0def7320c3a5731c473e5ecbe6d01bc7",)"
                 R"("assets":{"a":{SIG:"c44067f5952c0a294b673a41bacd8c17",)"
                 R"("text":true}}})")
          .kind,
      PropertyKind::kUnrecognized);
}

TEST_F(StateValueTest, SecretPlaintextIsParsed) {
  Node n = DecodeText(R"({SIG:"1b47061264138c4ac30d75fd1eb44270",)"
                      R"("plaintext":"[1,\"a\",{\"k\":true}]"})");
  ASSERT_EQ(n.kind, PropertyKind::kSecret);
  ASSERT_NE(n.secret_inner, nullptr);
  ASSERT_TRUE(n.secret_inner->is_array());
  EXPECT_EQ(n.secret_inner->array().size(), 3u);
  EXPECT_EQ(n.secret_inner->array()[1].Str(), "a");
}

TEST_F(StateValueTest, SecretCiphertextOnlyHasNoInner) {
  Node n = DecodeText(R"({SIG:"1b47061264138c4ac30d75fd1eb44270",)"
                      R"("ciphertext":"AAAA"})");
  ASSERT_EQ(n.kind, PropertyKind::kSecret);
  EXPECT_EQ(n.secret_inner, nullptr);
}

TEST_F(StateValueTest, SecretMalformed) {
  for (const char* text :
       {R"({SIG:"1b47061264138c4ac30d75fd1eb44270"})",
        R"({SIG:"1b47061264138c4ac30d75fd1eb44270","plaintext":"1",)"
        R"("ciphertext":"x"})",
        R"({SIG:"1b47061264138c4ac30d75fd1eb44270","plaintext":1})"}) {
    Node n = DecodeText(text);
    EXPECT_EQ(n.kind, PropertyKind::kUnrecognized) << text;
    EXPECT_NE(n.reason.find("malformed secret value"), std::string::npos);
  }
  // A non-string ciphertext does not count as supplied (deployment.go).
  EXPECT_EQ(DecodeText(R"({SIG:"1b47061264138c4ac30d75fd1eb44270",)"
                       R"("plaintext":"1","ciphertext":5})")
                .kind,
            PropertyKind::kSecret);
}

TEST_F(StateValueTest, SecretPlaintextNotJsonDoesNotLeak) {
  Node n = DecodeText(R"({SIG:"1b47061264138c4ac30d75fd1eb44270",)"
                      R"("plaintext":"hunter2-not-json"})");
  ASSERT_EQ(n.kind, PropertyKind::kUnrecognized);
  EXPECT_EQ(n.reason.find("hunter2"), std::string::npos);
  EXPECT_EQ(n.reason, "secret plaintext is not valid JSON");
}

TEST_F(StateValueTest, ResourceReferences) {
  constexpr std::string_view kRef =
      R"({SIG:"5cf8f73096256a8f31e491e813e4eb8e",)";
  auto ref = [&](std::string rest) {
    return DecodeText(std::string(kRef) + rest);
  };
  EXPECT_EQ(ref(R"("urn":"urn:pulumi:s::p::t::n"})").kind,
            PropertyKind::kResourceReference);
  EXPECT_EQ(ref(R"("urn":"u","id":"i","packageVersion":"1.0.0"})").kind,
            PropertyKind::kResourceReference);
  EXPECT_EQ(ref(R"("urn":"u","id":{"V":"i"}})").kind,
            PropertyKind::kResourceReference);
  EXPECT_EQ(ref(R"("urn":"u","id":{"V":null}})").kind,
            PropertyKind::kResourceReference);
  EXPECT_EQ(ref(R"("urn":"u","id":{"V":{}}})").kind,
            PropertyKind::kResourceReference);
  EXPECT_EQ(ref(R"("urn":"u","id":{}})").kind,
            PropertyKind::kResourceReference);
  Node no_urn = ref(R"("id":"i"})");
  EXPECT_EQ(no_urn.kind, PropertyKind::kUnrecognized);
  EXPECT_EQ(no_urn.reason, "malformed resource reference: missing urn");
  EXPECT_EQ(ref(R"("urn":5})").kind, PropertyKind::kUnrecognized);
  Node pv = ref(R"("urn":"u","packageVersion":1})");
  EXPECT_EQ(pv.reason,
            "malformed resource reference: packageVersion must be a string");
  Node id = ref(R"("urn":"u","id":7})");
  EXPECT_EQ(id.reason, "malformed resource reference: id must be a string");
  EXPECT_EQ(ref(R"("urn":"u","id":null})").kind, PropertyKind::kUnrecognized);
  EXPECT_EQ(ref(R"("urn":"u","id":{"V":3}})").kind,
            PropertyKind::kUnrecognized);
}

TEST_F(StateValueTest, SpecialFloats) {
  Node inf = DecodeText(
      R"({SIG:"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"7ff0000000000000"})");
  ASSERT_EQ(inf.kind, PropertyKind::kSpecialFloat);
  EXPECT_TRUE(std::isinf(inf.special));
  EXPECT_GT(inf.special, 0);
  Node ninf = DecodeText(
      R"({SIG:"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"FFF0000000000000"})");
  ASSERT_EQ(ninf.kind, PropertyKind::kSpecialFloat);
  EXPECT_LT(ninf.special, 0);
  Node nan = DecodeText(
      R"({SIG:"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"7ff8000000000001"})");
  ASSERT_EQ(nan.kind, PropertyKind::kSpecialFloat);
  EXPECT_TRUE(std::isnan(nan.special));
  for (const char* bad :
       {R"("value":"xyz")", R"("value":7)", R"("v":"1")", R"("value":"")",
        R"("value":"-1")", R"("value":"7ff00000000000000")"}) {
    EXPECT_EQ(
        DecodeText(
            std::string(R"({SIG:"8ad145fe-0d11-4827-bfd7-1abcbf086f5c",)") +
            bad + "}")
            .kind,
        PropertyKind::kUnrecognized)
        << bad;
  }
}

TEST_F(StateValueTest, ByteStrings) {
  EXPECT_EQ(DecodeText(R"({SIG:"803fd3297a5875dc03ca845dda5d2a98",)"
                       R"("value":"/w=="})")
                .kind,
            PropertyKind::kByteString);
  EXPECT_EQ(DecodeText(R"({SIG:"803fd3297a5875dc03ca845dda5d2a98",)"
                       R"("value":""})")
                .kind,
            PropertyKind::kByteString);
  for (const char* bad : {R"("value":"/w")", R"("value":"!!!!")",
                          R"("value":"/w==AA==")", R"("value":5)", "\"x\":1"}) {
    EXPECT_EQ(
        DecodeText(std::string(R"({SIG:"803fd3297a5875dc03ca845dda5d2a98",)") +
                   bad + "}")
            .kind,
        PropertyKind::kUnrecognized)
        << bad;
  }
}

TEST_F(StateValueTest, UnrecognizedSignatures) {
  for (const char* text :
       {R"({SIG:"d0e6a833031e9bbcd3f4e8bde6ca49a4","value":1})",
        R"({SIG:"nope"})", R"({SIG:5})"}) {
    Node n = DecodeText(text);
    EXPECT_EQ(n.kind, PropertyKind::kUnrecognized) << text;
    EXPECT_EQ(n.reason, "unrecognized signature");
  }
}

TEST(SystemNamesTest, RoundTrip) {
  for (System s : {System::kPulumi, System::kPulumiSchema, System::kPcl,
                   System::kCty, System::kTerraform, System::kPuppet}) {
    EXPECT_EQ(ParseSystem(SystemName(s)), s);
  }
  EXPECT_EQ(SystemName(System::kPulumiSchema), "pulumi-schema");
  EXPECT_FALSE(ParseSystem("Pulumi").has_value());
  EXPECT_FALSE(ParseSystem("").has_value());
  EXPECT_EQ(OutcomeName(Outcome::kOk), "ok");
  EXPECT_EQ(OutcomeName(Outcome::kConvert), "convert");
  EXPECT_EQ(OutcomeName(Outcome::kError), "error");
}

}  // namespace
}  // namespace pstate::types
