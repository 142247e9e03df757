#include "diag/fingerprint.h"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>

#include "diag/code_docs.h"
#include "diag/report.h"

namespace pstate::diag {
namespace {

Finding Located(Code code, std::string message, std::string pointer,
                std::string urn = {}) {
  Finding f =
      MakeFinding(code, std::move(message), std::move(pointer), std::move(urn));
  f.line = 3;
  f.column = 9;
  return f;
}

TEST(LogicalIdentityTest, NameWithoutDirectoriesOrSuffixes) {
  EXPECT_EQ(LogicalIdentity(".pulumi/stacks/app/dev.json"), "dev");
  EXPECT_EQ(LogicalIdentity("/abs/dev.json.gz"), "dev");
  EXPECT_EQ(LogicalIdentity("dev.json.zst.bak"), "dev");
  EXPECT_EQ(LogicalIdentity("prod"), "prod");
  EXPECT_EQ(LogicalIdentity(".json"), ".json");
  EXPECT_EQ(LogicalIdentity("<stdin>"), "stdin");
}

TEST(NormalizeMessageTest, DropsValuesKeepsWords) {
  EXPECT_EQ(NormalizeMessage("property \"password\" is plaintext "
                             "(fingerprint 41a285f6f112)"),
            "property \"\" is plaintext (fingerprint #)");
  EXPECT_EQ(NormalizeMessage("URN occurs 2 times but only 0 marked"),
            "URN occurs # times but only # marked");
  EXPECT_EQ(NormalizeMessage("unrecognized signature 'deadbeef'"),
            "unrecognized signature ''");
  EXPECT_EQ(NormalizeMessage("unterminated \"quote"), "unterminated \"quote");
}

TEST(ResourceRelativePointerTest, StripsTheResourceIndex) {
  EXPECT_EQ(ResourceRelativePointer("/deployment/resources/12/outputs/x"),
            "outputs/x");
  EXPECT_EQ(ResourceRelativePointer("/checkpoint/latest/resources/0/urn"),
            "urn");
  EXPECT_EQ(ResourceRelativePointer("/deployment/resources/3"), "");
  EXPECT_EQ(ResourceRelativePointer("/deployment/manifest/time"),
            "/deployment/manifest/time");
  EXPECT_EQ(ResourceRelativePointer("/deployment/resources/x/y"),
            "/deployment/resources/x/y");
}

TEST(FingerprintTest, StableAcrossRunsPlacesAndRandomValues) {
  const std::string urn = "urn:pulumi:dev::p::aws:s3/bucket:Bucket::b";
  Finding a = Located(Code::kLeakCredentialProperty,
                      "property \"password\" holds a plaintext value "
                      "(fingerprint 0123456789ab)",
                      "/deployment/resources/4/outputs/password", urn);
  Finding b = a;
  b.message =
      "property \"password\" holds a plaintext value "
      "(fingerprint ba9876543210)";  // another run's random key
  b.pointer = "/deployment/resources/9/outputs/password";  // moved
  b.line = 400;
  b.column = 1;
  EXPECT_EQ(Fingerprint(a, "dev"), Fingerprint(b, "other-file-name"));
  EXPECT_EQ(Fingerprint(a, "dev").size(), 32u);
  // A known value, so a change in the recipe is a visible decision.
  EXPECT_EQ(Fingerprint(a, "dev"), Fingerprint(a, "dev"));

  Finding other_place = a;
  other_place.pointer = "/deployment/resources/4/inputs/password";
  EXPECT_NE(Fingerprint(a, "dev"), Fingerprint(other_place, "dev"));
  Finding other_code = a;
  other_code.code = Code::kLeakCredentialFormat;
  EXPECT_NE(Fingerprint(a, "dev"), Fingerprint(other_code, "dev"));
  Finding other_resource = a;
  other_resource.urn = urn + "2";
  EXPECT_NE(Fingerprint(a, "dev"), Fingerprint(other_resource, "dev"));
}

TEST(FingerprintTest, WithoutUrnTheFileIdentityCounts) {
  Finding f = Located(Code::kManifestTime, "manifest time \"x\" is bad",
                      "/deployment/manifest/time");
  EXPECT_EQ(Fingerprint(f, "dev"), Fingerprint(f, "dev"));
  EXPECT_NE(Fingerprint(f, "dev"), Fingerprint(f, "prod"));
}

// An unreadable input's message names its path; the fingerprint must not
// depend on where the checkout or the state lives.
TEST(FingerprintTest, TheFilesPathInAMessageDoesNotCount) {
  Finding here = diag::MakeFinding(
      Code::kIoError,
      "/home/a/repo/stacks/dev.json: No such file or directory");
  Finding there = diag::MakeFinding(
      Code::kIoError, "/srv/ci/stacks/dev.json: No such file or directory");
  EXPECT_EQ(Fingerprint(here, "dev", "/home/a/repo/stacks/dev.json"),
            Fingerprint(there, "dev", "/srv/ci/stacks/dev.json"));
  EXPECT_NE(Fingerprint(here, "dev"), Fingerprint(there, "dev"));
  Finding denied = diag::MakeFinding(
      Code::kIoError, "/srv/ci/stacks/dev.json: Permission denied");
  EXPECT_NE(Fingerprint(denied, "dev", "/srv/ci/stacks/dev.json"),
            Fingerprint(there, "dev", "/srv/ci/stacks/dev.json"));
}

TEST(FingerprintTest, NeverContainsTheMessage) {
  Finding f = Located(Code::kFieldValue, "hunter2hunter2", "/x");
  std::string fp = Fingerprint(f, "dev");
  EXPECT_EQ(fp.find("hunter2"), std::string::npos);
  EXPECT_TRUE(fp.find_first_not_of("0123456789abcdef") == std::string::npos);
}

TEST(FindingFilterTest, OnlySkipAndFingerprints) {
  auto filter = std::make_shared<FindingFilter>();
  Finding keep = Located(Code::kFieldType, "a", "/a");
  Finding known = Located(Code::kFieldType, "b", "/b");
  filter->fingerprints.insert(Fingerprint(known, "s"));
  filter->skip.insert(Code::kFieldUnknown);
  Report report("s.json", 0);
  report.set_filter(filter);
  report.Add(keep);
  report.Add(known);
  report.Add(Located(Code::kFieldUnknown, "c", "/c"));
  // A fatal finding is never suppressed.
  filter->skip.insert(Code::kIoError);
  report.Add(MakeFinding(Code::kIoError, "gone"));
  report.SortByLocation();
  ASSERT_EQ(report.findings().size(), 2u);
  EXPECT_EQ(report.findings()[0].message, "a");
  EXPECT_EQ(report.summary().errors, 2u);
  EXPECT_EQ(report.summary().notes, 0u);
  EXPECT_EQ(report.summary().suppressed, 2u);
  EXPECT_TRUE(report.fatal());

  FindingFilter only;
  only.only.insert(Code::kFieldUnknown);
  EXPECT_FALSE(only.Admits(keep));
  EXPECT_TRUE(only.Admits(Located(Code::kFieldUnknown, "c", "/c")));
}

TEST(ParseBaselineTest, NamesTheBadLine) {
  auto bad = ParseBaseline("{\"file\":\"a\",\"findings\":[]}\n{oops\n", "b");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind("b:2:", 0), 0u)
      << bad.status().message();
  auto shape = ParseBaseline("[1]\n", "b");
  ASSERT_FALSE(shape.ok());
  EXPECT_NE(shape.status().message().find("b:1: not a pstate report"),
            std::string::npos);
}

TEST(ParseIgnoreFileTest, FingerprintsAndComments) {
  auto ok = ParseIgnoreFile(
      "# accepted on 2026-11-23\n"
      "\n"
      "0123456789abcdef0123456789abcdef  # legacy bucket\n"
      "  fedcba9876543210fedcba9876543210\r\n",
      ".pstateignore");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  ASSERT_EQ(ok->size(), 2u);
  EXPECT_EQ((*ok)[1], "fedcba9876543210fedcba9876543210");
  auto bad = ParseIgnoreFile("\n0123\n", "ig");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind("ig:2:1: expected a fingerprint", 0),
            0u)
      << bad.status().message();
}

TEST(CodeDocsTest, EveryCodeIsDocumented) {
  for (const CodeInfo& info : AllCodes()) {
    SCOPED_TRACE(std::string(info.name));
    EXPECT_TRUE(Documented(info.code));
    std::string description = CodeDescription(info.code);
    EXPECT_FALSE(description.empty());
    EXPECT_LE(description.size(), 1024u);
    EXPECT_EQ(description.find('`'), std::string::npos);
    EXPECT_FALSE(CodePlainText(info.code).empty());
    EXPECT_NE(CodeHelpUri(info.code).find(info.name), std::string::npos);
    // `pstate explain` tells what to do about every finding.
    EXPECT_NE(CodeMarkdown(info.code).find("\nFix: "), std::string::npos);
  }
  EXPECT_EQ(CodeDescription(Code::kIoError),
            "The file could not be opened, read or decompressed.");
}

}  // namespace
}  // namespace pstate::diag
