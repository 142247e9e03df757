#include "pstate/json/builder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pstate/json/compact.h"
#include "pstate/json/parser.h"

namespace pstate::json {
namespace {

class BuilderTest : public ::testing::Test {
 protected:
  Value P(std::string_view text) {
    Parser parser;
    Value v;
    EXPECT_EQ(parser.ParseDocument(text, 0, arena_, &v), ParseStatus::kOk)
        << parser.error().message;
    return v;
  }
  std::string Built(const ObjectBuilder& b) {
    return ToCompactJson(b.Build(arena_));
  }
  std::string Built(const ArrayBuilder& b) {
    return ToCompactJson(b.Build(arena_));
  }

  Arena arena_;
};

TEST_F(BuilderTest, UnchangedObjectIsTheOriginal) {
  Value v = P(R"( {"a": 1, "b": [2]} )");
  ObjectBuilder b(v);
  Value out = b.Build(arena_);
  EXPECT_EQ(out.members, v.members);
  EXPECT_EQ(out.offset, v.offset);
  // Reorders that move nothing change nothing either.
  b.Reorder({"a", "b"});
  b.SortKeysBytewise();
  EXPECT_EQ(b.Build(arena_).members, v.members);
}

TEST_F(BuilderTest, EmptyAndNonObjects) {
  ObjectBuilder empty;
  EXPECT_EQ(Built(empty), "{}");
  EXPECT_TRUE(empty.Build(arena_).is_object());
  ObjectBuilder from_array(P("[1]"));
  EXPECT_EQ(from_array.size(), 0u);
  from_array.Set("k", MakeNull());
  EXPECT_EQ(Built(from_array), R"({"k":null})");
}

TEST_F(BuilderTest, SetReplacesInPlaceOrAppends) {
  Value v = P(R"({"a":1,"b":2,"c":3})");
  ObjectBuilder b(v);
  b.Set("b", arena_.MakeNumber("20"));
  b.Set("d", arena_.MakeString("new\n"));
  EXPECT_EQ(Built(b), R"({"a":1,"b":20,"c":3,"d":"new\n"})");
  EXPECT_EQ(b.Get("b")->raw(), "20");
  EXPECT_TRUE(b.Has("d"));
  EXPECT_FALSE(b.Has("z"));
  // The original is untouched.
  EXPECT_EQ(ToCompactJson(v), R"({"a":1,"b":2,"c":3})");
}

TEST_F(BuilderTest, UnchangedChildrenAreShared) {
  Value v = P(R"({"big":{"x":[1,2,3]},"small":1})");
  ObjectBuilder b(v);
  b.Set("small", arena_.MakeNumber("2"));
  Value out = b.Build(arena_);
  EXPECT_NE(out.members, v.members);
  // The untouched member's key and value point at the original storage.
  EXPECT_EQ(out.object()[0].key.text, v.object()[0].key.text);
  EXPECT_EQ(out.object()[0].value.members, v.object()[0].value.members);
  EXPECT_EQ(out.offset, v.offset);
}

TEST_F(BuilderTest, KeysCompareUnescapedAndKeepTheirSpelling) {
  Value v = P(R"({"\u0061":1,"b\/c":2})");
  ObjectBuilder b(v);
  EXPECT_EQ(b.Get("a")->raw(), "1");
  EXPECT_EQ(b.Get("b/c")->raw(), "2");
  EXPECT_EQ(b.Get("\\u0061"), nullptr);
  b.Set("a", arena_.MakeNumber("10"));
  EXPECT_EQ(Built(b), R"({"\u0061":10,"b\/c":2})");
  EXPECT_EQ(b.Keys(), (std::vector<std::string>{"a", "b/c"}));
  // A new key is escaped as Go writes it.
  b.Set("q\"", MakeBool(true));
  EXPECT_EQ(Built(b), R"({"\u0061":10,"b\/c":2,"q\"":true})");
}

TEST_F(BuilderTest, SetWithDuplicatesKeepsOnlyTheLast) {
  ObjectBuilder b(P(R"({"a":1,"b":2,"a":3,"c":4})"));
  EXPECT_EQ(b.Get("a")->raw(), "3");
  b.Set("a", arena_.MakeNumber("5"));
  EXPECT_EQ(Built(b), R"({"b":2,"a":5,"c":4})");
}

TEST_F(BuilderTest, RemoveAllOccurrences) {
  ObjectBuilder b(P(R"({"a":1,"b":2,"\u0061":3})"));
  EXPECT_EQ(b.Remove("a"), 2u);
  EXPECT_EQ(b.Remove("a"), 0u);
  EXPECT_EQ(b.Remove("zzz"), 0u);
  EXPECT_EQ(Built(b), R"({"b":2})");
  EXPECT_EQ(b.Remove("b"), 1u);
  EXPECT_EQ(Built(b), "{}");
}

TEST_F(BuilderTest, InsertBeforeAndAfter) {
  ObjectBuilder b(P(R"({"a":1,"b":2,"c":3})"));
  EXPECT_TRUE(b.InsertBefore("b", "x", MakeNull()));
  EXPECT_EQ(Built(b), R"({"a":1,"x":null,"b":2,"c":3})");
  EXPECT_TRUE(b.InsertAfter("c", "y", MakeBool(false)));
  EXPECT_EQ(Built(b), R"({"a":1,"x":null,"b":2,"c":3,"y":false})");
  // An existing key moves.
  EXPECT_TRUE(b.InsertAfter("a", "c", arena_.MakeNumber("30")));
  EXPECT_EQ(Built(b), R"({"a":1,"c":30,"x":null,"b":2,"y":false})");
  // A missing anchor changes nothing.
  EXPECT_FALSE(b.InsertBefore("nope", "z", MakeNull()));
  EXPECT_EQ(Built(b), R"({"a":1,"c":30,"x":null,"b":2,"y":false})");
  // Key == anchor is Set.
  EXPECT_TRUE(b.InsertBefore("b", "b", arena_.MakeNumber("7")));
  EXPECT_EQ(Built(b), R"({"a":1,"c":30,"x":null,"b":7,"y":false})");
}

TEST_F(BuilderTest, InsertAnchorsOnTheLastDuplicate) {
  ObjectBuilder b(P(R"({"a":1,"b":2,"a":3})"));
  EXPECT_TRUE(b.InsertBefore("a", "x", MakeNull()));
  EXPECT_EQ(Built(b), R"({"a":1,"b":2,"x":null,"a":3})");
}

TEST_F(BuilderTest, RemoveShadowed) {
  ObjectBuilder b(P(R"({"a":1,"b":2,"a":3,"b":4,"c":5})"));
  b.RemoveShadowed();
  EXPECT_EQ(Built(b), R"({"a":3,"b":4,"c":5})");
  Value original = P(R"({"a":1})");
  ObjectBuilder same(original);
  same.RemoveShadowed();
  EXPECT_EQ(same.Build(arena_).members, original.members);
}

TEST_F(BuilderTest, ReorderByComparatorAndByList) {
  ObjectBuilder b(P(R"({"c":1,"a":2,"b":3})"));
  b.Reorder([](std::string_view x, std::string_view y) { return x > y; });
  EXPECT_EQ(Built(b), R"({"c":1,"b":3,"a":2})");
  b.Reorder({"a", "missing", "c"});
  EXPECT_EQ(Built(b), R"({"a":2,"c":1,"b":3})");
  std::vector<std::string_view> keys = {"b"};
  b.Reorder(keys);
  EXPECT_EQ(Built(b), R"({"b":3,"a":2,"c":1})");
}

TEST_F(BuilderTest, ReorderByListKeepsDuplicatesInOrder) {
  ObjectBuilder b(P(R"({"x":0,"a":1,"y":0,"a":2})"));
  b.Reorder({"a"});
  EXPECT_EQ(Built(b), R"({"a":1,"a":2,"x":0,"y":0})");
  EXPECT_EQ(b.Get("a")->raw(), "2");
}

TEST_F(BuilderTest, SortKeysBytewiseAsGo) {
  // Go sorts map keys by their bytes: uppercase before lowercase, and
  // non-ASCII (bytes >= 0x80) after ASCII; escapes do not matter.
  ObjectBuilder b(
      P(R"({"b":1,"\u00e9":2,"B":3,"a":4,"":5,"\u0041":6,"aa":7})"));
  b.SortKeysBytewise();
  EXPECT_EQ(Built(b),
            R"({"":5,"\u0041":6,"B":3,"a":4,"aa":7,"b":1,"\u00e9":2})");
  EXPECT_EQ(b.Keys(), (std::vector<std::string>{"", "A", "B", "a", "aa", "b",
                                                "\xC3\xA9"}));
}

TEST_F(BuilderTest, BuiltObjectsAreIndependentOfTheBuilder) {
  ObjectBuilder b;
  b.Set("k", arena_.MakeNumber("1"));
  Value first = b.Build(arena_);
  b.Set("k", arena_.MakeNumber("2"));
  b.Set("j", arena_.MakeNumber("3"));
  Value second = b.Build(arena_);
  EXPECT_EQ(ToCompactJson(first), R"({"k":1})");
  EXPECT_EQ(ToCompactJson(second), R"({"k":2,"j":3})");
}

TEST_F(BuilderTest, ArrayUnchangedIsTheOriginal) {
  Value v = P("[1,[2],{}]");
  ArrayBuilder b(v);
  EXPECT_EQ(b.Build(arena_).elements, v.elements);
  std::vector<std::size_t> identity = {0, 1, 2};
  EXPECT_TRUE(b.Reorder(identity));
  EXPECT_EQ(b.Build(arena_).elements, v.elements);
  EXPECT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].raw(), "1");
}

