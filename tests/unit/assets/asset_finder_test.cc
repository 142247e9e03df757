// FindInResource / FindInLeaf: which objects become items, their pointers,
// decoded specs, member items and where audit notes land.
#include "assets/asset_finder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/parser.h"

namespace pstate::assets {
namespace {

const std::string kSig = "\"4dabf18193072939515e22adb298388d\"";
const std::string kAsset = kSig + ":\"c44067f5952c0a294b673a41bacd8c17\"";
const std::string kArchive = kSig + ":\"0def7320c3a5731c473e5ecbe6d01bc7\"";
const std::string kHash(64, 'a');

class FinderTest : public ::testing::Test {
 protected:
  std::vector<FoundItem> Find(
      const std::string& resource_json,
      std::string_view base = "/deployment/resources/0") {
    json::Value v;
    json::Parser parser;
    EXPECT_EQ(parser.ParseDocument(resource_json, 0, arena_, &v),
              json::ParseStatus::kOk)
        << resource_json;
    std::vector<FoundItem> items;
    FindInResource(v, base, asset_hash::Options(),
                   [&](FoundItem&& item) { items.push_back(std::move(item)); });
    return items;
  }

  json::Arena arena_;
};

TEST_F(FinderTest, EachKindAndPointer) {
  auto items = Find(R"({"urn":"urn:pulumi:s::p::t::n","inputs":{)"
                    R"("a":{)" +
                    kAsset + R"(,"text":"x\u00e9","hash":")" + kHash +
                    R"("},)"
                    R"("b":{)" +
                    kAsset +
                    R"(,"path":"dir/f.txt"},)"
                    R"("c":{)" +
                    kAsset +
                    R"(,"uri":"https://example.com/x"},)"
                    R"("d":[1,{)" +
                    kArchive +
                    R"(,"path":"code.zip"}],)"
                    R"("e/~":{"nested":{)" +
                    kArchive +
                    R"(,"assets":{}}}},)"
                    R"("outputs":{"o":{)" +
                    kAsset + R"(,"hash":")" + kHash + R"("}}})");
  ASSERT_EQ(items.size(), 6u);
  EXPECT_EQ(items[0].pointer, "/deployment/resources/0/inputs/a");
  EXPECT_EQ(items[0].urn, "urn:pulumi:s::p::t::n");
  EXPECT_EQ(items[0].spec.kind, asset_hash::Kind::kAsset);
  EXPECT_EQ(items[0].spec.text, "x\xc3\xa9");  // decoded
  EXPECT_EQ(items[0].spec.hash, kHash);
  EXPECT_EQ(asset_hash::SourceOf(items[0].spec), asset_hash::Source::kText);
  EXPECT_EQ(items[1].spec.path, "dir/f.txt");
  EXPECT_FALSE(items[1].spec.hash.has_value());
  EXPECT_EQ(items[2].spec.uri, "https://example.com/x");
  EXPECT_EQ(items[3].pointer, "/deployment/resources/0/inputs/d/1");
  EXPECT_EQ(items[3].spec.kind, asset_hash::Kind::kArchive);
  EXPECT_EQ(items[4].pointer, "/deployment/resources/0/inputs/e~1~0/nested");
  EXPECT_TRUE(items[4].spec.has_assets);
  EXPECT_EQ(asset_hash::SourceOf(items[4].spec), asset_hash::Source::kAssets);
  EXPECT_EQ(items[5].pointer, "/deployment/resources/0/outputs/o");
  EXPECT_EQ(asset_hash::SourceOf(items[5].spec), asset_hash::Source::kNone);
  for (const FoundItem& i : items) EXPECT_TRUE(i.invalid.empty()) << i.pointer;
}

TEST_F(FinderTest, OnlyInputsAndOutputsAndNotInsideSecrets) {
  auto items =
      Find(R"({"urn":"u","propertyDependencies":{"x":{)" + kAsset +
           R"(,"text":"t"}},"inputs":{"s":{)" + kSig +
           R"(:"1b47061264138c4ac30d75fd1eb44270","ciphertext":"abc"}}})");
  EXPECT_TRUE(items.empty());
}

