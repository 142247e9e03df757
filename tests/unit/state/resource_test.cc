#include "pstate/state/resource.h"

#include <gtest/gtest.h>

#include <string>

#include "pstate/json/parser.h"
#include "pstate/state/schema.h"

namespace pstate::state {
namespace {

json::Value Parse(const std::string& text, json::Arena& arena) {
  json::Parser parser;
  json::Value v;
  EXPECT_EQ(parser.ParseDocument(text, 0, arena, &v), json::ParseStatus::kOk)
      << text;
  return v;
}

TEST(SchemaTest, FieldsMatchAsGoMatchesThem) {
  EXPECT_EQ(MatchField("resources", kDeploymentFields), "resources");
  EXPECT_EQ(MatchField("Resources", kDeploymentFields), "resources");
  EXPECT_EQ(MatchField("SECRETS_PROVIDERS", kDeploymentFields),
            "secrets_providers");
  EXPECT_EQ(MatchField("initerrors", kResourceFields), "initErrors");
  EXPECT_EQ(MatchField("IMPORTID", kResourceFields), "importID");
  // Go folds the Kelvin sign to 'k' and the long s to 's'.
  constexpr std::array<Field, 1> kKind = {{{"kind", FieldKind::kString}}};
  EXPECT_EQ(MatchField("\xE2\x84\xAAIND", kKind), "kind");
  EXPECT_EQ(MatchField("\xC5\xBFtack", kCheckpointFields), "stack");
  EXPECT_EQ(MatchField("resource", kDeploymentFields), "");
  EXPECT_EQ(MatchField("resourcesx", kDeploymentFields), "");
  EXPECT_EQ(MatchField("", kDeploymentFields), "");
}

TEST(SchemaTest, TablesAreInGoOrderWithGoOmitempty) {
  ASSERT_EQ(kResourceFields.size(), 37u);
  EXPECT_EQ(kResourceFields[0].name, "urn");
  EXPECT_FALSE(kResourceFields[0].omitempty);
  EXPECT_FALSE(FindField(kResourceFields, "custom")->omitempty);
  EXPECT_FALSE(FindField(kResourceFields, "type")->omitempty);
  EXPECT_TRUE(FindField(kResourceFields, "id")->omitempty);
  EXPECT_FALSE(FindField(kDeploymentFields, "metadata")->omitempty);
  EXPECT_EQ(FindField(kResourceFields, "nope"), nullptr);
}

TEST(ResourceViewTest, FindsFieldsLastDuplicateWinsAndCaseFolds) {
  json::Arena arena;
  json::Value r =
      Parse(R"({"urn":"a","URN":"b","type":"t:m:R","custom":true,"id":"i",)"
            R"("protect":true,"Parent":"p","dependencies":["d"],"extra":1,)"
            R"("\u0069d":"i2"})",
            arena);
  ResourceView v = ResourceView::Of(r);
  EXPECT_EQ(v.Urn(), "b");
  EXPECT_EQ(v.Type(), "t:m:R");
  EXPECT_EQ(v.Id(), "i2");
  EXPECT_TRUE(ResourceView::Flag(v.custom));
  EXPECT_TRUE(ResourceView::Flag(v.protect));
  EXPECT_FALSE(ResourceView::Flag(v.taint));
  ASSERT_NE(v.parent, nullptr);
  EXPECT_EQ(v.parent->Str(), "p");
  ASSERT_NE(v.dependencies, nullptr);
  EXPECT_TRUE(v.dependencies->is_array());
  EXPECT_EQ(v.outputs, nullptr);

  json::Value not_object = Parse("[1]", arena);
  ResourceView empty = ResourceView::Of(not_object);
  EXPECT_EQ(empty.Urn(), "");
  EXPECT_EQ(empty.urn, nullptr);
}

TEST(ResourceViewTest, ResourceOfLeaves) {
  json::Arena arena;
  Leaf leaf;
  leaf.role = Role::kPendingOperation;
  leaf.pointer = "/deployment/pending_operations/0";
  leaf.value = Parse(R"({"resource":{"urn":"u"},"type":"creating"})", arena);
  const json::Value* r = ResourceOf(leaf);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(ResourceView::Of(*r).Urn(), "u");
  EXPECT_EQ(ResourcePointer(leaf), "/deployment/pending_operations/0/resource");

  leaf.value = Parse(R"({"resource":5})", arena);
  EXPECT_EQ(ResourceOf(leaf), nullptr);

  leaf.role = Role::kResource;
  leaf.pointer = "/deployment/resources/3";
  EXPECT_EQ(ResourceOf(leaf), &leaf.value);
  EXPECT_EQ(ResourcePointer(leaf), "/deployment/resources/3");

  leaf.role = Role::kManifest;
  EXPECT_EQ(ResourceOf(leaf), nullptr);
  EXPECT_EQ(ResourcePointer(leaf), "");
}

}  // namespace
}  // namespace pstate::state
