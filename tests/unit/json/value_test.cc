#include "json/value.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "json/parser.h"

namespace pstate::json {
namespace {

Value Parse(std::string_view text, Arena& arena) {
  Parser parser;
  Value v;
  EXPECT_EQ(parser.ParseDocument(text, 0, arena, &v), ParseStatus::kOk)
      << parser.error().message;
  return v;
}

TEST(ValueTest, FindComparesUnescapedKeys) {
  Arena arena;
  Value v = Parse(R"({"a":1,"b\u0063":2,"d\/e":3,"":4,"x":5,"x":6})", arena);
  ASSERT_NE(v.Find("a"), nullptr);
  EXPECT_EQ(v.Find("a")->raw(), "1");
  ASSERT_NE(v.Find("bc"), nullptr);
  EXPECT_EQ(v.Find("bc")->raw(), "2");
  EXPECT_EQ(v.Find("b\\u0063"), nullptr);
  ASSERT_NE(v.Find("d/e"), nullptr);
  EXPECT_EQ(v.Find("d/e")->raw(), "3");
  ASSERT_NE(v.Find(""), nullptr);
  EXPECT_EQ(v.Find("")->raw(), "4");
  EXPECT_EQ(v.Find("missing"), nullptr);
  EXPECT_EQ(v.Find("A"), nullptr);
  // The last of duplicate members, as Go's decoder keeps it.
  EXPECT_EQ(v.Find("x")->raw(), "6");
}

TEST(ValueTest, FindOnNonObjects) {
  Arena arena;
  EXPECT_EQ(Parse(R"([{"a":1}])", arena).Find("a"), nullptr);
  EXPECT_EQ(Parse(R"("a")", arena).Find("a"), nullptr);
  EXPECT_EQ(Value().Find("a"), nullptr);
}

TEST(ValueTest, StrAndStrEquals) {
  Arena arena;
  Value v = Parse(R"(["plain","tab\there","\u00e9",1,null])", arena);
  auto items = v.array();
  EXPECT_EQ(items[0].Str(), "plain");
  EXPECT_EQ(items[1].Str(), "tab\there");
  EXPECT_EQ(items[1].raw(), R"(tab\there)");
  EXPECT_TRUE(items[0].StrEquals("plain"));
  EXPECT_FALSE(items[0].StrEquals("plai"));
  EXPECT_TRUE(items[1].StrEquals("tab\there"));
  EXPECT_FALSE(items[1].StrEquals(R"(tab\there)"));
  EXPECT_TRUE(items[2].StrEquals("\xC3\xA9"));
  // Not strings: never equal, even to their text.
  EXPECT_FALSE(items[3].StrEquals("1"));
  EXPECT_FALSE(items[4].StrEquals("null"));
  EXPECT_FALSE(items[4].StrEquals(""));
}

// StrEquals skips decoding when the raw length rules equality out, and
// the bounds it uses are exact at both ends: six escaped bytes can decode
// to one, and a decoded text is never longer than its escaped form.
TEST(ValueTest, StrEqualsLengthBoundsAreExact) {
  Arena arena;
  Value v =
      Parse(R"(["\u0041", "\ud83d\ude00", "\"long\" payload \"text\"", "\\"])",
            arena);
  std::span<const Value> items = v.array();
  EXPECT_TRUE(items[0].StrEquals("A"));                 // 6 bytes -> 1
  EXPECT_TRUE(items[1].StrEquals("\xF0\x9F\x98\x80"));  // 12 bytes -> 4
  EXPECT_FALSE(items[1].StrEquals("x"));
  EXPECT_TRUE(items[2].StrEquals(R"("long" payload "text")"));
  EXPECT_FALSE(items[2].StrEquals("04da6b54-80e4-46f7-96ec-b56ff0331ba9"));
  EXPECT_FALSE(items[2].StrEquals(""));
  EXPECT_TRUE(items[3].StrEquals("\\"));
  EXPECT_FALSE(items[3].StrEquals(""));
}

TEST(ValueTest, TypeNames) {
  EXPECT_EQ(TypeName(Type::kNull), "null");
  EXPECT_EQ(TypeName(Type::kTrue), "boolean");
  EXPECT_EQ(TypeName(Type::kFalse), "boolean");
  EXPECT_EQ(TypeName(Type::kNumber), "number");
  EXPECT_EQ(TypeName(Type::kString), "string");
  EXPECT_EQ(TypeName(Type::kArray), "array");
  EXPECT_EQ(TypeName(Type::kObject), "object");
}