TEST_F(BuilderTest, ArrayEdits) {
  Value v = P("[1,[2],{}]");
  ArrayBuilder b(v);
  b.Append(arena_.MakeNumber("4"));
  EXPECT_TRUE(b.Insert(0, arena_.MakeNumber("0")));
  EXPECT_TRUE(b.Insert(5, MakeNull()));
  EXPECT_FALSE(b.Insert(7, MakeNull()));
  EXPECT_EQ(Built(b), "[0,1,[2],{},4,null]");
  EXPECT_TRUE(b.Set(1, MakeBool(true)));
  EXPECT_FALSE(b.Set(6, MakeBool(true)));
  EXPECT_TRUE(b.Erase(2));
  EXPECT_EQ(Built(b), "[0,true,{},4,null]");
  EXPECT_TRUE(b.Erase(3, 100));
  EXPECT_EQ(Built(b), "[0,true,{}]");
  EXPECT_TRUE(b.Erase(3));  // at the end: nothing to erase
  EXPECT_FALSE(b.Erase(4));
  EXPECT_EQ(b.EraseIf([](const Value& e) { return e.is_bool(); }), 1u);
  EXPECT_EQ(Built(b), "[0,{}]");
  // Shared children; original untouched.
  Value out = b.Build(arena_);
  EXPECT_EQ(out.array()[1].members, v.array()[2].members);
  EXPECT_EQ(ToCompactJson(v), "[1,[2],{}]");
  EXPECT_EQ(out.offset, v.offset);
}

