#include "verify/verifier.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "state/signature.h"
#include "unit/testing/recording_handler.h"

namespace pstate::verify {
namespace {

using pstate::testing::ReadText;
using Lines = std::vector<std::string>;

constexpr char kStack[] = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
constexpr char kProvider[] =
    "urn:pulumi:dev::proj::pulumi:providers:aws::default";
constexpr char kProviderId[] = "11111111-2222-3333-4444-555555555555";
// A passphrase ciphertext's shape: v1:<12-byte nonce>:<24 bytes>.
constexpr char kCiphertext[] =
    "v1:Tk5OTk5OTk5OTk5O:Q0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0ND";
constexpr char kSalt[] =
    "v1:U1NTU1NTU1M=:v1:Tk5OTk5OTk5OTk5O:Q0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0ND";

std::string Sig(std::string_view sig, std::string_view rest) {
  return "{\"" + std::string(state::kSigKey) + "\":\"" + std::string(sig) +
         "\"" + (rest.empty() ? "" : ",") + std::string(rest) + "}";
}

std::string Resource(std::string_view urn, std::string_view type,
                     std::string_view extra = "", bool custom = true) {
  return "{\"urn\":\"" + std::string(urn) +
         "\",\"custom\":" + (custom ? "true" : "false") + ",\"type\":\"" +
         std::string(type) + "\"" + (extra.empty() ? "" : ",") +
         std::string(extra) + "}";
}

std::string StackResource() {
  return Resource(kStack, "pulumi:pulumi:Stack", "", false);
}

std::string ProviderResource() {
  return Resource(kProvider, "pulumi:providers:aws",
                  "\"id\":\"" + std::string(kProviderId) + "\"");
}

std::string ProviderRef() {
  return std::string(kProvider) + "::" + kProviderId;
}

std::string Bucket(std::string_view name, std::string_view extra = "") {
  return Resource(
      "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::" + std::string(name),
      "aws:s3/bucket:Bucket",
      "\"id\":\"" + std::string(name) + "\",\"parent\":\"" +
          std::string(kStack) + "\",\"provider\":\"" + ProviderRef() + "\"" +
          (extra.empty() ? "" : ",") + std::string(extra));
}

std::string Manifest(
    std::string_view fields =
        R"("time":"2024-05-06T07:08:09.5Z","magic":"","version":"")") {
  return "{" + std::string(fields) + "}";
}

std::string State(const std::vector<std::string>& resources,
                  std::string_view secrets_provider = R"({"type":"b64"})",
                  std::string_view manifest = "") {
  std::string out = "{\"version\":3,\"deployment\":{\"manifest\":" +
                    (manifest.empty() ? Manifest() : std::string(manifest)) +
                    ",\"secrets_providers\":" + std::string(secrets_provider) +
                    ",\"resources\":[";
  for (std::size_t i = 0; i < resources.size(); ++i) {
    out += (i ? "," : "") + resources[i];
  }
  return out + "]}}";
}

struct Verified {
  Status status;
  diag::Report report{"state.json"};
};

void Verify(const std::string& text, Verified* v) {
  Verifier verifier;
  v->status = ReadText(text, verifier, v->report);
}

/// "code pointer" per finding.
Lines Codes(const diag::Report& report) {
  Lines out;
  for (const diag::Finding& f : report.findings()) {
    out.push_back(std::string(f.code_name()) + " " + f.pointer);
  }
  return out;
}

void ExpectNoMessageContains(const diag::Report& report,
                             const std::vector<std::string>& secrets) {
  for (const diag::Finding& f : report.findings()) {
    for (const std::string& s : secrets) {
      EXPECT_EQ(f.message.find(s), std::string::npos)
          << f.code_name() << " message quotes a secret";
      EXPECT_EQ(f.urn.find(s), std::string::npos) << f.code_name();
    }
  }
}

TEST(VerifierTest, CleanStateHasNoFindings) {
  Verified v;
  Verify(State({StackResource(), ProviderResource(), Bucket("b1"),
                Bucket("b2",
                       "\"dependencies\":[\"urn:pulumi:dev::proj::aws:"
                       "s3/bucket:Bucket::b1\"]")}),
         &v);
  ASSERT_TRUE(v.status.ok()) << v.status.message();
  EXPECT_EQ(Codes(v.report), Lines{});
  EXPECT_EQ(v.report.summary().resources, 4u);
}

TEST(VerifierTest, ManifestMagic) {
  const std::string real =
      R"("time":"2019-05-31T10:00:00Z","magic":"a30fca03706c39813da48bc53fcff973e24eb2deed9b31e72dcc69adc238cfe3","version":"v0.17.14-dev.1559249133+g96714654.dirty")";
  Verified ok;
  Verify(State({StackResource()}, R"({"type":"b64"})", Manifest(real)), &ok);
  ASSERT_TRUE(ok.status.ok());
  EXPECT_EQ(Codes(ok.report), Lines{});

  std::string wrong = real;
  wrong.replace(wrong.find("a30f"), 4, "b30f");
  Verified bad;
  const std::string text =
      State({StackResource()}, R"({"type":"b64"})", Manifest(wrong));
  Verify(text, &bad);
  ASSERT_TRUE(bad.status.ok());
  EXPECT_EQ(Codes(bad.report),
            (Lines{"manifest-magic /deployment/manifest/magic"}));
  EXPECT_EQ(bad.report.findings()[0].column, text.find("\"b30f") + 1);
  EXPECT_NE(
      bad.report.findings()[0].message.find(
          "a30fca03706c39813da48bc53fcff973e24eb2deed9b31e72dcc69adc238cfe3"),
      std::string::npos);

  Verified magic_without_version;
  Verify(
      State({}, "null",
            Manifest(
                R"("time":"2019-05-31T10:00:00Z","magic":"abc","version":"")")),
      &magic_without_version);
  EXPECT_EQ(Codes(magic_without_version.report),
            (Lines{"manifest-magic /deployment/manifest/magic"}));

  Verified time;
  Verify(
      State(
          {}, "null",
          Manifest(
              R"("time":"2019-02-30T10:00:00Z","magic":"","version":"","plugins":[{"name":"aws","type":"resource","version":"not semver"}])")),
      &time);
  EXPECT_EQ(Codes(time.report),
            (Lines{"manifest-time /deployment/manifest/time",
                   "manifest-plugin /deployment/manifest/plugins/0/version"}));
}

TEST(VerifierTest, MissingManifest) {
  Verified v;
  Verify(R"({"version":3,"deployment":{"resources":[]}})", &v);
  ASSERT_TRUE(v.status.ok());
  EXPECT_EQ(Codes(v.report), (Lines{"manifest-missing /deployment"}));
}

TEST(VerifierTest, ProviderReferences) {
  Verified ok;
  Verify(State({StackResource(), ProviderResource(), Bucket("b")}), &ok);
  EXPECT_EQ(Codes(ok.report), Lines{});

  // The provider comes after the resource that uses it.
  Verified later;
  Verify(State({StackResource(), Bucket("b"), ProviderResource()}), &later);
  ASSERT_EQ(Codes(later.report),
            (Lines{"provider-unknown /deployment/resources/1/provider"}));
  EXPECT_NE(later.report.findings()[0].message.find("comes after"),
            std::string::npos);
  EXPECT_GT(later.report.findings()[0].line, 0u);
  EXPECT_EQ(later.report.findings()[0].urn,
            "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b");

  // A provider with another id is not the one referenced.
  Verified unknown;
  std::string other = ProviderResource();
  other.replace(other.find(kProviderId), 8, "99999999");
  Verify(State({StackResource(), other, Bucket("b")}), &unknown);
  ASSERT_EQ(Codes(unknown.report),
            (Lines{"provider-unknown /deployment/resources/2/provider"}));
  EXPECT_NE(unknown.report.findings()[0].message.find("names no provider"),
            std::string::npos);

  Verified malformed;
  Verify(State({StackResource(),
                Resource("urn:pulumi:dev::proj::aws:s3/bucket:Bucket::m",
                         "aws:s3/bucket:Bucket",
                         "\"provider\":\"urn:pulumi:dev::proj::aws:s3/bucket:"
                         "Bucket::x::id\"")}),
         &malformed);
  EXPECT_EQ(Codes(malformed.report),
            (Lines{"provider-malformed /deployment/resources/1/provider"}));

  Verified bad_provider;
  Verify(State({Resource("urn:pulumi:dev::proj::aws:s3/bucket:Bucket::p",
                         "pulumi:providers:aws", "\"id\":\"x\"")}),
         &bad_provider);
  EXPECT_EQ(Codes(bad_provider.report),
            (Lines{"urn-type-mismatch /deployment/resources/0/urn",
                   "provider-resource-invalid /deployment/resources/0/urn"}));
}

TEST(VerifierTest, ParentTypeChain) {
  const std::string comp =
      Resource("urn:pulumi:dev::proj::my:index:Comp::c", "my:index:Comp",
               "\"parent\":\"" + std::string(kStack) + "\"", false);
  const std::string good_child = Resource(
      "urn:pulumi:dev::proj::my:index:Comp$aws:s3/bucket:Bucket::child",
      "aws:s3/bucket:Bucket",
      "\"id\":\"i\",\"parent\":\"urn:pulumi:dev::proj::my:index:Comp::c\"");
  const std::string bad_child = Resource(
      "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::child2",
      "aws:s3/bucket:Bucket",
      "\"id\":\"i\",\"parent\":\"urn:pulumi:dev::proj::my:index:Comp::c\"");
  Verified v;
  Verify(State({StackResource(), comp, good_child, bad_child}), &v);
  ASSERT_TRUE(v.status.ok());
  EXPECT_EQ(Codes(v.report),
            (Lines{"parent-type-chain /deployment/resources/3/parent"}));
  EXPECT_EQ(v.report.findings()[0].severity, diag::Severity::kWarning);
  EXPECT_NE(v.report.findings()[0].message.find(
                "expected \"my:index:Comp$aws:s3/bucket:Bucket\""),
            std::string::npos)
      << v.report.findings()[0].message;

  // Parents that come later or not at all.
  Verified order;
  Verify(State({StackResource(), good_child, comp,
                Resource("urn:pulumi:dev::proj::my:index:Comp::orphan",
                         "my:index:Comp",
                         "\"parent\":\"urn:pulumi:dev::proj::my:index:Comp::"
                         "nobody\"",
                         false)}),
         &order);
  EXPECT_EQ(Codes(order.report),
            (Lines{// Reported while reading...
                   "parent-type-chain /deployment/resources/3/parent",
                   // ...and once the whole state is known.
                   "dependency-order /deployment/resources/1/parent",
                   "dependency-missing /deployment/resources/3/parent"}));
}

TEST(VerifierTest, DuplicateUrns) {
  Verified v;
  Verify(State({StackResource(), ProviderResource(), Bucket("b"), Bucket("b")}),
         &v);
  EXPECT_EQ(Codes(v.report), (Lines{"urn-duplicate /deployment/resources/3"}));
  Verified deleted;
  Verify(State({StackResource(), ProviderResource(),
                Bucket("b", "\"delete\":true"), Bucket("b")}),
         &deleted);
  EXPECT_EQ(Codes(deleted.report), Lines{});
}

// Go's decoder keeps the last of two `resources` members, so the integrity
// rules judge only the resources of the last one: a parent that lives only
// in the first array is missing to Pulumi.
TEST(VerifierTest, DuplicateResourcesMemberKeepsTheLastArray) {
  std::string text = State({StackResource(), ProviderResource()});
  text.resize(text.size() - 2);  // drop "}}"
  text += ",\"resources\":[" + ProviderResource() + "," + Bucket("b") + "]}}";
  Verified v;
  Verify(text, &v);
  EXPECT_EQ(Codes(v.report),
            (Lines{"json-duplicate-key /deployment",
                   "dependency-missing /deployment/resources/1/parent"}));
}

TEST(VerifierTest, SecretsShapes) {
  const std::string passphrase =
      R"({"type":"passphrase","state":{"salt":")" + std::string(kSalt) + "\"}}";
  const std::string bad_ct = "v1:c2hvcnQ=:dG9vLXNob3J0";  // short nonce
  Verified v;
  const std::string text = State(
      {StackResource(),
       Resource(
           "urn:pulumi:dev::proj::x:y:Z::s", "x:y:Z",
           "\"id\":\"1\",\"outputs\":{\"good\":" +
               Sig(state::kSigSecret,
                   "\"ciphertext\":\"" + std::string(kCiphertext) + "\"") +
               ",\"bad\":" +
               Sig(state::kSigSecret, "\"ciphertext\":\"" + bad_ct + "\"") +
               ",\"both\":" +
               Sig(state::kSigSecret, "\"ciphertext\":\"" +
                                          std::string(kCiphertext) +
                                          "\",\"plaintext\":\"\\\"pw\\\"\"") +
               ",\"none\":" + Sig(state::kSigSecret, "\"ciphertext\":5") +
               ",\"empty\":" + Sig(state::kSigSecret, "\"ciphertext\":\"\"") +
               "}")},
      passphrase);
  Verify(text, &v);
  ASSERT_TRUE(v.status.ok()) << v.status.message();
  EXPECT_EQ(
      Codes(v.report),
      (Lines{
          "secret-ciphertext-malformed "
          "/deployment/resources/1/outputs/bad/ciphertext",
          "secret-invalid /deployment/resources/1/outputs/both",
          "secret-invalid /deployment/resources/1/outputs/none",
          "secret-invalid /deployment/resources/1/outputs/empty/ciphertext"}));
  ExpectNoMessageContains(v.report, {kCiphertext, bad_ct,
                                     "c2hvcnQ=", "dG9vLXNob3J0", "\\\"pw\\\""});

