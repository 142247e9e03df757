#include "json/pointer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/parser.h"

namespace pstate::json {
namespace {

TEST(PointerTest, TokensAreEscaped) {
  std::string p;
  AppendPointerToken(&p, "a/b~c");
  EXPECT_EQ(p, "/a~1b~0c");
  p.clear();
  AppendPointerToken(&p, "~1");
  EXPECT_EQ(p, "/~01");
  AppendPointerToken(&p, "");
  EXPECT_EQ(p, "/~01/");
  AppendPointerIndex(&p, 0);
  AppendPointerIndex(&p, 123);
  EXPECT_EQ(p, "/~01//0/123");
}

// PointerPath references keys and spells them only when asked: escaped
// keys are decoded before they are escaped for the pointer, hidden keys
// print as "*", suffixes are appended as they are, and a mark pops back.
TEST(PointerTest, PathSpellsSegmentsOnDemand) {
  Arena arena;
  Parser parser;
  Value doc;
  ASSERT_EQ(
      parser.ParseDocument(R"({"a/b": {"t\u0069lde~": 1}})", 0, arena, &doc),
      ParseStatus::kOk);
  const Member& outer = doc.object()[0];
  const Member& inner = outer.value.object()[0];
  ASSERT_TRUE(inner.key.has_escapes);

  PointerPath path("/resources/0");
  EXPECT_EQ(path.str(), "/resources/0");
  std::size_t mark = path.PushKey(outer.key);
  path.PushKey(inner.key);
  EXPECT_EQ(path.str(), "/resources/0/a~1b/tilde~0");
  EXPECT_EQ(path.size(), 2u);
  path.Pop();
  path.PushKey(inner.key, /*hidden=*/true);
  path.PushIndex(7);
  path.PushName("x/y");
  path.PushName("secret key", /*hidden=*/true);
  path.PushSuffix("/z~1w");
  EXPECT_EQ(path.str(), "/resources/0/a~1b/*/7/x~1y/*/z~1w");
  path.Pop(mark);
  EXPECT_EQ(path.size(), 0u);
  EXPECT_EQ(path.str(), "/resources/0");
}

TEST(PointerTest, BuilderPushAndPop) {
  PointerBuilder b("/deployment");
  EXPECT_EQ(b.str(), "/deployment");
  std::size_t m1 = b.PushKey("resources");
  std::size_t m2 = b.PushIndex(7);
  EXPECT_EQ(b.str(), "/deployment/resources/7");
  std::size_t m3 = b.PushKey("a/b");
  EXPECT_EQ(b.str(), "/deployment/resources/7/a~1b");
  b.Pop(m3);
  EXPECT_EQ(b.str(), "/deployment/resources/7");
  b.Pop(m2);
  b.Pop(m1);
  EXPECT_EQ(b.str(), "/deployment");
  EXPECT_EQ(PointerBuilder().str(), "");
}

class ResolveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Parser parser;
    ASSERT_EQ(parser.ParseDocument(
                  R"({"a":{"b":[10,20,{"c":true}]},"":"empty","a/b":1,)"
                  R"("m~n":2,"~1":3," ":4,"x":"first","x":"last",)"
                  R"("\u00e9":5,"s":"str","n":null,"arr":[[0]]})",
                  0, arena_, &root_),
              ParseStatus::kOk)
        << parser.error().message;
  }
  std::string At(std::string_view pointer) {
    const Value* v = Resolve(root_, pointer);
    return v == nullptr ? "<none>"
                        : std::string(v->is_object() ? "{...}" : v->raw());
  }
  Status Why(std::string_view pointer) {
    const Value* out = nullptr;
    Status s = Resolve(root_, pointer, &out);
    if (s.ok()) {
      EXPECT_NE(out, nullptr);
    }
    return s;
  }

  Arena arena_;
  Value root_;
};

TEST_F(ResolveTest, Rfc6901) {
  EXPECT_EQ(Resolve(root_, ""), &root_);
  EXPECT_EQ(At("/a/b/0"), "10");
  EXPECT_EQ(At("/a/b/1"), "20");
  EXPECT_EQ(At("/a/b/2"), "{...}");
  EXPECT_EQ(Resolve(root_, "/a/b/2/c")->type, Type::kTrue);
  EXPECT_EQ(At("/"), "empty");
  EXPECT_EQ(At("/a~1b"), "1");
  EXPECT_EQ(At("/m~0n"), "2");
  EXPECT_EQ(At("/~01"), "3");  // ~01 is "~1", not "/"
  EXPECT_EQ(At("/ "), "4");
  EXPECT_EQ(At("/\xC3\xA9"), "5");  // keys compare unescaped
  EXPECT_EQ(At("/arr/0/0"), "0");
  EXPECT_TRUE(Resolve(root_, "/n")->is_null());
}

