// LeakScanner: each rule with its negative cases.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "crypto/fingerprint.h"
#include "json/parser.h"
#include "json/string_codec.h"
#include "scan/known_secrets.h"
#include "scan/leak_scanner.h"

namespace pstate::scan {
namespace {

/// `s` as a JSON string literal (test input).
std::string JsonLiteral(std::string_view s) {
  std::string out = "\"";
  json::AppendEscaped(s, &out);
  return out + "\"";
}

constexpr char kSig[] =
    "\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\"";

std::string Plain(std::string_view json_payload) {
  return std::string("{") + kSig +
         ",\"plaintext\":" + JsonLiteral(json_payload) + "}";
}
std::string Cipher() {
  return std::string("{") + kSig +
         ",\"ciphertext\":\"v1:AAAAAAAAAAAAAAAA:"
         "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}";
}

class LeakScannerTest : public ::testing::Test {
 protected:
  LeakScannerTest()
      : fingerprinter_(*crypto::Fingerprinter::FromKey("test-key")) {}

  /// Scans `resource` (JSON text) and returns its leaks.
  std::vector<Leak> Scan(const std::string& resource, bool collect = true) {
    json::Parser parser;
    json::Value v;
    EXPECT_EQ(parser.ParseDocument(resource, 0, arena_, &v),
              json::ParseStatus::kOk)
        << resource;
    if (collect) {
      SecretCollector collector(&known_, nullptr);
      collector.Collect(v);
    }
    LeakOptions options;
    options.fingerprinter = &fingerprinter_;
    options.known_secrets = &known_;
    LeakScanner scanner(options);
    std::vector<Leak> leaks;
    scanner.ScanResource(v, "/deployment/resources/0", &leaks);
    return leaks;
  }

  static std::string Resource(const std::string& inputs,
                              const std::string& outputs,
                              const std::string& extra = "") {
    return "{\"urn\":\"urn:pulumi:dev::proj::t:m:R::name\",\"type\":\"t:m:R\","
           "\"custom\":true,\"id\":\"res-id-1\",\"inputs\":" +
           inputs + ",\"outputs\":" + outputs + extra + "}";
  }

