// Every hash Pulumi's own tests assert (reference section 5), on the same
// inputs (copied to fixtures/assets/pulumi with their exact bytes).
#include <gtest/gtest.h>

#include "asset_hash/hasher.h"
#include "base/sha256.h"
#include "test_util.h"

namespace pstate::asset_hash {
namespace {

using testing::EngineOptions;
using testing::MapArchive;
using testing::PathArchive;
using testing::PathAsset;
using testing::PulumiFixture;
using testing::TempDir;
using testing::TextAsset;
using testing::UriArchive;
using testing::UriAsset;
using testing::WithHash;

std::string Actual(const Spec& spec, const Options& options = EngineOptions()) {
  Outcome out = Hash(spec, options);
  EXPECT_TRUE(out.actual.has_value())
      << StatusName(out.status) << ": " << out.message;
  return out.actual.value_or("");
}

TEST(AssetKnownHashes, TextAssets) {
  EXPECT_EQ(Actual(TextAsset("a test asset")),
            "e34c74529110661faae4e121e57165ff4cb4dbdde1ef9770098aa3695e6b6704");
  EXPECT_EQ(Actual(TextAsset("a very different and special test asset")),
            "9a6ed070e1ff834427105844ffd8a399a634753ce7a60ec5aae541524bbe7036");
  EXPECT_EQ(Actual(TextAsset("alpha beta gamma")),
            "64989ccbf3efa9c84e2afe7cee9bc5828bf0fcb91e44f8c1e591638a2c2e90e3");
  EXPECT_EQ(Actual(TextAsset("")), kEmptyAssetHash);
}

// Pulumi's own tests hash /dev/null as the empty asset; pstate never opens
// a device (review finding F18), so an empty file stands in for it.
TEST(AssetKnownHashes, EmptyFileByPathAndUri) {
  TempDir dir;
  const auto empty = dir.Write("empty", "");
  EXPECT_EQ(Actual(PathAsset(empty.string())), kEmptyAssetHash);
  EXPECT_EQ(Actual(UriAsset("file://" + empty.string())), kEmptyAssetHash);
}

TEST(AssetKnownHashes, MapWithOneTextAsset) {
  EXPECT_EQ(Actual(MapArchive({{"foo", TextAsset("a test asset")}})),
            "27ab4a14a617df10cff3e1cf4e30cf510302afe56bf4cc91f84041c9f7b62fd8");
}

TEST(AssetKnownHashes, MapWithEmptyFileByPathOrUri) {
  TempDir dir;
  const auto empty = dir.Write("empty", "");
  const std::string expected =
      "d2587a875f82cdf3d3e6cfe9f8c6e6032be5dde8c344466e664e628da15757b0";
  EXPECT_EQ(Actual(MapArchive({{"foo", PathAsset(empty.string())}})), expected);
  EXPECT_EQ(Actual(MapArchive({{"foo", UriAsset("file://" + empty.string())}})),
            expected);
}

TEST(AssetKnownHashes, EmptyTarFileByPathAndUri) {
  TempDir dir;
  const auto tar = dir.Write("empty.tar", "");
  EXPECT_EQ(Actual(PathArchive(tar.string())), kEmptyAssetHash);
  EXPECT_EQ(Actual(UriArchive("file:////" + tar.string())), kEmptyAssetHash);
}

TEST(AssetKnownHashes, EmptyAssetMap) {
  EXPECT_EQ(Actual(MapArchive({})), kEmptyArchiveHash);
  EXPECT_EQ(Sha256::HexOf(std::string(1024, '\0')), kEmptyArchiveHash);
}

TEST(AssetKnownHashes, FoxTxt) {
  EXPECT_EQ(Actual(PathAsset(PulumiFixture("Fox.txt").string())),
            "85e5f2698ac92d10d50e2f2802ed0d51a13e7c81d0d0a5998a75349469e774c5");
}

TEST(AssetKnownHashes, TestDirDirectory) {
  EXPECT_EQ(Actual(PathArchive(PulumiFixture("test_dir").string())),
            "489e9a9dad271922ecfbda590efc40e48788286a06bd406a357ab8d13f0b6abf");
}

TEST(AssetKnownHashes, TestDirArchivesHashedRaw) {
  EXPECT_EQ(Actual(PathArchive(PulumiFixture("test_dir.tar").string())),
            "c618d74a40f87de3092ca6a6c4cca834aa5c6a3956c6ceb2054b40d04bb4cd76");
  EXPECT_EQ(Actual(PathArchive(PulumiFixture("test_dir.tgz").string())),
            "f9b33523b6a3538138aff0769ff9e7d522038e33c5cfe28b258332b3f15790c8");
  EXPECT_EQ(Actual(PathArchive(PulumiFixture("test_dir.zip").string())),
            "343da72cec1302441efd4a490d66f861d393fb270afb3ced27f92a0d96abc068");
  EXPECT_EQ(Actual(PathArchive(PulumiFixture("test_dir.jar").string())),
            "dfb9eb69f433564b07df524068621c5ac65c08868e6094b8fa4ee388a5ee66e7");
}

TEST(AssetKnownHashes, RelativePathsResolveAgainstRoot) {
  Options options = EngineOptions();
  options.root = PulumiFixture("");
  Outcome out = Hash(
      WithHash(
          PathArchive("./sub/../test_dir/"),
          "489e9a9dad271922ecfbda590efc40e48788286a06bd406a357ab8d13f0b6abf"),
      options);
  EXPECT_EQ(out.status, Status::kOk) << out.message;
  EXPECT_EQ(out.source, Source::kPath);
}

}  // namespace
}  // namespace pstate::asset_hash
