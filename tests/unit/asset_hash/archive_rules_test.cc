// Member enumeration rules: directory walk order, .pulumi, symlinks, asset
// maps (sorting, verbatim keys, nested archives), duplicates, names.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "asset_hash/hasher.h"
#include "asset_hash/member_source.h"
#include "base/sha256.h"
#include "test_util.h"

namespace pstate::asset_hash {
namespace {

namespace fs = std::filesystem;
using testing::EngineOptions;
using testing::Entry;
using testing::MapArchive;
using testing::PathArchive;
using testing::PathAsset;
using testing::PulumiFixture;
using testing::TarHash;
using testing::TempDir;
using testing::TextAsset;
using testing::UriArchive;
using testing::WriteArchive;

constexpr std::string_view kTestDirHash =
    "489e9a9dad271922ecfbda590efc40e48788286a06bd406a357ab8d13f0b6abf";

Outcome HashOf(const Spec& spec, const Options& options = EngineOptions()) {
  return Hash(spec, options);
}

std::string ActualOf(const Spec& spec,
                     const Options& options = EngineOptions()) {
  Outcome out = Hash(spec, options);
  EXPECT_TRUE(out.actual.has_value())
      << StatusName(out.status) << ": " << out.message;
  return out.actual.value_or("");
}

TEST(AssetArchiveRules, DirectoryWalkIsPerLevelNotFullPathSorted) {
  TempDir dir;
  dir.Write("root/a.txt", "A");
  dir.Write("root/a-b.txt", "AB");
  dir.Write("root/a/inner.txt", "I");
  fs::create_directories(dir / "root/empty/deeper");
  const std::string walk =
      TarHash({{"a/inner.txt", "I"}, {"a-b.txt", "AB"}, {"a.txt", "A"}});
  EXPECT_EQ(ActualOf(PathArchive((dir / "root").string())), walk);
  // The same members as an asset map sort bytewise by key instead.
  const Spec map = MapArchive({{"a/inner.txt", TextAsset("I")},
                               {"a.txt", TextAsset("A")},
                               {"a-b.txt", TextAsset("AB")}});
  const std::string sorted =
      TarHash({{"a-b.txt", "AB"}, {"a.txt", "A"}, {"a/inner.txt", "I"}});
  EXPECT_EQ(ActualOf(map), sorted);
  EXPECT_NE(walk, sorted);
}

TEST(AssetArchiveRules, DirectoryNamesSortBytewise) {
  TempDir dir;
  dir.Write("r/_", "1");
  dir.Write("r/B", "2");
  dir.Write("r/\xc3\xa9", "3");
  dir.Write("r/a", "4");
  dir.Write("r/10", "5");
  dir.Write("r/9", "6");
  EXPECT_EQ(ActualOf(PathArchive((dir / "r").string())),
            TarHash({{"10", "5"},
                     {"9", "6"},
                     {"B", "2"},
                     {"_", "1"},
                     {"a", "4"},
                     {"\xc3\xa9", "3"}}));
}

TEST(AssetArchiveRules, PulumiDirectorySkippedAtEveryDepthIncludingRoot) {
  TempDir dir;
  dir.Write("r/.pulumi/state.json", "x");
  dir.Write("r/sub/.pulumi", "file named .pulumi");
  dir.Write("r/sub/keep", "k");
  dir.Write("r/.hidden", "h");
  dir.Write("r/.pulumi-not", "n");
  EXPECT_EQ(
      ActualOf(PathArchive((dir / "r").string())),
      TarHash({{".hidden", "h"}, {".pulumi-not", "n"}, {"sub/keep", "k"}}));
  dir.Write("p/.pulumi/file", "x");
  EXPECT_EQ(ActualOf(PathArchive((dir / "p/.pulumi").string())),
            kEmptyArchiveHash);
}

TEST(AssetArchiveRules, EmptyDirectoryIsEmptyArchive) {
  TempDir dir;
  fs::create_directories(dir / "e/x/y");
  Outcome out = HashOf(testing::WithHash(PathArchive((dir / "e").string()),
                                         std::string(kEmptyArchiveHash)));
  EXPECT_EQ(out.status, Status::kOk) << out.message;
}

TEST(AssetArchiveRules, SymlinksInDirectories) {
  TempDir dir;
  dir.Write("target.txt", "target bytes");
  fs::create_directories(dir / "r/realdir");
  dir.Write("r/realdir/f", "f");
  fs::create_symlink(dir / "target.txt", dir / "r/link.txt");
  fs::create_directory_symlink(dir / "r/realdir", dir / "r/linkdir");
  EXPECT_EQ(ActualOf(PathArchive((dir / "r").string())),
            TarHash({{"link.txt", "target bytes"}, {"realdir/f", "f"}}));

  fs::create_symlink(dir / "nowhere", dir / "r/dangling");
  Outcome out = HashOf(PathArchive((dir / "r").string()));
  EXPECT_EQ(out.status, Status::kMissing) << out.message;
  EXPECT_FALSE(out.actual.has_value());
  fs::remove(dir / "r/dangling");

  fs::create_symlink("loop", dir / "r/loop");  // points at itself: ELOOP
  out = HashOf(PathArchive((dir / "r").string()));
  EXPECT_EQ(out.status, Status::kError) << out.message;
  EXPECT_NE(out.message.find("symlink"), std::string::npos) << out.message;
}

TEST(AssetArchiveRules, SymlinkedRootDirectoryIsEmpty) {
  TempDir dir;
  dir.Write("real/f", "f");
  fs::create_directory_symlink(dir / "real", dir / "alias");
  EXPECT_EQ(ActualOf(PathArchive((dir / "alias").string())), kEmptyArchiveHash);
}

TEST(AssetArchiveRules, FifoIsAnErrorNotAHang) {
  TempDir dir;
  fs::create_directories(dir / "r");
  ASSERT_EQ(::mkfifo((dir / "r/fifo").c_str(), 0600), 0);
  Outcome out = HashOf(PathArchive((dir / "r").string()));
  EXPECT_EQ(out.status, Status::kError);
}

TEST(AssetArchiveRules, LongAndNonAsciiNamesInDirectories) {
  TempDir dir;
  const std::string long_name(120, 'L');
  dir.Write("r/" + long_name, "long");
  dir.Write(
      "r/donn\xc3\xa9"
      "es/\xc3\xa9t\xc3\xa9.txt",
      "utf8");
  const std::string split = std::string(60, 'd') + "/" + std::string(80, 'f');
  dir.Write("r/" + split, "split");
  EXPECT_EQ(ActualOf(PathArchive((dir / "r").string())),
            TarHash({{long_name, "long"},
                     {split, "split"},
                     {"donn\xc3\xa9"
                      "es/\xc3\xa9t\xc3\xa9.txt",
                      "utf8"}}));
}

TEST(AssetArchiveRules, MapKeysAreVerbatimNestedNamesAreJoined) {
  const Spec map = MapArchive({
      {"./foo.txt", TextAsset("f")},
      {"dir//x", TextAsset("x")},
      {"outer",
       MapArchive({{"./in//y", TextAsset("y")}, {"../up", TextAsset("u")}})},
  });
  EXPECT_EQ(ActualOf(map), TarHash({{"./foo.txt", "f"},
                                    {"dir//x", "x"},
                                    {"up", "u"},
                                    {"outer/in/y", "y"}}));
}

TEST(AssetArchiveRules, NestedArchiveFilesAreExpanded) {
  const std::string dir = PulumiFixture("test_dir").string();
  for (const char* name : {"test_dir.tar", "test_dir.tgz", "test_dir.zip"}) {
    // Under key "." the nested members keep their own (cleaned) names, so
    // the stream equals the directory's.
    EXPECT_EQ(ActualOf(MapArchive(
                  {{".", PathArchive(PulumiFixture(name).string())}})),
              kTestDirHash)
        << name;
    EXPECT_EQ(ActualOf(MapArchive(
                  {{"k", PathArchive(PulumiFixture(name).string())}})),
              ActualOf(MapArchive({{"k", PathArchive(dir)}})))
        << name;
  }
  EXPECT_EQ(ActualOf(MapArchive(
                {{".", UriArchive("file://" +
                                  PulumiFixture("test_dir.tgz").string())}})),
            kTestDirHash);
}

TEST(AssetArchiveRules, JarMembersInCentralDirectoryOrder) {
  Options options = EngineOptions();
  Result<std::unique_ptr<MemberSource>> source = OpenArchiveFileMembers(
      PulumiFixture("test_dir.jar").string(), ArchiveFormat::kZip, options);
  ASSERT_TRUE(source.ok()) << source.status().message();
  std::vector<std::string> names;
  while (true) {
    Result<std::optional<Member>> m = (*source)->Next();
    ASSERT_TRUE(m.ok()) << m.status().message();
    if (!m->has_value()) break;
    names.push_back((*m)->name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{
                       "META-INF/MANIFEST.MF", "sub_dir/On_the_other_hand.md",
                       "sub_dir/But_I_must", "Lorem_ipsum.txt"}));
}

TEST(AssetArchiveRules, DuplicateNamesFirstWins) {
  const Spec map = MapArchive({{"a", MapArchive({{"x", TextAsset("first")}})},
                               {"a/x", TextAsset("second")}});
  EXPECT_EQ(ActualOf(map), TarHash({{"a/x", "first"}}));
  // The dropped duplicate is still opened: a missing file fails the hash.
  const Spec missing =
      MapArchive({{"a", MapArchive({{"x", TextAsset("first")}})},
                  {"a/x", PathAsset("/nonexistent/pstate/file")}});
  EXPECT_EQ(HashOf(missing).status, Status::kMissing);
}

TEST(AssetArchiveRules, RepeatedSpecKeyLastOccurrenceWins) {
  const Spec map =
      MapArchive({{"k", TextAsset("old")}, {"k", TextAsset("new")}});
  EXPECT_EQ(ActualOf(map), TarHash({{"k", "new"}}));
}

TEST(AssetArchiveRules, KeyEndingInSlashIsDirectoryEntry) {
  EXPECT_EQ(ActualOf(MapArchive({{"dir/", TextAsset("")}})),
            TarHash({{"dir/", ""}}));
  Outcome out = HashOf(MapArchive({{"dir/", TextAsset("content")}}));
  EXPECT_EQ(out.status, Status::kError);
  out = HashOf(MapArchive({{std::string("a\0b", 3), TextAsset("x")}}));
  EXPECT_EQ(out.status, Status::kError);
}

TEST(AssetArchiveRules, TarNamesCleanedDotDotAccepted) {
  TempDir dir;
  ASSERT_TRUE(WriteArchive(dir / "t.tar", "tar",
                           {{"./a//b", "ab"},
                            {"../evil", "e"},
                            {"d/", "", AE_IFDIR},
                            {"/abs", "z"}}));
  EXPECT_EQ(
      ActualOf(MapArchive({{"k", PathArchive((dir / "t.tar").string())}})),
      TarHash({{"k/a/b", "ab"}, {"evil", "e"}, {"k/abs", "z"}}));
}

TEST(AssetArchiveRules, TarSymlinkEntryIsAnError) {
  TempDir dir;
  ASSERT_TRUE(
      WriteArchive(dir / "t.tar", "tar", {{"f", "x"}, {"l", "f", AE_IFLNK}}));
  Outcome out =
      HashOf(MapArchive({{"k", PathArchive((dir / "t.tar").string())}}));
  EXPECT_EQ(out.status, Status::kError);
  EXPECT_NE(out.message.find("not a regular file"), std::string::npos)
      << out.message;
  // At top level the same file is hashed raw and never opened.
  EXPECT_EQ(HashOf(PathArchive((dir / "t.tar").string())).status,
            Status::kNoHash);
}

TEST(AssetArchiveRules, ZipSymlinkEntryIsItsTargetText) {
  TempDir dir;
  ASSERT_TRUE(
      WriteArchive(dir / "z.zip", "zip",
                   {{"f", "x"}, {"l", "f", AE_IFLNK}, {"d/", "", AE_IFDIR}}));
  EXPECT_EQ(
      ActualOf(MapArchive({{"k", PathArchive((dir / "z.zip").string())}})),
      TarHash({{"k/f", "x"}, {"k/l", "f"}}));
}

TEST(AssetArchiveRules, NonAsciiNamesInsideArchivesKeepTheirBytes) {
  TempDir dir;
  const std::string name =
      "donn\xc3\xa9"
      "es/\xc3\xa9t\xc3\xa9.txt";
  for (const char* format : {"tar", "zip"}) {
    const fs::path file = dir / (std::string("n.") + format);
    ASSERT_TRUE(WriteArchive(file, format, {{name, "u"}}));
    EXPECT_EQ(ActualOf(MapArchive({{".", PathArchive(file.string())}})),
              TarHash({{name, "u"}}))
        << format;
  }
}

TEST(AssetArchiveRules, CorruptNestedArchivesAreErrors) {
  TempDir dir;
  dir.Write("garbage.zip", "this is not a zip");
  dir.Write("garbage.tgz", "not gzip either");
  ASSERT_TRUE(
      WriteArchive(dir / "plain.tar", "tar", {{"f", std::string(2000, 'x')}}));
  fs::copy_file(dir / "plain.tar", dir / "plain.tgz");
  // Truncated: cut inside the member's content.
  fs::copy_file(dir / "plain.tar", dir / "cut.tar");
  fs::resize_file(dir / "cut.tar", 1024 + 700);
  for (const char* name :
       {"garbage.zip", "garbage.tgz", "plain.tgz", "cut.tar"}) {
    Outcome out =
        HashOf(MapArchive({{"k", PathArchive((dir / name).string())}}));
    EXPECT_EQ(out.status, Status::kError) << name << ": " << out.message;
    EXPECT_FALSE(out.message.empty());
    // Top level: raw bytes, never opened.
    EXPECT_EQ(HashOf(PathArchive((dir / name).string())).status,
              Status::kNoHash)
        << name;
  }
}

}  // namespace
}  // namespace pstate::asset_hash
