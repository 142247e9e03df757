#include "diff/order.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/document.h"

namespace pstate::diff {
namespace {

/// Runs an OrderChecker over `resources` (JSON objects, in state order) and
/// describes each break as "position field target".
std::vector<std::string> Breaks(const std::vector<std::string>& resources) {
  std::vector<json::Document> docs;
  OrderChecker checker;
  for (const std::string& text : resources) {
    auto doc = json::Document::Parse(text);
    EXPECT_TRUE(doc.ok()) << text;
    docs.push_back(std::move(doc).value());
    checker.Add(state::ResourceView::Of(docs.back().root()));
  }
  std::vector<std::string> out;
  for (const OrderBreak& b : checker.Finish()) {
    out.push_back(std::to_string(b.position) + " " +
                  std::string(state::RefKindName(b.field)) + " " +
                  OrderTargetText(docs[b.position].root(), b.field, b.target));
  }
  return out;
}

const std::string kProvider =
    R"({"urn":"urn:pulumi:s::p::pulumi:providers:aws::default",)"
    R"("id":"p1","type":"pulumi:providers:aws","custom":true})";
const std::string kProviderRef =
    "urn:pulumi:s::p::pulumi:providers:aws::default::p1";

std::string Resource(const std::string& name, const std::string& extra) {
  return R"({"urn":"urn:pulumi:s::p::t:m:R::)" + name +
         R"(","type":"t:m:R","custom":true,"id":")" + name + "\"" +
         (extra.empty() ? "" : "," + extra) + "}";
}

TEST(OrderCheckerTest, AValidOrderHasNoBreaks) {
  EXPECT_TRUE(
      Breaks({kProvider, Resource("a", R"("provider":")" + kProviderRef + "\""),
              Resource("b", R"("dependencies":["urn:pulumi:s::p::t:m:R::a"],)"
                            R"("parent":"urn:pulumi:s::p::t:m:R::a")")})
          .empty());
}

TEST(OrderCheckerTest, ReportsEachKindOfReferenceToALaterResource) {
  const std::string a = "urn:pulumi:s::p::t:m:R::a";
  auto breaks =
      Breaks({Resource("b", R"("provider":")" + kProviderRef + R"(",)" +
                                R"("parent":")" + a + R"(",)" +
                                R"("dependencies":[")" + a + R"("],)" +
                                R"("propertyDependencies":{"x":[")" + a +
                                R"("]},)" + R"("deletedWith":")" + a + R"(",)" +
                                R"("replaceWith":[")" + a + R"("])"),
              Resource("a", ""), kProvider});
  EXPECT_EQ(breaks, (std::vector<std::string>{
                        "0 provider " + kProviderRef,
                        "0 parent " + a,
                        "0 dependencies " + a,
                        "0 propertyDependencies " + a,
                        "0 deletedWith " + a,
                        "0 replaceWith " + a,
                    }));
}

TEST(OrderCheckerTest, MissingTargetsAreNotOrderBreaks) {
  // A dangling reference is not something a reordering causes.
  EXPECT_TRUE(
      Breaks({Resource("b", R"("dependencies":["urn:pulumi:s::p::t:m:R::x"],)"
                            R"("provider":")" +
                                kProviderRef + "\"")})
          .empty());
}

TEST(OrderCheckerTest,
     PendingReplacementNeedsNoEarlierProviderAndEmptyIsSkipped) {
  EXPECT_TRUE(Breaks({Resource("b", R"("provider":")" + kProviderRef +
                                        R"(","pendingReplacement":true,)"
                                        R"("dependencies":[""],"parent":"")"),
                      kProvider})
                  .empty());
}

TEST(OrderCheckerTest, ProviderReferencesMatchUrnAndId) {
  // The provider comes first but with another ID: the reference names a
  // provider that is not in the state at all (not an order break), and an
  // escaped URN is the same URN.
  auto breaks = Breaks(
      {kProvider, Resource("a", R"("provider":")" + kProviderRef + "x\""),
       Resource("b", R"("parent":"urn:pulumi:s::p::t:m:R::\u0063")"),
       Resource("c", "")});
  EXPECT_EQ(breaks,
            (std::vector<std::string>{"2 parent urn:pulumi:s::p::t:m:R::c"}));
}

TEST(OrderBreakTest, PairKeyNamesReferrerAndTarget) {
  OrderBreak x{0, state::RefKind::kParent, UrnFingerprint("a"),
               UrnFingerprint("b")};
  OrderBreak y{5, state::RefKind::kDependency, UrnFingerprint("a"),
               UrnFingerprint("b")};
  OrderBreak z{0, state::RefKind::kParent, UrnFingerprint("b"),
               UrnFingerprint("a")};
  EXPECT_EQ(x.PairKey(), y.PairKey());
  EXPECT_NE(x.PairKey(), z.PairKey());
}

}  // namespace
}  // namespace pstate::diff