TEST(ArenaTest, MakeScalars) {
  Arena arena;
  Value n = arena.MakeNumber("-1.50e3", 9);
  EXPECT_TRUE(n.is_number());
  EXPECT_EQ(n.raw(), "-1.50e3");
  EXPECT_EQ(n.offset, 9u);
  EXPECT_TRUE(MakeNull().is_null());
  EXPECT_EQ(MakeNull(4).offset, 4u);
  EXPECT_EQ(MakeBool(true).type, Type::kTrue);
  EXPECT_EQ(MakeBool(false, 3).type, Type::kFalse);
  EXPECT_EQ(MakeBool(false, 3).offset, 3u);
  // The number text is a copy, not a view of the caller's buffer.
  std::string text = "42";
  Value copy = arena.MakeNumber(text);
  text[0] = '7';
  EXPECT_EQ(copy.raw(), "42");
}

TEST(ArenaTest, MakeArrayAndObjectCopyTheOuterArrayOnly) {
  Arena arena;
  Value inner_elements[] = {arena.MakeNumber("1")};
  Value inner = arena.MakeArray(inner_elements);
  Value elements[] = {inner, arena.MakeString("s")};
  Value array = arena.MakeArray(elements, 5);
  elements[1] = MakeNull();
  ASSERT_TRUE(array.is_array());
  ASSERT_EQ(array.array().size(), 2u);
  EXPECT_EQ(array.offset, 5u);
  EXPECT_TRUE(array.array()[1].is_string());
  // The child array is shared.
  EXPECT_EQ(array.array()[0].elements, inner.elements);

  Member members[] = {{arena.MakeString("a"), array},
                      {arena.MakeString("a"), MakeBool(true)}};
  Value object = arena.MakeObject(members);
  ASSERT_TRUE(object.is_object());
  EXPECT_EQ(object.object().size(), 2u);
  EXPECT_EQ(object.Find("a")->type, Type::kTrue);

  EXPECT_TRUE(arena.MakeArray({}).is_array());
  EXPECT_TRUE(arena.MakeArray({}).array().empty());
  EXPECT_TRUE(arena.MakeObject({}).object().empty());
}

TEST(CloneTest, DeepCopyIntoAnotherArena) {
  Arena clone_arena;
  Value clone;
  std::string text = R"({"s":"a\u0041","n":-1.50e3,"arr":[true,false,null,[]],)"
                     R"("o":{},"s":"dup","\u00e9":"\u00e9"})";
  {
    Arena source;
    Value original = Parse(text, source);
    clone = Clone(original, clone_arena);
    // Same shape, offsets and flags.
    ASSERT_EQ(clone.size, original.size);
    EXPECT_EQ(clone.offset, original.offset);
    for (std::uint32_t i = 0; i < original.size; ++i) {
      const Member& a = original.object()[i];
      const Member& b = clone.object()[i];
      EXPECT_EQ(a.key.raw(), b.key.raw());
      EXPECT_NE(a.key.text, b.key.text);
      EXPECT_EQ(a.key.offset, b.key.offset);
      EXPECT_EQ(a.key.has_escapes, b.key.has_escapes);
      EXPECT_EQ(a.key.ascii, b.key.ascii);
      EXPECT_EQ(a.value.type, b.value.type);
      EXPECT_EQ(a.value.offset, b.value.offset);
      EXPECT_EQ(a.value.size, b.value.size);
    }
    source.Reset();
    // Overwrite the freed source blocks' contents.
    for (int i = 0; i < 100; ++i) source.Copy(std::string(1000, '#'));
  }
  ASSERT_TRUE(clone.is_object());
  ASSERT_EQ(clone.object().size(), 6u);
  EXPECT_EQ(clone.object()[0].value.raw(), "a\\u0041");
  EXPECT_TRUE(clone.object()[0].value.has_escapes);
  EXPECT_EQ(clone.object()[0].value.Str(), "aA");
  EXPECT_EQ(clone.Find("n")->raw(), "-1.50e3");
  EXPECT_EQ(clone.Find("s")->Str(), "dup");
  EXPECT_EQ(clone.Find("arr")->array().size(), 4u);
  EXPECT_TRUE(clone.Find("arr")->array()[3].is_array());
  EXPECT_TRUE(clone.Find("o")->is_object());
  EXPECT_EQ(clone.Find("\xC3\xA9")->Str(), "\xC3\xA9");
}