  crypto::Fingerprinter fingerprinter_;
  KnownSecrets known_;
  json::Arena arena_;
};

// ---- leak-additional-secret-output

TEST_F(LeakScannerTest, AdditionalSecretOutputInPlaintext) {
  auto leaks =
      Scan(Resource("{}", "{\"result\":\"Zq8mK2pL9xVb\",\"other\":\"x\"}",
                    ",\"additionalSecretOutputs\":[\"result\"]"));
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_EQ(leaks[0].code, diag::Code::kLeakAdditionalSecretOutput);
  EXPECT_EQ(leaks[0].pointer, "/deployment/resources/0/outputs/result");
  EXPECT_EQ(leaks[0].urn, "urn:pulumi:dev::proj::t:m:R::name");
  ASSERT_NE(leaks[0].value, nullptr);
  EXPECT_TRUE(leaks[0].value->StrEquals("Zq8mK2pL9xVb"));
  EXPECT_NE(leaks[0].message.find("\"result\""), std::string::npos);
  EXPECT_NE(leaks[0].message.find(
                "(hmac-sha256 " +
                fingerprinter_.ShortFingerprint("Zq8mK2pL9xVb") + ")"),
            std::string::npos);
}

TEST_F(LeakScannerTest, AdditionalSecretOutputNegatives) {
  // Secret, null, empty, missing, non-string list entries: nothing.
  auto leaks = Scan(Resource(
      "{}", "{\"a\":" + Cipher() + ",\"b\":null,\"c\":\"\",\"d\":{},\"e\":[]}",
      ",\"additionalSecretOutputs\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"missing\","
      "7]"));
  EXPECT_TRUE(leaks.empty());
}

TEST_F(LeakScannerTest, AdditionalSecretOutputObjectHasNoSingleValue) {
  auto leaks = Scan(Resource("{}", "{\"conf\":{\"k\":1}}",
                             ",\"additionalSecretOutputs\":[\"conf\"]"));
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_EQ(leaks[0].value, nullptr);
}

// ---- leak-secret-mismatch

TEST_F(LeakScannerTest, SecretInOutputsPlaintextInInputs) {
  // pulumi/pulumi#13286: the private key in inputs, encrypted in outputs.
  auto leaks =
      Scan(Resource("{\"privateKeyOpenssh\":\"some-key-material-text\"}",
                    "{\"privateKeyOpenssh\":" + Cipher() + "}"));
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_EQ(leaks[0].code, diag::Code::kLeakSecretMismatch);
  EXPECT_EQ(leaks[0].pointer,
            "/deployment/resources/0/inputs/privateKeyOpenssh");
  EXPECT_NE(leaks[0].message.find("secret in outputs but plaintext in inputs"),
            std::string::npos);
}

TEST_F(LeakScannerTest, SecretInInputsPlaintextInOutputs) {
  auto leaks = Scan(Resource("{\"token\":" + Cipher() + "}",
                             "{\"token\":\"abc-plain-token-value\"}"));
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_EQ(leaks[0].code, diag::Code::kLeakSecretMismatch);
  EXPECT_EQ(leaks[0].pointer, "/deployment/resources/0/outputs/token");
}

TEST_F(LeakScannerTest, KubernetesInputsCopyInOutputs) {
  // pulumi/pulumi-kubernetes#2300: outputs.data secret, outputs.__inputs.data
  // not.
  auto leaks = Scan(Resource(
      "{\"kind\":\"Secret\"}",
      "{\"__inputs\":{\"data\":{\"password\":\"czNjcjN0LXZhbHVl\"}},\"data\":" +
          Cipher() + "}"));
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_EQ(leaks[0].code, diag::Code::kLeakSecretMismatch);
  EXPECT_EQ(leaks[0].pointer, "/deployment/resources/0/outputs/__inputs/data");
  EXPECT_EQ(leaks[0].value, nullptr);  // an object
}

TEST_F(LeakScannerTest, MismatchNegatives) {
  // Both secret; plaintext side empty or null; only on one side; and a known
  // secret value that differs from the plaintext side (a hash of it).
  auto leaks = Scan(Resource(
      "{\"a\":" + Cipher() + ",\"b\":" + Cipher() + ",\"c\":" + Cipher() +
          ",\"d\":" + Cipher() +
          ",\"userData\":" + Plain("\"#!/bin/sh\\necho hello-world\"") + "}",
      "{\"a\":" + Cipher() +
          ",\"b\":\"\",\"c\":null,\"e\":\"plain\","
          "\"userData\":\"9a3c1f5e7d2b4a6c8e0f1a3b5c7d9e1f2a4b6c8d\"}"));
  EXPECT_TRUE(leaks.empty()) << leaks[0].pointer;
}

TEST_F(LeakScannerTest, MismatchWithKnownEqualValueIsReported) {
  auto leaks = Scan(Resource("{\"apiKey\":" + Plain("\"same-value-123\"") + "}",
                             "{\"apiKey\":\"same-value-123\"}"));
  ASSERT_EQ(leaks.size(), 1u);  // one finding per value: mismatch wins
  EXPECT_EQ(leaks[0].code, diag::Code::kLeakSecretMismatch);
  EXPECT_NE(
      leaks[0].message.find(fingerprinter_.ShortFingerprint("same-value-123")),
      std::string::npos);
}

// ---- leak-known-secret

TEST_F(LeakScannerTest, KnownSecretAsResourceId) {
  // pulumi/pulumi#8946: RandomId's key in the clear as the id.
  auto leaks = Scan(
      "{\"urn\":\"urn:pulumi:dev::proj::random:index/randomId:RandomId::k\","
      "\"type\":\"random:index/randomId:RandomId\",\"custom\":true,"
      "\"id\":\"q9Zx3Lk_wP0\",\"outputs\":{\"b64Url\":" +
      Plain("\"q9Zx3Lk_wP0\"") + "}}");
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_EQ(leaks[0].code, diag::Code::kLeakKnownSecret);
  EXPECT_EQ(leaks[0].pointer, "/deployment/resources/0/id");
  EXPECT_NE(leaks[0].message.find("equals"), std::string::npos);
}

TEST_F(LeakScannerTest, KnownSecretInsideStringsUrnAndDeepValues) {
  known_.Add("my-db-password-1");
  auto leaks = Scan(
      "{\"urn\":\"urn:pulumi:dev::proj::t:m:R::x-my-db-password-1\",\"type\":"
      "\"t:m:R\","
      "\"inputs\":{\"cfg\":{\"list\":[\"a\",\"conn=x;pw=my-db-password-1;\"]}},"
      "\"outputs\":{\"k\":\"my-db-password-1\"}}");
  ASSERT_EQ(leaks.size(), 3u);
  // A URN is a name: a note, never a leak, and the URN is printed masked.
  EXPECT_EQ(leaks[0].pointer, "/deployment/resources/0/urn");
  EXPECT_EQ(leaks[0].code, diag::Code::kLeakSecretInName);
  EXPECT_EQ(leaks[1].pointer, "/deployment/resources/0/inputs/cfg/list/1");
  EXPECT_NE(leaks[1].message.find("contains"), std::string::npos);
  EXPECT_EQ(leaks[2].pointer, "/deployment/resources/0/outputs/k");
  for (std::size_t i = 1; i < leaks.size(); ++i) {
    EXPECT_EQ(leaks[i].code, diag::Code::kLeakKnownSecret);
  }
  for (const Leak& l : leaks) {
    EXPECT_EQ(l.urn, "urn:pulumi:dev::proj::t:m:R::x-***");
  }
}

// ---- F5: identifiers that contain a secret are printed masked

TEST_F(LeakScannerTest, SecretInKeysAndNamesIsMasked) {
  // A map key equal to a secret, a credential-named property whose name
  // holds a secret, and a weak secret (too weak to search for) that is
  // also the stack name.
  known_.Add("keyleak-SECRET-S04");
  known_.Add("production");
  auto leaks = Scan(
      "{\"urn\":\"urn:pulumi:production::proj::t:m:R::n\",\"type\":\"t:m:R\","
      "\"inputs\":{\"m\":{\"keyleak-SECRET-S04\":{\"apiToken\":\"tok-"
      "Zq81xWvB3\"}},"
      "\"keyleak-SECRET-S04_password\":\"Pw-Zq81xWvB3q\"}}");
  ASSERT_EQ(leaks.size(), 2u);
  for (const Leak& l : leaks) {
    for (const std::string* text : {&l.message, &l.pointer, &l.urn}) {
      EXPECT_EQ(text->find("keyleak-SECRET-S04"), std::string::npos)
          << l.pointer;
      EXPECT_EQ(text->find("production"), std::string::npos);
    }
    EXPECT_EQ(l.urn, "urn:pulumi:***::proj::t:m:R::n");
  }
  EXPECT_EQ(leaks[0].pointer, "/deployment/resources/0/inputs/m/***/apiToken");
  EXPECT_EQ(leaks[1].message.find("\"***_password\""), 9u)
      << "property name masked";
}

// ---- §5: real states

TEST_F(LeakScannerTest, StructuredSecretsDoNotFloodKnownSecret) {
  // awsx marks tagsAll secret; pulumi-kubernetes marks a Helm Release's
  // __inputs secret. Their names, tags and chart data are everywhere.
  std::string tags = "{\"Name\":\"prod-eks-cluster-01\",\"Tier\":\"Private\"}";
  std::string helm =
      "{\"namespace\":\"ingress-system-01\",\"chart\":\"ingress-nginx-4\","
      "\"repositoryOpts\":{\"repo\":\"https://kubernetes.github.io/"
      "ingress-nginx\"},"
      "\"values\":{\"auth\":{\"password\":\"Helm-Pa55-word\"}}}";
  auto leaks = Scan(
      "{\"urn\":\"urn:pulumi:dev::proj::aws:eks/"
      "cluster:Cluster::prod-eks-cluster-01\","
      "\"type\":\"aws:eks/cluster:Cluster\",\"custom\":true,"
      "\"id\":\"prod-eks-cluster-01\",\"inputs\":{\"tags\":{\"Name\":"
      "\"prod-eks-cluster-01\",\"Tier\":\"Private\"},\"ns\":\"ingress-system-"
      "01\","
      "\"copy\":\"Helm-Pa55-word\"},\"outputs\":{\"tagsAll\":" +
      Plain(tags) + ",\"__inputs\":" + Plain(helm) +
      ",\"chart\":\"ingress-nginx-4\"}}");
  ASSERT_EQ(leaks.size(), 1u) << leaks[0].pointer;
  EXPECT_EQ(leaks[0].code, diag::Code::kLeakKnownSecret);
  EXPECT_EQ(leaks[0].pointer, "/deployment/resources/0/inputs/copy");
}

TEST_F(LeakScannerTest, ResourceNamesAreNeverKnownSecretLeaks) {
  // A secret that happens to be the resource name: the name, its auto-name
  // and the type in values are names, not leaks (the URN gets a note).
  known_.Add("db-Zq81xWvB3");
  auto leaks = Scan(
      "{\"urn\":\"urn:pulumi:dev::proj::aws:rds/"
      "instance:Instance::db-Zq81xWvB3\","
      "\"type\":\"aws:rds/instance:Instance\",\"custom\":true,"
      "\"id\":\"db-Zq81xWvB3-4f2a9c1\",\"outputs\":{\"identifier\":"
      "\"db-Zq81xWvB3-4f2a9c1\",\"name\":\"db-Zq81xWvB3\",\"other\":"
      "\"copy db-Zq81xWvB3 here\"}}");
  ASSERT_EQ(leaks.size(), 2u);
  EXPECT_EQ(leaks[0].code, diag::Code::kLeakSecretInName);
  EXPECT_EQ(leaks[1].code, diag::Code::kLeakKnownSecret);
  EXPECT_EQ(leaks[1].pointer, "/deployment/resources/0/outputs/other");
}

TEST_F(LeakScannerTest, NameValuePairsUseTheSiblingName) {
  auto leaks = Scan(Resource(
      "{\"containers\":[{\"env\":[{\"name\":\"DB_PASSWORD\",\"value\":\"k8s-"
      "Pa55word\"},"
      "{\"name\":\"LOG_LEVEL\",\"value\":\"verbose-debug\"}]}],"
      "\"containerDefinitions\":[{\"environment\":[{\"name\":\"API_TOKEN\","
      "\"value\":\"ecs-T0ken-value\"}],\"secrets\":[{\"name\":\"DB_PASSWORD\","
      "\"valueFrom\":\"arn:aws:ssm:us-east-1:1:parameter/db\"}]}]}",
      "{\"allSettings\":[{\"namespace\":\"aws:elasticbeanstalk:application:"
      "environment\","
      "\"name\":\"SECRET_KEY\",\"value\":\"eb-S3cret-value\"}]}"));
  ASSERT_EQ(leaks.size(), 3u);
  for (const Leak& l : leaks)
    EXPECT_EQ(l.code, diag::Code::kLeakCredentialProperty);
  EXPECT_EQ(leaks[0].pointer,
            "/deployment/resources/0/inputs/containers/0/env/0/value");
  EXPECT_NE(leaks[0].message.find("\"DB_PASSWORD\""), std::string::npos);
  EXPECT_EQ(leaks[1].pointer,
            "/deployment/resources/0/inputs/containerDefinitions/0/environment/"
            "0/value");
  EXPECT_EQ(leaks[2].pointer,
            "/deployment/resources/0/outputs/allSettings/0/value");
}

TEST_F(LeakScannerTest, HelmResourceNamesAreNotCredentials) {
  auto leaks = Scan(Resource(
      "{}",
      "{\"resourceNames\":{\"Secret/v1\":[\"ingress/ingress-nginx-admission\"],"
      "\"Secret.core/v1\":[\"ingress/tls-cert-store\"]}}"));
  EXPECT_TRUE(leaks.empty()) << leaks[0].pointer;
}

TEST_F(LeakScannerTest, PasswordHashesAreTheirOwnWarning) {
  auto leaks = Scan(Resource(
      "{\"password\":\"$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/"
      "PgBkqquzi.Ss7KIUgO2t0jWMUW\","
      "\"adminPassword\":\"$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$"
      "RdescudvJCsgt3ub+b+dWRWJTmaaJObG\","
      "\"rootPassword\":\"$6$rounds=5000$saltsalt$"
      "Xf0mQ1n8C2lxPZk2lq6Rk3Gs1vyMdxq.8XxRkNw0wJ2\","
      "\"userPassword\":\"pbkdf2_sha256$600000$c2FsdA$Zm9vYmFyYmF6cXV4cXV1eA=="
      "\"}",
      "{\"dbPassword\":\"ENC[AES256_GCM,data:Zm9vYmFy,iv:YWJj,tag:ZGVm,type:"
      "str]\","
      "\"vaultPassword\":\"vault:v1:"
      "8SDd3WHDOjf7mq69CyCqYjBXAiQQAVZRkFM13ok481zoCmHnSeDX9vyf7w==\"}"));
  ASSERT_EQ(leaks.size(), 4u);
  for (const Leak& l : leaks) EXPECT_EQ(l.code, diag::Code::kLeakPasswordHash);
  EXPECT_EQ(diag::Info(diag::Code::kLeakPasswordHash).severity,
            diag::Severity::kWarning);
}

TEST_F(LeakScannerTest, RedactionPlaceholdersScanClean) {
  // What `pstate redact --leaks` leaves behind is not a leak (B9).
  auto leaks = Scan(Resource(
      "{\"contentType\":" + Plain("\"[redacted by pstate]\"") +
          ",\"token\":\"[redacted by pstate]\"}",
      "{\"contentType\":\"[redacted by pstate]\",\"result\":\"hmac-sha256:"
      "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\","
      "\"apiKey\":\"hmac-sha256:"
      "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\"}",
      ",\"additionalSecretOutputs\":[\"result\"]"));
  EXPECT_TRUE(leaks.empty()) << leaks[0].pointer;
}

TEST_F(LeakScannerTest, RedactedLeakedTreesScanClean) {
  // What `redact --leaks` leaves of a leaked object: placeholders, nested
  // secrets and null (B9 on a generated state).
  auto leaks = Scan(Resource(
      "{\"environment\":{\"variables\":{\"API_KEY\":" + Cipher() +
          ",\"STAGE\":\"[redacted by pstate]\",\"X\":null}}}",
      "{\"environment\":" + Cipher() + ",\"tags\":[\"[redacted by pstate]\"]}",
      ",\"additionalSecretOutputs\":[\"tags\"]"));
  EXPECT_TRUE(leaks.empty()) << leaks[0].pointer;
  // One plain value left is still a leak.
  auto more = Scan(Resource(
      "{\"environment\":{\"variables\":{\"STAGE\":\"[redacted by pstate]\","
      "\"X\":\"prod\"}}}",
      "{\"environment\":" + Cipher() + "}"));
  ASSERT_EQ(more.size(), 1u);
  EXPECT_EQ(more[0].code, diag::Code::kLeakSecretMismatch);
}

TEST_F(LeakScannerTest, DuplicateOutputsAreAllScanned) {
  // Go keeps the last "outputs" (S08); the first is still in the file.
  auto leaks = Scan(
      "{\"urn\":\"urn:pulumi:dev::proj::t:m:R::n\",\"type\":\"t:m:R\","
      "\"outputs\":{\"password\":\"Zx9!kq2LmP0wQrT-first\"},"
      "\"outputs\":{\"password\":\"Zx9!kq2LmP0wQrT-R28\"}}");
  ASSERT_EQ(leaks.size(), 2u);
  EXPECT_EQ(leaks[1].code, diag::Code::kLeakCredentialProperty);
}

TEST_F(LeakScannerTest, DuplicateSignatureKeyStillASecret) {
  // First signature says asset, the last (Go's) says secret: nothing inside
  // is reported as a plaintext credential.
  auto leaks =
      Scan(Resource("{}",
                    "{\"password\":{\"4dabf18193072939515e22adb298388d\":"
                    "\"c44067f5952c0a294b673a41bacd8c17\","
                    "\"4dabf18193072939515e22adb298388d\":"
                    "\"1b47061264138c4ac30d75fd1eb44270\",\"plaintext\":"
                    "\"\\\"dup-Sig-S3cret\\\"\"}}"));
  EXPECT_TRUE(leaks.empty()) << leaks[0].pointer;
}

TEST_F(LeakScannerTest, KnownSecretNegatives) {
  // The secret itself, keys equal to a secret, short and common secrets.
  auto leaks = Scan(Resource(
      "{\"pw\":" + Plain("\"abc12\"") + ",\"flag\":" + Plain("\"true\"") +
          ",\"n\":" + Plain("\"16\"") +
          ",\"key\":" + Plain("\"long-enough-secret\"") + "}",
      "{\"long-enough-secret\":1,\"mode\":\"abc12\",\"enabled\":\"true\","
      "\"size\":\"16\",\"pw\":" +
          Cipher() + ",\"flag\":" + Cipher() + ",\"n\":" + Cipher() +
          ",\"key\":" + Cipher() + "}"));
  EXPECT_TRUE(leaks.empty()) << leaks[0].pointer;
}

// ---- leak-credential-property

TEST_F(LeakScannerTest, CredentialPropertyAtAnyDepth) {
  auto leaks =
      Scan(Resource("{\"environment\":{\"variables\":{\"DB_PASSWORD\":"
                    "\"correct-horse-battery\"}}}",
                    "{\"connections\":[{\"connectionString\":\"Server=db;"
                    "Database=x;Pwd=abc123xyz\"}]}"));
  ASSERT_EQ(leaks.size(), 2u);
  EXPECT_EQ(leaks[0].code, diag::Code::kLeakCredentialProperty);
  EXPECT_EQ(leaks[0].pointer,
            "/deployment/resources/0/inputs/environment/variables/DB_PASSWORD");
  EXPECT_NE(leaks[0].message.find("\"DB_PASSWORD\""), std::string::npos);
  EXPECT_EQ(leaks[1].code, diag::Code::kLeakCredentialProperty);
  EXPECT_EQ(leaks[1].pointer,
            "/deployment/resources/0/outputs/connections/0/connectionString");
}

TEST_F(LeakScannerTest, CredentialPropertyNegatives) {
  auto leaks = Scan(Resource(
      "{\"passwordLength\":16,\"password\":\"\",\"tokenTtl\":\"3600\","
      "\"secretName\":\"prod/"
      "db\",\"masterPassword\":\"v1:AAAAAAAAAAAAAAAA:"
      "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\","
      "\"metadataOptions\":{\"httpTokens\":\"required\"},\"adminPassword\":\"<"
      "your-password>\","
      "\"apiKey\":\"${API_KEY}\",\"clientSecret\":\"true\",\"dbPassword\":" +
          Cipher() +
          ","
          "\"secretArn\":\"arn:aws:secretsmanager:us-west-2:1:secret:x\","
          "\"authToken\":\"********\","
          "\"kubeconfig\":\"apiVersion: v1\\nusers:\\n- user:\\n    exec:\\n   "
          "   args: [eks, get-token]\\n\"}",
      "{\"password\":null}"));
  EXPECT_TRUE(leaks.empty()) << leaks[0].pointer;
}

TEST_F(LeakScannerTest, KubeconfigWithCredentialMaterial) {
  auto leaks = Scan(Resource("{}",
                             "{\"kubeconfig\":\"apiVersion: v1\\nusers:\\n- "
                             "user:\\n    token: abcdefabcdef0123\\n\"}"));
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_EQ(leaks[0].code, diag::Code::kLeakCredentialProperty);
}

// ---- leak-credential-format

TEST_F(LeakScannerTest, CredentialFormatAnywhere) {
  auto leaks = Scan(Resource(
      "{\"description\":\"deploys with AKIA2E5Q7VJ3XK4M6ZTB for now\"}",
      "{\"note\":[\"x\",\"ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c\"]}"));
  ASSERT_EQ(leaks.size(), 2u);
  EXPECT_EQ(leaks[0].code, diag::Code::kLeakCredentialFormat);
  EXPECT_NE(leaks[0].message.find("aws-access-key-id"), std::string::npos);
  EXPECT_NE(leaks[0].message.find(
                fingerprinter_.ShortFingerprint("AKIA2E5Q7VJ3XK4M6ZTB")),
            std::string::npos);
  EXPECT_NE(leaks[1].message.find("github-token"), std::string::npos);
  EXPECT_EQ(leaks[1].pointer, "/deployment/resources/0/outputs/note/1");
}

TEST_F(LeakScannerTest, CredentialFormatNegatives) {
  // Inside a secret (as a plaintext payload), test-mode keys, lookalikes.
  auto leaks = Scan(
      Resource("{\"k\":" + Plain("\"AKIA2E5Q7VJ3XK4M6ZTB\"") +
                   ",\"stripe\":\"sk_test_abcdefghijklmnopqrstuvwx\"}",
               "{\"text\":\"XAKIA2E5Q7VJ3XK4M6ZTBX\",\"k\":" + Cipher() + "}"),
      /*collect=*/false);
  EXPECT_TRUE(leaks.empty()) << leaks[0].pointer;
}

// ---- priority and pending operations

TEST_F(LeakScannerTest, OneFindingPerValue) {
  known_.Add("AKIA2E5Q7VJ3XK4M6ZTB");
  auto leaks =
      Scan(Resource("{\"awsSecretKey\":\"AKIA2E5Q7VJ3XK4M6ZTB\"}", "{}"),
           /*collect=*/false);
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_EQ(leaks[0].code, diag::Code::kLeakKnownSecret);
}

TEST_F(LeakScannerTest, RulesCanBeTurnedOff) {
  json::Parser parser;
  json::Value v;
  std::string text = Resource("{\"password\":\"correct-horse-battery\"}", "{}");
  ASSERT_EQ(parser.ParseDocument(text, 0, arena_, &v), json::ParseStatus::kOk);
  LeakOptions options;
  options.fingerprinter = &fingerprinter_;
  options.credential_property = false;
  LeakScanner scanner(options);
  std::vector<Leak> leaks;
  scanner.ScanResource(v, "", &leaks);
  EXPECT_TRUE(leaks.empty());
}

TEST_F(LeakScannerTest, ValueFingerprintOfNonStrings) {
  json::Parser parser;
  json::Value a, b;
  ASSERT_EQ(parser.ParseDocument("{\"k\": [1, \"x\"]}", 0, arena_, &a),
            json::ParseStatus::kOk);
  ASSERT_EQ(parser.ParseDocument("{\"k\":[1,\"x\"]}", 0, arena_, &b),
            json::ParseStatus::kOk);
  EXPECT_EQ(ValueFingerprint(fingerprinter_, a),
            ValueFingerprint(fingerprinter_, b));
  EXPECT_EQ(ValueFingerprint(fingerprinter_, a).size(), 12u);
}

}  // namespace
}  // namespace pstate::scan