TEST_F(BuilderTest, ArrayReorder) {
  ArrayBuilder b(P(R"([3,1,2,1.0])"));
  b.Reorder([](const Value& x, const Value& y) { return x.raw() < y.raw(); });
  EXPECT_EQ(Built(b), "[1,1.0,2,3]");
  std::vector<std::size_t> reverse = {3, 2, 1, 0};
  EXPECT_TRUE(b.Reorder(reverse));
  EXPECT_EQ(Built(b), "[3,2,1.0,1]");
  std::vector<std::size_t> bad = {0, 0, 1, 2};
  EXPECT_FALSE(b.Reorder(bad));
  std::vector<std::size_t> short_order = {0};
  EXPECT_FALSE(b.Reorder(short_order));
  std::vector<std::size_t> out_of_range = {0, 1, 2, 4};
  EXPECT_FALSE(b.Reorder(out_of_range));
  EXPECT_EQ(Built(b), "[3,2,1.0,1]");
}

TEST_F(BuilderTest, EmptyArray) {
  ArrayBuilder b;
  EXPECT_EQ(Built(b), "[]");
  ArrayBuilder from_object(P("{}"));
  from_object.Append(MakeNull());
  EXPECT_EQ(Built(from_object), "[null]");
}

}  // namespace
}  // namespace pstate::json
