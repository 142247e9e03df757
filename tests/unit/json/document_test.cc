#include "json/document.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "json/compact.h"

namespace pstate::json {
namespace {

TEST(DocumentTest, ParsesAndOwnsItsText) {
  std::string text = R"( {"a": [1, "two", {"b": null}], "c": true} )";
  Result<Document> doc = Document::Parse(text);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  text.assign(text.size(), 'x');  // the caller's copy no longer matters
  const Value& root = doc->root();
  ASSERT_TRUE(root.is_object());
  EXPECT_EQ(ToCompactJson(root), R"({"a":[1,"two",{"b":null}],"c":true})");
  EXPECT_EQ(root.offset, 1u);
  EXPECT_EQ(doc->text(), R"( {"a": [1, "two", {"b": null}], "c": true} )");
  EXPECT_TRUE(doc->duplicates().empty());
}

TEST(DocumentTest, SurvivesMoves) {
  // Short texts live inside std::string itself: the tree must not point
  // there.
  std::vector<Document> docs;
  for (const char* text : {"\"s\"", "12", "[1]", R"({"k":"v"})"}) {
    Result<Document> doc = Document::Parse(text);
    ASSERT_TRUE(doc.ok());
    docs.push_back(std::move(doc).value());
  }
  for (int i = 0; i < 50; ++i) {
    docs.push_back(
        std::move(Document::Parse("[" + std::to_string(i) + "]")).value());
  }
  EXPECT_EQ(docs[0].root().Str(), "s");
  EXPECT_EQ(docs[1].root().raw(), "12");
  EXPECT_EQ(ToCompactJson(docs[2].root()), "[1]");
  EXPECT_EQ(docs[3].root().Find("k")->Str(), "v");
  Document moved = std::move(docs[3]);
  EXPECT_EQ(moved.root().Find("k")->Str(), "v");
  docs[0] = std::move(moved);
  EXPECT_EQ(docs[0].root().Find("k")->Str(), "v");
}

TEST(DocumentTest, LocatedSyntaxError) {
  DocumentError error;
  Result<Document> doc = Document::Parse("{\n  \"a\": 1,\n  \"b\": x\n}",
                                         kDefaultMaxDepth, &error);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().code(), Errc::kSyntax);
  EXPECT_EQ(error.code, SyntaxCode::kSyntax);
  EXPECT_EQ(error.offset, 19u);
  EXPECT_EQ(error.at.line, 3u);
  EXPECT_EQ(error.at.column, 8u);
  EXPECT_EQ(doc.status().message().rfind("line 3, column 8 (offset 19): ", 0),
            0u)
      << doc.status().message();
  EXPECT_NE(doc.status().message().find(error.message), std::string::npos);
  EXPECT_FALSE(error.message.empty());
}

TEST(DocumentTest, ErrorsAtTheEdges) {
  DocumentError error;
  Result<Document> empty = Document::Parse("", kDefaultMaxDepth, &error);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), Errc::kSyntax);
  EXPECT_EQ(error.at.line, 1u);
  EXPECT_EQ(error.at.column, 1u);

  Result<Document> trailing =
      Document::Parse("[1] [2]", kDefaultMaxDepth, &error);
  ASSERT_FALSE(trailing.ok());
  EXPECT_EQ(error.offset, 4u);
  EXPECT_EQ(error.at.column, 5u);

  Result<Document> cut = Document::Parse("{\"a\":", kDefaultMaxDepth, &error);
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(error.offset, 5u);

  Result<Document> utf8 = Document::Parse("\"\xFF\"", kDefaultMaxDepth, &error);
  ASSERT_FALSE(utf8.ok());
  EXPECT_EQ(error.code, SyntaxCode::kInvalidUtf8);
  EXPECT_EQ(utf8.status().code(), Errc::kSyntax);
}

TEST(DocumentTest, DepthLimit) {
  std::string deep(10, '[');
  deep += std::string(10, ']');
  EXPECT_TRUE(Document::Parse(deep, 10).ok());
  DocumentError error;
  Result<Document> too_deep = Document::Parse(deep, 9, &error);
  ASSERT_FALSE(too_deep.ok());
  EXPECT_EQ(too_deep.status().code(), Errc::kLimit);
  EXPECT_EQ(error.code, SyntaxCode::kTooDeep);
  EXPECT_EQ(error.at.column, 10u);  // the tenth '['
}

TEST(DocumentTest, DuplicatesAndLocate) {
  Result<Document> doc = Document::Parse("{\"a\":1,\n\"a\":2}");
  ASSERT_TRUE(doc.ok());
  ASSERT_EQ(doc->duplicates().size(), 1u);
  EXPECT_EQ(doc->duplicates()[0].key, "a");
  EXPECT_EQ(doc->root().Find("a")->raw(), "2");
  io::LineColumn at = doc->Locate(doc->root().object()[1].key.offset);
  EXPECT_EQ(at.line, 2u);
  EXPECT_EQ(at.column, 1u);
  EXPECT_EQ(doc->Locate(0).line, 1u);
  EXPECT_EQ(doc->Locate(0).column, 1u);
  EXPECT_EQ(doc->Locate(1000).line, 2u);  // clamped to the end
}

TEST(DocumentTest, ArenaForDerivedValues) {
  Result<Document> doc = Document::Parse(R"(["x"])");
  ASSERT_TRUE(doc.ok());
  Value extra = doc->arena().MakeString("y");
  EXPECT_EQ(extra.Str(), "y");
  Value clone = Clone(doc->root(), doc->arena());
  EXPECT_EQ(ToCompactJson(clone), R"(["x"])");
}

}  // namespace
}  // namespace pstate::json