TEST_F(FinderTest, MembersWithTheirOwnHashAreItems) {
  auto items = Find(
      R"({"urn":"u","inputs":{"code":{)" + kArchive + R"(,"hash":")" + kHash +
      R"(","assets":{"b.txt":{)" + kAsset + R"(,"text":"b","hash":")" + kHash +
      R"("},"a.txt":{)" + kAsset + R"(,"text":"a"},"lib":{)" + kArchive +
      R"(,"assets":{"x":{)" + kAsset + R"(,"path":"x","hash":")" + kHash +
      R"("}}},"empty":{)" + kAsset + R"(,"text":"e","hash":""}}}}})");
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].pointer, "/deployment/resources/0/inputs/code");
  // The parent's spec holds every member in file order, nested ones too.
  ASSERT_EQ(items[0].spec.assets.size(), 4u);
  EXPECT_EQ(items[0].spec.assets[0].first, "b.txt");
  EXPECT_EQ(items[0].spec.assets[0].second.text, "b");
  EXPECT_EQ(items[0].spec.assets[2].first, "lib");
  ASSERT_EQ(items[0].spec.assets[2].second.assets.size(), 1u);
  EXPECT_EQ(items[0].spec.assets[2].second.assets[0].second.path, "x");
  EXPECT_EQ(items[0].first_member_item, items[1].offset);
  EXPECT_EQ(items[1].first_member_item, kNoMemberItem);
  EXPECT_EQ(items[1].pointer,
            "/deployment/resources/0/inputs/code/assets/b.txt");
  EXPECT_EQ(items[1].spec.text, "b");
  EXPECT_EQ(items[1].urn, "u");
  // Nested: a member of a member (which itself records no hash).
  EXPECT_EQ(items[2].pointer,
            "/deployment/resources/0/inputs/code/assets/lib/assets/x");
  EXPECT_EQ(items[2].spec.path, "x");
}

TEST_F(FinderTest, NotesLandOnTheNearestItem) {
  auto items =
      Find(R"({"urn":"u","inputs":{"code":{)" + kArchive +
           R"(,"hash":"ABC",)"
           R"("assets":{"a\\b":{)" +
           kAsset +
           R"(,"path":"/abs"},)"
           R"("own":{)" +
           kAsset + R"(,"path":"../up","hash":")" + kHash + R"("}}}}})");
  ASSERT_EQ(items.size(), 2u);
  ASSERT_EQ(items[0].notes.size(), 3u);
  // The object's own notes first, then its members' (document order).
  EXPECT_EQ(items[0].notes[0].note.code,
            asset_hash::kNoteBackslashPath);  // member name
  EXPECT_EQ(items[0].notes[0].pointer, "/deployment/resources/0/inputs/code");
  EXPECT_EQ(items[0].notes[1].note.code, asset_hash::kNoteHashMalformed);
  EXPECT_EQ(items[0].notes[2].note.code, asset_hash::kNoteAbsolutePath);
  EXPECT_EQ(items[0].notes[2].pointer,
            "/deployment/resources/0/inputs/code/assets/a\\b");
  ASSERT_EQ(items[1].notes.size(), 1u);
  EXPECT_EQ(items[1].notes[0].note.code, asset_hash::kNotePathEscapesRoot);
  EXPECT_EQ(items[1].notes[0].pointer,
            "/deployment/resources/0/inputs/code/assets/own");
}

TEST_F(FinderTest, MalformedObjectsAreInvalidNotDropped) {
  auto items = Find(R"({"inputs":{"a":{)" + kAsset + R"(,"path":7},"b":{)" +
                    kArchive + R"(,"assets":[]},"c":{)" + kArchive +
                    R"(,"assets":{"m":"str"}},"d":{)" + kArchive +
                    R"(,"assets":{"m":{)" + kAsset + R"(,"hash":null}}}}})");
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0].invalid, "\"path\" is number, not a string");
  EXPECT_EQ(items[0].urn, "");
  EXPECT_EQ(items[1].invalid, "\"assets\" is array, not an object");
  EXPECT_EQ(items[2].invalid, "member 'm' is not an asset or archive");
  EXPECT_EQ(items[3].invalid, "member 'm': \"hash\" is null, not a string");
}

TEST_F(FinderTest, OffsetsPointAtTheObject) {
  std::string doc = R"({"inputs":{"a":{)" + kAsset + R"(,"text":"t"}}})";
  auto items = Find(doc);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].offset, doc.find("{" + kSig));
}

TEST_F(FinderTest, PendingOperationLeaf) {
  std::string doc = R"({"resource":{"urn":"u","inputs":{"a":{)" + kAsset +
                    R"(,"text":"t"}}},"type":"creating"})";
  json::Value v;
  json::Parser parser;
  ASSERT_EQ(parser.ParseDocument(doc, 0, arena_, &v), json::ParseStatus::kOk);
  state::Leaf leaf;
  leaf.role = state::Role::kPendingOperation;
  leaf.pointer = "/deployment/pending_operations/2";
  leaf.value = v;
  std::vector<FoundItem> items;
  FindInLeaf(leaf, asset_hash::Options(),
             [&](FoundItem&& i) { items.push_back(std::move(i)); });
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].pointer,
            "/deployment/pending_operations/2/resource/inputs/a");
  EXPECT_EQ(items[0].urn, "u");

  leaf.role = state::Role::kManifest;
  items.clear();
  FindInLeaf(leaf, asset_hash::Options(),
             [&](FoundItem&& i) { items.push_back(std::move(i)); });
  EXPECT_TRUE(items.empty());
}

}  // namespace
}  // namespace pstate::assets
