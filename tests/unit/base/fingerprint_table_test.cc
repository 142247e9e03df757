#include "base/fingerprint_table.h"

#include <gtest/gtest.h>

#include <string>

namespace pstate {
namespace {

struct Counts {
  std::uint32_t count = 0;
  std::uint32_t deleted = 0;
};

/// Adds one occurrence of `s`, as verify counts URNs.
Counts& Add(FingerprintTable<Counts>& table, std::string_view s) {
  Counts& c = *table.Insert(FingerprintOf(s)).first;
  ++c.count;
  return c;
}

const Counts* Find(const FingerprintTable<Counts>& table, std::string_view s) {
  return table.Find(FingerprintOf(s));
}

TEST(FingerprintTableTest, InsertsOnceAndFinds) {
  FingerprintTable<Counts> table;
  EXPECT_EQ(Find(table, "a"), nullptr);  // empty table
  EXPECT_EQ(table.size(), 0u);
  auto [value, added] = table.Insert(FingerprintOf("a"));
  EXPECT_TRUE(added);
  EXPECT_EQ(value->count, 0u);  // value-initialised
  EXPECT_FALSE(table.Insert(FingerprintOf("a")).second);
  Add(table, "a");
  EXPECT_EQ(Add(table, "a").count, 2u);
  EXPECT_EQ(table.size(), 1u);
  Add(table, "b");
  EXPECT_EQ(table.size(), 2u);
  EXPECT_EQ(Find(table, "a")->count, 2u);
  EXPECT_EQ(Find(table, "b")->count, 1u);
  EXPECT_EQ(Find(table, "c"), nullptr);
  EXPECT_EQ(Find(table, "A"), nullptr);
  EXPECT_EQ(Find(table, "a "), nullptr);
  table.Clear();
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(Find(table, "a"), nullptr);
}

TEST(FingerprintTableTest, EmptyAndBinaryStrings) {
  FingerprintTable<Counts> table;
  Add(table, "");
  Add(table, std::string_view());
  EXPECT_EQ(table.size(), 1u);
  EXPECT_EQ(Find(table, "")->count, 2u);
  Add(table, std::string("a\0b", 3));
  EXPECT_EQ(Find(table, "a"), nullptr);
  EXPECT_NE(Find(table, std::string("a\0b", 3)), nullptr);
  EXPECT_EQ(Find(table, std::string("a\0c", 3)), nullptr);
  // Lengths around the 8-byte word size hash apart.
  std::string s;
  for (int i = 0; i < 40; ++i) {
    s.push_back('x');
    Add(table, s);
  }
  s.clear();
  for (int i = 0; i < 40; ++i) {
    s.push_back('x');
    ASSERT_NE(Find(table, s), nullptr) << i;
    EXPECT_EQ(Find(table, s)->count, 1u) << i;
  }
}

TEST(FingerprintTableTest, TheEmptySlotKeyIsAKeyToo) {
  FingerprintTable<Counts> table;
  Fingerprint zero;
  EXPECT_FALSE(table.Contains(zero));
  EXPECT_TRUE(table.Insert(zero).second);
  table.Insert(zero).first->deleted = 7;
  EXPECT_TRUE(table.Contains(zero));
  EXPECT_EQ(table.Find(zero)->deleted, 7u);
  EXPECT_EQ(table.size(), 1u);
  EXPECT_EQ(Find(table, "a"), nullptr);
  table.Clear();
  EXPECT_FALSE(table.Contains(zero));
}

TEST(FingerprintTableTest, GrowsPastTheInitialTableKeepingValues) {
  FingerprintTable<Counts> table;
  for (int i = 0; i < 5000; ++i) {
    std::string key = "urn:pulumi:dev::p::t::r" + std::to_string(i);
    Add(table, key).deleted = static_cast<std::uint32_t>(i % 3);
    if (i % 7 == 0) Add(table, key);
  }
  EXPECT_EQ(table.size(), 5000u);
  for (int i = 0; i < 5000; ++i) {
    const Counts* e =
        Find(table, "urn:pulumi:dev::p::t::r" + std::to_string(i));
    ASSERT_NE(e, nullptr) << i;
    EXPECT_EQ(e->count, i % 7 == 0 ? 2u : 1u) << i;
    EXPECT_EQ(e->deleted, static_cast<std::uint32_t>(i % 3)) << i;
  }
}

TEST(FingerprintTableTest, SetHasNoFalsePositivesOnManyDistinctStrings) {
  FingerprintSet set;
  static_assert(sizeof(Fingerprint) == 16);
  for (int i = 0; i < 100000; ++i)
    set.Insert(FingerprintOf("in-" + std::to_string(i)));
  EXPECT_EQ(set.size(), 100000u);
  // A set's slot is the key alone.
  EXPECT_LE(set.memory(), 4 * 100000 * sizeof(Fingerprint));
  for (int i = 0; i < 100000; ++i) {
    ASSERT_FALSE(set.Contains(FingerprintOf("out-" + std::to_string(i)))) << i;
    ASSERT_TRUE(set.Contains(FingerprintOf("in-" + std::to_string(i)))) << i;
  }
}

// Reserved for n keys, the table holds them without growing: its memory
// is what it was right after Reserve.
TEST(FingerprintTableTest, ReserveMakesTheTableOnceAtItsSize) {
  FingerprintSet set;
  set.Reserve(200000);
  std::size_t reserved = set.memory();
  EXPECT_GE(reserved, 2 * 200000 * sizeof(Fingerprint));
  for (int i = 0; i < 200000; ++i) set.Insert(FingerprintOf(std::to_string(i)));
  EXPECT_EQ(set.memory(), reserved);
  EXPECT_EQ(set.size(), 200000u);
  EXPECT_TRUE(set.Contains(FingerprintOf("199999")));
  set.Reserve(10);  // never shrinks
  EXPECT_EQ(set.memory(), reserved);
}

}  // namespace
}  // namespace pstate
