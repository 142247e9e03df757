#include "types/registry.h"

#include <gtest/gtest.h>

#include "check_helpers.h"

namespace pstate::types {
namespace {

TEST(RegistryTest, EveryLanguageIsAvailable) {
  for (System s : {System::kPulumi, System::kPulumiSchema, System::kPcl,
                   System::kCty, System::kTerraform, System::kPuppet}) {
    Result<std::unique_ptr<TypeSystem>> made = MakeSystem(s, nullptr);
    ASSERT_TRUE(made.ok()) << SystemName(s) << ": " << made.status().message();
    EXPECT_EQ((*made)->system(), s);
  }
}

TEST(RegistryTest, CacheParsesEachTypeOnce) {
  testing::Checker checker(System::kPulumiSchema);
  TypeCache& cache = checker.cache();
  constexpr const char* kSpec = R"({"type":"array","items":{"type":"string"}})";
  const json::Value& a = checker.Json(kSpec);
  const json::Value& b = checker.Json(kSpec);
  Result<std::shared_ptr<const Type>> first =
      cache.Parse(System::kPulumiSchema, a);
  Result<std::shared_ptr<const Type>> second =
      cache.Parse(System::kPulumiSchema, b);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first->get(), second->get());
  EXPECT_EQ(cache.parsed(), 1u);
  // The same text in another language is another type.
  const json::Value& text = checker.Json(R"("Array<String>")");
  ASSERT_TRUE(cache.Parse(System::kPulumi, text).ok());
  EXPECT_EQ(cache.parsed(), 2u);
  // A type that fails is cached with its Status.
  const json::Value& bad = checker.Json(R"("Array<")");
  EXPECT_FALSE(cache.Parse(System::kPulumi, bad).ok());
  EXPECT_FALSE(cache.Parse(System::kPulumi, bad).ok());
  EXPECT_EQ(cache.parsed(), 3u);
  // Bounded: ever new types never keep more than kMaxCached.
  for (std::size_t i = 0; i < TypeCache::kMaxCached + 10; ++i) {
    const json::Value& t =
        checker.Json("\"Enum<Number, " + std::to_string(i) + ">\"");
    ASSERT_TRUE(cache.Parse(System::kPulumi, t).ok());
    EXPECT_LE(cache.parsed(), TypeCache::kMaxCached);
  }
}

}  // namespace
}  // namespace pstate::types