TEST_F(ResolveTest, LastDuplicateWins) { EXPECT_EQ(At("/x"), "last"); }

TEST_F(ResolveTest, NothingThere) {
  for (const char* p :
       {"/missing", "/a/missing", "/a/b/3", "/a/b/-", "/a/b/01", "/a/b/+1",
        "/a/b/1e0", "/a/b/", "/a/b/ 1", "/a/b/99999999999999999999999", "/s/0",
        "/n/x", "/a/b/0/x", "a", "/m~2n", "/m~", "/a/b/-1", "/~1/"}) {
    EXPECT_EQ(Resolve(root_, p), nullptr) << p;
  }
}

TEST_F(ResolveTest, StatusSaysWhichSegmentFailed) {
  Status s = Why("/a/nope/c");
  EXPECT_EQ(s.code(), Errc::kNotFound);
  EXPECT_EQ(s.message(),
            "JSON pointer \"/a/nope/c\": segment 2 (\"nope\"): "
            "no member \"nope\" in the object at \"/a\"");

  s = Why("/a/b/7");
  EXPECT_EQ(s.code(), Errc::kNotFound);
  EXPECT_EQ(s.message(),
            "JSON pointer \"/a/b/7\": segment 3 (\"7\"): index "
            "out of range for the array of 3 elements at "
            "\"/a/b\"");

  s = Why("/a/b/01");
  EXPECT_EQ(s.code(), Errc::kInvalidArgument);
  EXPECT_NE(s.message().find("segment 3 (\"01\"): not an array index"),
            std::string::npos)
      << s.message();

  s = Why("/a/b/-");
  EXPECT_EQ(s.code(), Errc::kNotFound);
  EXPECT_NE(s.message().find("position after the last element"),
            std::string::npos);

  s = Why("/s/x");
  EXPECT_EQ(s.code(), Errc::kNotFound);
  EXPECT_NE(s.message().find("segment 2 (\"x\"): the value at \"/s\" is a "
                             "string"),
            std::string::npos)
      << s.message();

  s = Why("/n/x");
  EXPECT_NE(s.message().find("is null"), std::string::npos) << s.message();

  s = Why("/m~2n");
  EXPECT_EQ(s.code(), Errc::kInvalidArgument);
  EXPECT_NE(s.message().find("segment 1"), std::string::npos);

  s = Why("a/b");
  EXPECT_EQ(s.code(), Errc::kInvalidArgument);
  EXPECT_NE(s.message().find("starts with '/'"), std::string::npos);

  // The parent pointer keeps the escaped spelling of earlier tokens.
  s = Why("/a~1b/x");
  EXPECT_NE(s.message().find("at \"/a~1b\""), std::string::npos) << s.message();

  EXPECT_TRUE(Why("").ok());
  EXPECT_TRUE(Why("/a/b/2/c").ok());
}

TEST_F(ResolveTest, OutUntouchedOnFailure) {
  const Value* out = &root_;
  EXPECT_FALSE(Resolve(root_, "/zzz", &out).ok());
  EXPECT_EQ(out, &root_);
}

TEST(SplitPointerTest, Tokens) {
  using Tokens = std::vector<std::string>;
  EXPECT_EQ(SplitPointer("").value(), Tokens{});
  EXPECT_EQ(SplitPointer("/").value(), Tokens{""});
  EXPECT_EQ(SplitPointer("//").value(), (Tokens{"", ""}));
  EXPECT_EQ(SplitPointer("/a~1b/~0/0").value(), (Tokens{"a/b", "~", "0"}));
  EXPECT_EQ(SplitPointer("/~01").value(), Tokens{"~1"});
  EXPECT_EQ(SplitPointer("/a/").value(), (Tokens{"a", ""}));
  EXPECT_FALSE(SplitPointer("a").ok());
  EXPECT_EQ(SplitPointer("/a/~").status().code(), Errc::kInvalidArgument);
  EXPECT_FALSE(SplitPointer("/~2").ok());
}

TEST(SplitPointerTest, RoundTripsWithAppendPointerToken) {
  std::vector<std::string> tokens = {"a/b", "~", "", "~1/~0", "x y"};
  std::string pointer;
  for (const std::string& t : tokens) AppendPointerToken(&pointer, t);
  EXPECT_EQ(SplitPointer(pointer).value(), tokens);
}

}  // namespace
}  // namespace pstate::json
