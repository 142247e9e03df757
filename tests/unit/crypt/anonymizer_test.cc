// redact::Anonymizer: consistent, shape-keeping pseudonyms.
#include "redact/anonymizer.h"

#include <gtest/gtest.h>

#include <string>

#include "json/document.h"

namespace pstate::redact {
namespace {

crypto::Fingerprinter Key() {
  return *crypto::Fingerprinter::FromKey("anonymizer-test-key");
}

TEST(AnonymizerTest, AccountIdsLearnedFromArnsAreReplacedEverywhere) {
  Anonymizer a(Key());
  a.LearnText("arn:aws:iam::440512345678:role/deploy", "");
  auto arn = a.Apply("arn:aws:iam::440512345678:role/deploy");
  ASSERT_TRUE(arn);
  EXPECT_EQ(arn->find("440512345678"), std::string::npos);
  // Same shape: 12 digits between the colons.
  std::string account = arn->substr(13, 12);
  EXPECT_EQ(account.find_first_not_of("0123456789"), std::string::npos);
  EXPECT_EQ(*arn, "arn:aws:iam::" + account + ":role/deploy");
  // The same value elsewhere (an ID, a bare output) gets the same pseudonym.
  EXPECT_EQ(*a.Apply("440512345678"), account);
  EXPECT_EQ(*a.Apply("owner 440512345678."), "owner " + account + ".");
  // Not inside a longer number.
  EXPECT_FALSE(a.Apply("1440512345678"));
  EXPECT_EQ(a.stats().distinct[0], 1u);
}

TEST(AnonymizerTest, SameKeySamePseudonymsAcrossRuns) {
  Anonymizer a(Key()), b(Key());
  EXPECT_EQ(*a.Apply("mail ops@corp.example.org now"),
            *b.Apply("mail ops@corp.example.org now"));
  Anonymizer c(*crypto::Fingerprinter::FromKey("another key"));
  EXPECT_NE(*a.Apply("ops@corp.example.org"), *c.Apply("ops@corp.example.org"));
}

TEST(AnonymizerTest, EveryKindKeepsItsShape) {
  Anonymizer a(Key());
  a.LearnText("/subscriptions/7CE7A1B2-0000-4000-8000-00000000ABCD/rg", "");
  a.LearnText("projects/123456789012/zones/x", "");
  auto azure = a.Apply("/subscriptions/7ce7a1b2-0000-4000-8000-00000000abcd/x");
  ASSERT_TRUE(azure);
  EXPECT_EQ(azure->size(), std::string("/subscriptions//x").size() + 36);
  EXPECT_EQ(azure->find("7ce7a1b2"), std::string::npos);
  auto email = a.Apply("James.Smith@contoso.com");
  ASSERT_TRUE(email);
  EXPECT_TRUE(email->starts_with("user-") && email->ends_with("@example.com"))
      << *email;
  auto ip = a.Apply("52.14.7.9/32");
  ASSERT_TRUE(ip);
  EXPECT_TRUE(ip->starts_with("10.") && ip->ends_with("/32")) << *ip;
  EXPECT_FALSE(a.Apply("127.0.0.1 and 0.0.0.0/0"));
  EXPECT_FALSE(a.Apply("version 4.16.0"));
  auto host = a.Apply("https://4bf8ab.gr7.us-west-2.eks.amazonaws.com/api");
  ASSERT_TRUE(host);
  EXPECT_TRUE(host->ends_with(".us-west-2.eks.amazonaws.com/api")) << *host;
  EXPECT_EQ(host->find("4bf8ab"), std::string::npos);
  EXPECT_FALSE(a.Apply("s3.amazonaws.com"));
  auto home = a.Apply("/home/james/.pulumi/plugins/x");
  ASSERT_TRUE(home);
  EXPECT_TRUE(home->starts_with("/home/user-")) << *home;
  EXPECT_TRUE(home->ends_with("/.pulumi/plugins/x"));
  auto project = a.Apply("projects/123456789012/global");
  ASSERT_TRUE(project);
  EXPECT_EQ(project->size(),
            std::string("projects/123456789012/global").size());
  EXPECT_FALSE(a.Apply("nothing to see here"));
}

TEST(AnonymizerTest, LearnsFromPropertyNames) {
  Anonymizer a(Key());
  auto doc = json::Document::Parse(
      R"({"tenantId":"11111111-2222-4333-8444-555555555555",)"
      R"("nested":[{"accountId":"123456789012"}]})");
  ASSERT_TRUE(doc.ok());
  a.Learn(doc->root());
  EXPECT_TRUE(a.Apply("11111111-2222-4333-8444-555555555555"));
  EXPECT_TRUE(a.Apply("id-123456789012"));
}

}  // namespace
}  // namespace pstate::redact
