// Masking known secrets in what findings print (review F5): the shared
// MaskIdentifiers/MaskReport, and verify end to end in text, JSON and SARIF.
#include "secrets/mask.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "diag/report.h"
#include "report/findings.h"
#include "verify/run.h"

namespace pstate::secrets {
namespace {

TEST(MaskIdentifiersTest, MasksEveryOccurrenceInEachText) {
  KnownSecrets known;
  known.Add("urnleak-SECRET-S02");
  std::string message =
      "unknown field; urnleak-SECRET-S02 twice: "
      "urnleak-SECRET-S02";
  std::string pointer = "/deployment/resources/1/outputs/urnleak-SECRET-S02";
  std::string urn = "urn:pulumi:dev::p::t:m:T::urnleak-SECRET-S02";
  EXPECT_TRUE(MaskIdentifiers(known, &message, &pointer, &urn));
  EXPECT_EQ(message, "unknown field; *** twice: ***");
  EXPECT_EQ(pointer, "/deployment/resources/1/outputs/***");
  EXPECT_EQ(urn, "urn:pulumi:dev::p::t:m:T::***");
}

TEST(MaskIdentifiersTest, WeakSecretsAreMaskedToo) {
  // Too weak to be reported as a leak, still never printed.
  KnownSecrets known;
  known.Add("production");
  EXPECT_EQ(known.size(), 0u);
  std::string urn = "urn:pulumi:production::p::t:m:T::n";
  EXPECT_TRUE(MaskIdentifiers(known, nullptr, nullptr, &urn));
  EXPECT_EQ(urn, "urn:pulumi:***::p::t:m:T::n");
}

TEST(MaskIdentifiersTest, NothingKnownChangesNothing) {
  KnownSecrets known;
  std::string text = "urn:pulumi:dev::p::t:m:T::n";
  EXPECT_FALSE(MaskIdentifiers(known, &text, &text, &text));
  EXPECT_EQ(text, "urn:pulumi:dev::p::t:m:T::n");
}

TEST(MaskReportTest, ChangedFindingsGetTheFingerprintOfTheirMaskedText) {
  diag::Report report("state.json");
  report.Add(diag::MakeFinding(diag::Code::kFieldUnknown, "unknown field",
                               "/deployment/resources/0/x",
                               "urn:pulumi:dev::p::t:m:T::s3cr3t-Value"));
  report.Add(diag::MakeFinding(diag::Code::kFieldUnknown, "unknown field",
                               "/deployment/resources/1/x",
                               "urn:pulumi:dev::p::t:m:T::plain"));
  const std::string untouched = report.findings()[1].fingerprint;
  KnownSecrets known;
  known.Add("s3cr3t-Value");
  MaskReport(known, &report);
  ASSERT_EQ(report.findings().size(), 2u);
  const diag::Finding& masked = report.findings()[0];
  EXPECT_EQ(masked.urn, "urn:pulumi:dev::p::t:m:T::***");
  diag::Finding expected = masked;
  EXPECT_EQ(masked.fingerprint, diag::Fingerprint(expected, report.identity()));
  EXPECT_EQ(report.findings()[1].fingerprint, untouched);
  EXPECT_EQ(report.summary().notes, 2u);
}

// A state whose identifiers hold its own secrets' plaintexts: a resource
// named after its secret (S02), a map key (S04), a property name (S05), and
// a common word that is both the stack name and a secret (S07).
constexpr const char* kSig = "\"4dabf18193072939515e22adb298388d\"";
constexpr const char* kSecretSig = "\"1b47061264138c4ac30d75fd1eb44270\"";

std::string Secret(const std::string& plaintext) {
  return std::string("{") + kSig + ":" + kSecretSig + ",\"plaintext\":\"\\\"" +
         plaintext + "\\\"\"}";
}

std::string LeakyState() {
  const std::string stack =
      "urn:pulumi:production::p::pulumi:pulumi:Stack::p-production";
  const std::string a =
      "urn:pulumi:production::p::random:index/randomId:RandomId::"
      "urnleak-SECRET-S02";
  return std::string(
             "{\"version\":3,\"deployment\":{\"manifest\":{\"time\":"
             "\"2024-01-01T00:00:00Z\",\"magic\":\"\",\"version\":\"\"},"
             "\"resources\":[") +
         "{\"urn\":\"" + stack +
         "\",\"custom\":false,\"type\":\"pulumi:pulumi:Stack\","
         "\"outputs\":{\"env\":" +
         Secret("production") + "}}," + "{\"urn\":\"" + a +
         "\",\"custom\":true,\"id\":\"i\",\"type\":"
         "\"random:index/randomId:RandomId\",\"parent\":\"" +
         stack + "\",\"bogusField\":1,\"outputs\":{\"hex\":" +
         Secret("urnleak-SECRET-S02") + "}}," +
         "{\"urn\":\"urn:pulumi:production::p::aws:s3/bucket:Bucket::b\","
         "\"custom\":true,\"id\":\"b\",\"type\":\"aws:s3/bucket:Bucket\","
         "\"parent\":\"" +
         stack + "\",\"inputs\":{\"tags\":{\"keyleak-SECRET-S04\":{" + kSig +
         ":\"nope\"}}},\"outputs\":{\"t\":" + Secret("keyleak-SECRET-S04") +
         ",\"p\":" + Secret("propname-SECRET-S05_password") +
         "},\"propname-SECRET-S05_password\":true}]}}";
}

TEST(VerifyMaskTest, NoFormatPrintsAPlaintextTheStateReveals) {
  char dir[] = "/tmp/pstate-mask-test-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/state.json";
  std::ofstream(path) << LeakyState();
  diag::Report report(path);
  verify::Config config;
  verify::VerifyInput(path, config, report);
  report.SortByLocation();
  // The findings that would name the secrets are there (masked).
  EXPECT_GE(report.summary().notes + report.summary().warnings +
                report.summary().errors,
            3u);
  std::ostringstream text, jsonl, sarif;
  report::RenderText(report.result(), text);
  report::RenderJsonLine(report.result(), jsonl);
  const Findings* views[] = {&report.result()};
  report::RenderSarif(views, sarif, "test");
  for (const std::string& out : {text.str(), jsonl.str(), sarif.str()}) {
    EXPECT_NE(out.find("***"), std::string::npos) << out;
    for (const char* plaintext :
         {"urnleak-SECRET-S02", "keyleak-SECRET-S04",
          "propname-SECRET-S05_password", "production"}) {
      EXPECT_EQ(out.find(plaintext), std::string::npos)
          << "plaintext " << plaintext << " printed";
    }
  }
  ::unlink(path.c_str());
  ::rmdir(dir);
}

}  // namespace
}  // namespace pstate::secrets
