#include "state/resource.h"

#include <gtest/gtest.h>

#include <string>

#include "json/parser.h"
#include "state/schema.h"

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

TEST(ResourceViewTest, FlagsTextAndProviderReference) {
  json::Arena arena;
  json::Value r = Parse(
      R"({"urn":"urn:pulumi:d::p::t:m:R::n","custom":true,"delete":true,)"
      R"("protect":false,"taint":true,"external":1,)"
      R"("pendingReplacement":true,"retainOnDelete":true,)"
      R"("provider":"urn:pulumi:d::p::pulumi:providers:aws::default::id\u002d1",)"
      R"("replacementTrigger":{"a":1},"created":"c","modified":"m",)"
      R"("customTimeouts":{}})",
      arena);
  ResourceView v = ResourceView::Of(r);
  ResourceFlags f = v.Flags();
  EXPECT_TRUE(f.custom);
  EXPECT_TRUE(f.del);
  EXPECT_FALSE(f.protect);
  EXPECT_TRUE(f.taint);
  EXPECT_FALSE(f.external);  // 1 is not JSON true
  EXPECT_TRUE(f.pending_replacement);
  EXPECT_TRUE(f.retain_on_delete);
  ASSERT_NE(v.replacement_trigger, nullptr);
  ASSERT_NE(v.created, nullptr);
  ASSERT_NE(v.modified, nullptr);
  ASSERT_NE(v.custom_timeouts, nullptr);

  // No escapes: a view into the leaf; escapes: decoded into the scratch.
  std::string scratch;
  std::string_view urn = ResourceView::View(v.urn, &scratch);
  EXPECT_EQ(urn, "urn:pulumi:d::p::t:m:R::n");
  EXPECT_EQ(urn.data(), v.urn->raw().data());
  EXPECT_EQ(ResourceView::View(v.custom, &scratch), "");
  EXPECT_EQ(ResourceView::View(nullptr, &scratch), "");

  auto ref = v.ProviderRef(&scratch);
  ASSERT_TRUE(ref.has_value());
  EXPECT_EQ(ref->urn, "urn:pulumi:d::p::pulumi:providers:aws::default");
  EXPECT_EQ(ref->id, "id-1");

  json::Value bad = Parse(R"({"provider":"nope"})", arena);
  std::string_view why;
  EXPECT_FALSE(ResourceView::Of(bad).ProviderRef(&scratch, &why));
  EXPECT_FALSE(why.empty());
  json::Value none = Parse(R"({"provider":""})", arena);
  EXPECT_FALSE(ResourceView::Of(none).ProviderRef(&scratch));
}

TEST(ResourceViewTest, ReferencesFollowTheTable) {
  json::Arena arena;
  json::Value r =
      Parse(R"({"parent":"p","dependencies":["d1","",3],)"
            R"("propertyDependencies":{"a":["pa"],"b":"x","c":["pc1","pc2"]},)"
            R"("deletedWith":"dw","replaceWith":"not-a-list",)"
            R"("provider":"pr::id","aliases":["al"],"viewOf":"vo"})",
            arena);
  ResourceView v = ResourceView::Of(r);
  for (const ReferenceField& f : kReferenceFields) {
    EXPECT_NE(v.Reference(f.kind), nullptr) << f.name;
  }
  EXPECT_EQ(v.Reference(RefKind::kProperty), nullptr);
  std::string seen;
  ForEachReference(v, [&](const ReferenceTarget& t) {
    seen += std::string(t.field.name);
    if (t.group != nullptr) seen += "[" + t.group->key.Str() + "]";
    seen += "/" + std::to_string(t.index) + "=" +
            (t.value.is_string() ? t.value.Str() : std::string("#")) + " ";
  });
  EXPECT_EQ(seen,
            "parent/0=p dependencies/0=d1 dependencies/1= dependencies/2=# "
            "propertyDependencies[a]/0=pa propertyDependencies[c]/0=pc1 "
            "propertyDependencies[c]/1=pc2 deletedWith/0=dw provider/0=pr::id "
            "aliases/0=al viewOf/0=vo ");
}

TEST(ResourceViewTest, OfLeafCarriesTheByteRange) {
  json::Arena arena;
  Leaf leaf;
  leaf.role = Role::kResource;
  leaf.value = Parse(R"({"urn":"u"})", arena);
  leaf.end_offset = 11;
  auto v = ResourceView::Of(leaf);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->Urn(), "u");
  EXPECT_EQ(v->object->offset, 0u);
  EXPECT_EQ(v->end, 11u);

  leaf.role = Role::kPendingOperation;
  leaf.value = Parse(R"({"resource":{"urn":"w"},"type":"creating"})", arena);
  v = ResourceView::Of(leaf);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->Urn(), "w");
  EXPECT_EQ(v->end, 0u);

  leaf.role = Role::kManifest;
  EXPECT_FALSE(ResourceView::Of(leaf).has_value());
}

}  // namespace
}  // namespace pstate::state
