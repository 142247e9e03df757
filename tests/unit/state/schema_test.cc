#include "state/schema.h"

#include <gtest/gtest.h>

#include <cstddef>

namespace pstate::state {
namespace {

// The reference table names ResourceV3 fields, with the JSON kind its
// shape needs, and is indexed by RefKind.
TEST(ReferenceFieldsTest, MatchTheResourceStructTable) {
  for (std::size_t i = 0; i < kReferenceFields.size(); ++i) {
    const ReferenceField& ref = kReferenceFields[i];
    SCOPED_TRACE(std::string(ref.name));
    EXPECT_EQ(static_cast<std::size_t>(ref.kind), i);
    EXPECT_EQ(ReferenceFieldOf(ref.kind), &ref);
    EXPECT_EQ(RefKindName(ref.kind), ref.name);
    EXPECT_EQ(FindReferenceField(ref.name), &ref);
    const Field* field = FindField(kResourceFields, ref.name);
    ASSERT_NE(field, nullptr);
    switch (ref.shape) {
      case RefShape::kUrn:
      case RefShape::kProviderReference:
        EXPECT_EQ(field->kind, FieldKind::kString);
        break;
      case RefShape::kUrnList:
        EXPECT_EQ(field->kind, FieldKind::kStringArray);
        break;
      case RefShape::kUrnListMap:
        EXPECT_EQ(field->kind, FieldKind::kObject);
        break;
    }
  }
}

TEST(ReferenceFieldsTest, DependenciesAreWhatPulumisGraphFollows) {
  // GetAllDependencies (pkg/resource/state.go) plus the provider.
  std::string deps;
  for (const ReferenceField& ref : kReferenceFields) {
    if (ref.dependency) deps += std::string(ref.name) + " ";
  }
  EXPECT_EQ(deps,
            "parent dependencies propertyDependencies deletedWith replaceWith "
            "provider ");
  EXPECT_EQ(ReferenceFieldOf(RefKind::kProvider)->shape,
            RefShape::kProviderReference);
}

TEST(ReferenceFieldsTest, PropertyReferencesAreNoField) {
  EXPECT_EQ(ReferenceFieldOf(RefKind::kProperty), nullptr);
  EXPECT_EQ(RefKindName(RefKind::kProperty), "inputs/outputs");
  EXPECT_EQ(FindReferenceField("urn"), nullptr);
  EXPECT_EQ(FindReferenceField("Parent"), nullptr);  // exact names only
}

}  // namespace
}  // namespace pstate::state