TEST(CloneTest, Scalars) {
  Arena arena;
  EXPECT_TRUE(Clone(Value(), arena).is_null());
  EXPECT_EQ(Clone(MakeBool(true, 7), arena).offset, 7u);
  Value n = Clone(arena.MakeNumber("12"), arena);
  EXPECT_EQ(n.raw(), "12");
  Value e = Clone(arena.MakeString(""), arena);
  EXPECT_TRUE(e.is_string());
  EXPECT_EQ(e.raw(), "");
}

TEST(ArenaTest, MakeStringEscapes) {
  Arena arena;
  Value plain = arena.MakeString("hello", 42);
  EXPECT_TRUE(plain.is_string());
  EXPECT_FALSE(plain.has_escapes);
  EXPECT_EQ(plain.raw(), "hello");
  EXPECT_EQ(plain.offset, 42u);
  Value esc = arena.MakeString("a\"b\nc\x01");
  EXPECT_TRUE(esc.has_escapes);
  EXPECT_EQ(esc.raw(), R"(a\"b\nc\u0001)");
  EXPECT_EQ(esc.Str(), "a\"b\nc\x01");
  EXPECT_TRUE(esc.StrEquals("a\"b\nc\x01"));
  Value empty = arena.MakeString("");
  EXPECT_TRUE(empty.is_string());
  EXPECT_EQ(empty.size, 0u);
  EXPECT_EQ(empty.Str(), "");
}

TEST(ArenaTest, CopyIsOwnedAndTerminated) {
  Arena arena;
  std::string text = "abc";
  std::string_view copy = arena.Copy(text);
  text = "xyz";
  EXPECT_EQ(copy, "abc");
  EXPECT_EQ(copy.data()[3], '\0');
  EXPECT_EQ(arena.Copy("").size(), 0u);
}

TEST(ArenaTest, AllocationsAreAlignedAndDistinct) {
  Arena arena;
  std::set<const void*> seen;
  for (int i = 0; i < 1000; ++i) {
    char* c = arena.Allocate<char>(3);
    Value* v = arena.Allocate<Value>(2);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v) % alignof(Value), 0u);
    EXPECT_TRUE(seen.insert(c).second);
    EXPECT_TRUE(seen.insert(v).second);
  }
  // A single allocation larger than any block.
  char* big = arena.Allocate<char>(1 << 20);
  big[0] = 'a';
  big[(1 << 20) - 1] = 'z';
}

TEST(ArenaTest, AllocationsFillBlocksExactlyWithoutOverlap) {
  // Sizes that land exactly on, and one past, the end of a block: the
  // check must compare sizes, and every allocation must be usable in full
  // (ASan catches an overrun).
  Arena arena;
  std::vector<std::pair<char*, std::size_t>> spans;
  const std::size_t sizes[] = {
      64 * 1024 - 1, 1, 7, 64 * 1024, 3, 1 << 17, 1, 0, 5, 200000, 8};
  for (std::size_t size : sizes) {
    char* p = arena.Allocate<char>(size);
    if (size > 0) {
      p[0] = 'a';
      p[size - 1] = 'z';
    }
    spans.emplace_back(p, size);
    Value* v = arena.Allocate<Value>(1);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v) % alignof(Value), 0u);
    *v = Value();
    spans.emplace_back(reinterpret_cast<char*>(v), sizeof(Value));
  }
  for (std::size_t i = 0; i < spans.size(); ++i) {
    for (std::size_t j = i + 1; j < spans.size(); ++j) {
      auto [a, an] = spans[i];
      auto [b, bn] = spans[j];
      if (an == 0 || bn == 0) continue;
      EXPECT_TRUE(a + an <= b || b + bn <= a) << i << " overlaps " << j;
    }
  }
}

TEST(ArenaTest, ResetFreesAndReuses) {
  Arena arena;
  EXPECT_EQ(arena.used(), 0u);
  arena.Reset();  // on an empty arena
  arena.Allocate<char>(100);
  arena.Allocate<Value>(10);
  EXPECT_GE(arena.used(), 100u + 10 * sizeof(Value));
  for (int i = 0; i < 100; ++i) arena.Allocate<char>(10000);  // several blocks
  arena.Reset();
  EXPECT_EQ(arena.used(), 0u);
  // The kept block serves the next allocations (no growth needed for a
  // piece of the same size).
  char* first = arena.Allocate<char>(10000);
  arena.Reset();
  char* again = arena.Allocate<char>(10000);
  EXPECT_EQ(first, again);
  // Values made after a reset are intact.
  Value s = arena.MakeString("after reset");
  EXPECT_EQ(s.Str(), "after reset");
}

}  // namespace
}  // namespace pstate::json