  // Ciphertexts need a provider to decrypt them.
  Verified missing;
  Verify(State({StackResource(),
                Resource("urn:pulumi:dev::proj::x:y:Z::s", "x:y:Z",
                         "\"id\":\"1\",\"outputs\":{\"good\":" +
                             Sig(state::kSigSecret,
                                 "\"ciphertext\":\"" +
                                     std::string(kCiphertext) + "\"") +
                             "}")},
               "null"),
         &missing);
  EXPECT_EQ(Codes(missing.report), (Lines{"secrets-provider-missing "}));

  // The provider's own state.
  Verified salt;
  Verify(State({}, R"({"type":"passphrase","state":{"salt":"v1:AAAA:x"}})"),
         &salt);
  EXPECT_EQ(
      Codes(salt.report),
      (Lines{
          "secrets-provider-state /deployment/secrets_providers/state/salt"}));
  Verified unknown_provider;
  Verify(State({}, R"({"type":"vault"})"), &unknown_provider);
  EXPECT_EQ(
      Codes(unknown_provider.report),
      (Lines{"secrets-provider-unknown /deployment/secrets_providers/type"}));
}

TEST(VerifierTest, PlaintextParsing) {
  const std::string password = "hunter2-very-secret";
  // A nested secret inside a plaintext carries its JSON text as "ciphertext".
  const std::string nested_ok =
      "{\\\"inner\\\":{\\\"" + std::string(state::kSigKey) + "\\\":\\\"" +
      std::string(state::kSigSecret) + "\\\",\\\"ciphertext\\\":\\\"1\\\"}}";
  const std::string nested_bad_sig = "{\\\"" + std::string(state::kSigKey) +
                                     "\\\":\\\"" + password + "-sig\\\"}";
  const std::string dangling_in_secret =
      "{\\\"" + std::string(state::kSigKey) + "\\\":\\\"" +
      std::string(state::kSigResourceReference) +
      "\\\",\\\"urn\\\":\\\"urn:pulumi:dev::proj::x:y:Z::" + password + "\\\"}";
  Verified v;
  const std::string text = State(
      {StackResource(),
       Resource(
           "urn:pulumi:dev::proj::x:y:Z::s", "x:y:Z",
           "\"id\":\"1\",\"outputs\":{"
           "\"ok\":" +
               Sig(state::kSigSecret,
                   "\"plaintext\":\"\\\"" + password + "\\\"\"") +
               ",\"nested\":" +
               Sig(state::kSigSecret, "\"plaintext\":\"" + nested_ok + "\"") +
               ",\"notjson\":" +
               Sig(state::kSigSecret, "\"plaintext\":\"" + password + "\"") +
               ",\"trailing\":" +
               Sig(state::kSigSecret, "\"plaintext\":\"1 " + password + "\"") +
               ",\"badsig\":" +
               Sig(state::kSigSecret,
                   "\"plaintext\":\"" + nested_bad_sig + "\"") +
               ",\"ref\":" +
               Sig(state::kSigSecret,
                   "\"plaintext\":\"" + dangling_in_secret + "\"") +
               "}")});
  Verify(text, &v);
  ASSERT_TRUE(v.status.ok()) << v.status.message();
  const std::string base = "/deployment/resources/1/outputs/";
  EXPECT_EQ(Codes(v.report),
            (Lines{"secret-plaintext-invalid " + base + "notjson/plaintext",
                   "secret-plaintext-invalid " + base + "trailing/plaintext",
                   "sig-unknown " + base + "badsig/plaintext",
                   "resource-ref-dangling " + base + "ref/plaintext/urn"}));
  // Findings inside a plaintext are placed at the plaintext string.
  std::size_t badsig_at =
      text.find("\"plaintext\":\"{\\\"" + std::string(state::kSigKey) +
                "\\\":\\\"" + password);
  ASSERT_NE(badsig_at, std::string::npos);
  EXPECT_EQ(v.report.findings()[2].column, badsig_at + 13);
  ExpectNoMessageContains(v.report, {password});
  EXPECT_NE(v.report.findings()[2].message.find("not shown"),
            std::string::npos);
  EXPECT_NE(v.report.findings()[3].message.find("not in the state"),
            std::string::npos);
}

TEST(VerifierTest, ResourceReferences) {
  auto ref = [](std::string_view urn) {
    return Sig(state::kSigResourceReference,
               "\"urn\":\"" + std::string(urn) + "\",\"id\":\"x\"");
  };
  const std::string b1 = "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b1";
  Verified v;
  Verify(
      State(
          {StackResource(), ProviderResource(), Bucket("b1"),
           Bucket("b2",
                  "\"inputs\":{\"earlier\":" + ref(b1) + ",\"later\":" +
                      ref("urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b3") +
                      ",\"gone\":[" + ref("urn:pulumi:dev::proj::x:y:Z::gone") +
                      "],\"nourn\":" +
                      Sig(state::kSigResourceReference, "\"id\":\"x\"") +
                      ",\"badid\":" +
                      Sig(state::kSigResourceReference,
                          "\"urn\":\"" + b1 + "\",\"id\":5") +
                      "}"),
           Bucket("b3")}),
      &v);
  ASSERT_TRUE(v.status.ok());
  const std::string base = "/deployment/resources/3/inputs/";
  EXPECT_EQ(Codes(v.report),
            (Lines{"resource-ref-invalid " + base + "nourn",
                   "resource-ref-invalid " + base + "badid/id",
                   "resource-ref-dangling " + base + "gone/0/urn"}));
  EXPECT_EQ(v.report.findings()[2].severity, diag::Severity::kWarning);
}

TEST(VerifierTest, SpecialFloats) {
  auto f = [](std::string_view value) {
    return Sig(state::kSigSpecialFloat, value);
  };
  Verified v;
  Verify(State({StackResource(),
                Resource(
                    "urn:pulumi:dev::proj::x:y:Z::s", "x:y:Z",
                    "\"id\":\"1\",\"outputs\":{\"nan\":" +
                        f(R"("value":"7ff8000000000001")") +
                        ",\"inf\":" + f(R"("value":"fff0000000000000")") +
                        ",\"upper\":" + f(R"("value":"7FF0000000000000")") +
                        ",\"short\":" + f(R"("value":"7ff")") + ",\"number\":" +
                        f(R"("value":1.5)") + ",\"missing\":" + f("") + "}")}),
         &v);
  const std::string base = "/deployment/resources/1/outputs/";
  EXPECT_EQ(Codes(v.report), (Lines{"float-invalid " + base + "upper",
                                    "float-invalid " + base + "short",
                                    "float-invalid " + base + "number",
                                    "float-invalid " + base + "missing"}));
}

TEST(VerifierTest, ByteStrings) {
  auto b = [](std::string_view value) {
    return Sig(state::kSigByteString, value);
  };
  Verified v;
  Verify(State({StackResource(),
                Resource("urn:pulumi:dev::proj::x:y:Z::s", "x:y:Z",
                         "\"id\":\"1\",\"outputs\":{\"ok\":" +
                             b(R"("value":"aGVsbG8=")") +
                             ",\"empty\":" + b(R"("value":"")") +
                             ",\"nopad\":" + b(R"("value":"aGVsbG8")") +
                             ",\"url\":" + b(R"("value":"-_-_")") +
                             ",\"missing\":" + b("") + "}")}),
         &v);
  const std::string base = "/deployment/resources/1/outputs/";
  EXPECT_EQ(Codes(v.report), (Lines{"bytes-invalid " + base + "nopad",
                                    "bytes-invalid " + base + "url",
                                    "bytes-invalid " + base + "missing"}));
}

TEST(VerifierTest, UnknownAndOutputSignatures) {
  Verified v;
  Verify(State({StackResource(),
                Resource("urn:pulumi:dev::proj::x:y:Z::s", "x:y:Z",
                         "\"id\":\"1\",\"outputs\":{\"a\":[" +
                             Sig("not-a-signature", "") + "],\"o\":" +
                             Sig(state::kSigOutputValue, "") + "}")}),
         &v);
  EXPECT_EQ(Codes(v.report),
            (Lines{"sig-unknown /deployment/resources/1/outputs/a/0",
                   "sig-output-value /deployment/resources/1/outputs/o"}));
}

TEST(VerifierTest, ResourceFields) {
  Verified v;
  Verify(State({StackResource(), Resource("not-a-urn", "x:y:Z", "\"id\":\"1\""),
                Resource("urn:pulumi:dev::proj::x:y:Z::c", "x:y:Z",
                         "\"id\":\"has-id\",\"protect\":\"yes\","
                         "\"created\":\"yesterday\"",
                         false),
                "{\"custom\":true}", "[]"}),
         &v);
  EXPECT_EQ(Codes(v.report),
            (Lines{"urn-malformed /deployment/resources/1/urn",
                   "field-type /deployment/resources/2/protect",
                   "component-has-id /deployment/resources/2/id",
                   "field-value /deployment/resources/2/created",
                   "field-missing /deployment/resources/3",
                   "field-missing /deployment/resources/3",
                   "field-type /deployment/resources/4"}));
}

TEST(VerifierTest, WorksWithATinyWindow) {
  const std::string text = State(
      {StackResource(), Bucket("b"), ProviderResource(),
       Resource("not-a-urn", "x:y:Z",
                "\"id\":\"1\",\"outputs\":{\"s\":" +
                    Sig(state::kSigSecret, "\"plaintext\":\"nope\"") + "}")});
  Verified big;
  Verify(text, &big);
  ASSERT_FALSE(big.report.findings().empty());
  Verified tiny;
  Verifier verifier;
  tiny.status = ReadText(text, verifier, tiny.report, 16);
  ASSERT_TRUE(tiny.status.ok());
  EXPECT_EQ(pstate::testing::FindingLines(tiny.report),
            pstate::testing::FindingLines(big.report));
}

}  // namespace
}  // namespace pstate::verify
