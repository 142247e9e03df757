#include "verify/integrity.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pstate::verify {
namespace {

FindingPlace Here() {
  io::LineColumn at;
  at.line = 3;
  at.column = 4;
  return {"/p", "urn:me", at};
}
using RefKind = PendingReference::Kind;

TEST(IntegrityTrackerTest, DependencyOrderVersusMissing) {
  IntegrityTracker t;
  t.AddResource("a", false);
  EXPECT_TRUE(t.Seen("a"));
  EXPECT_FALSE(t.Seen("later"));
  t.Reference(RefKind::kDependency, "a", "parent", false, Here());  // seen
  t.Reference(RefKind::kDependency, "later", "parent", false, Here());
  t.Reference(RefKind::kDependency, "nowhere", "dependencies", false, Here());
  t.AddResource("later", false);
  auto findings = t.Finish();
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].code, diag::Code::kDependencyOrder);
  EXPECT_EQ(findings[0].severity, diag::Severity::kError);
  EXPECT_NE(findings[0].message.find("comes after it"), std::string::npos);
  EXPECT_EQ(findings[0].line, 3u);  // the prepared location is kept
  EXPECT_EQ(findings[0].pointer, "/p");
  EXPECT_EQ(findings[0].urn, "urn:me");
  EXPECT_EQ(findings[1].code, diag::Code::kDependencyMissing);
  EXPECT_NE(findings[1].message.find("not in the state"), std::string::npos);
  EXPECT_TRUE(t.Finish().empty());  // pending references are consumed
}

TEST(IntegrityTrackerTest, ProviderLaterVersusUnknown) {
  IntegrityTracker t;
  t.AddProvider("prov::1");
  EXPECT_TRUE(t.SeenProvider("prov::1"));
  EXPECT_FALSE(t.SeenProvider("prov::2"));
  t.Reference(RefKind::kProvider, "prov::1", "provider", false, Here());
  t.Reference(RefKind::kProvider, "prov::2", "provider", false, Here());
  t.Reference(RefKind::kProvider, "prov::3", "provider", false, Here());
  t.AddProvider("prov::2");
  // A resource URN equal to the reference does not count as a provider.
  t.AddResource("prov::3", false);
  auto findings = t.Finish();
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].code, diag::Code::kProviderUnknown);
  EXPECT_NE(findings[0].message.find("comes after it"), std::string::npos);
  EXPECT_EQ(findings[1].code, diag::Code::kProviderUnknown);
  EXPECT_NE(findings[1].message.find("names no provider resource"),
            std::string::npos);
}

TEST(IntegrityTrackerTest, ForwardResourceReferencesAreDropped) {
  IntegrityTracker t;
  t.Reference(RefKind::kResourceReference, "fwd", {}, false, Here());
  t.Reference(RefKind::kResourceReference, "gone", {}, false, Here());
  t.Reference(RefKind::kResourceReference, "hidden", {}, true, Here());
  t.AddResource("fwd", false);
  auto findings = t.Finish();
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].code, diag::Code::kResourceRefDangling);
  EXPECT_EQ(findings[0].severity, diag::Severity::kWarning);
  EXPECT_NE(findings[0].message.find("\"gone\""), std::string::npos);
  // A URN found inside a secret's plaintext is never quoted.
  EXPECT_EQ(findings[1].message.find("hidden"), std::string::npos);
}

struct DupCase {
  int copies;
  int deleted;
  bool reported;
};

TEST(IntegrityTrackerTest, DuplicatesNeedAllButOneDeleted) {
  for (const DupCase& c : std::vector<DupCase>{{2, 0, true},
                                               {2, 1, false},
                                               {2, 2, false},
                                               {3, 1, true},
                                               {3, 2, false},
                                               {4, 2, true},
                                               {4, 3, false}}) {
    IntegrityTracker t;
    for (int i = 0; i < c.copies; ++i) {
      // The "deleted" copies come first, as Pulumi writes them.
      bool deleted = i < c.deleted;
      std::string pointer = "/deployment/resources/" + std::to_string(i);
      io::LineColumn at;
      at.line = static_cast<std::uint64_t>(i + 1);
      t.Duplicate("u", FindingPlace{pointer, "u", at});
      t.AddResource("u", deleted);
    }
    auto findings = t.Finish();
    ASSERT_EQ(findings.size(), c.reported ? 1u : 0u)
        << c.copies << " copies, " << c.deleted << " deleted";
    if (c.reported) {
      EXPECT_EQ(findings[0].code, diag::Code::kUrnDuplicate);
      // Located at the first repeat.
      EXPECT_EQ(findings[0].pointer, "/deployment/resources/1");
      EXPECT_EQ(findings[0].line, 2u);
      EXPECT_NE(findings[0].message.find(std::to_string(c.copies) + " times"),
                std::string::npos)
          << findings[0].message;
    }
  }
}

}  // namespace
}  // namespace pstate::verify
