// Hash() statuses and sources, Audit() notes, and the safety limits.
#include "asset_hash/hasher.h"

#include <gtest/gtest.h>

#include <filesystem>

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
using testing::TarHash;
using testing::TempDir;
using testing::TextAsset;
using testing::UriArchive;
using testing::UriAsset;
using testing::WithHash;
using testing::WriteArchive;

const std::string kHelloHash =
    "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

TEST(AssetHasher, StatusNames) {
  EXPECT_EQ(StatusName(Status::kOk), "ok");
  EXPECT_EQ(StatusName(Status::kMismatch), "mismatch");
  EXPECT_EQ(StatusName(Status::kMissing), "missing");
  EXPECT_EQ(StatusName(Status::kError), "error");
  EXPECT_EQ(StatusName(Status::kUnverifiable), "unverifiable");
  EXPECT_EQ(StatusName(Status::kNoHash), "no-hash");
}

TEST(AssetHasher, OkMismatchNoHash) {
  Outcome out = Hash(WithHash(TextAsset("hello"), kHelloHash), EngineOptions());
  EXPECT_EQ(out.status, Status::kOk);
  EXPECT_EQ(out.source, Source::kText);
  EXPECT_EQ(out.actual, kHelloHash);

  out = Hash(WithHash(TextAsset("hello!"), kHelloHash), EngineOptions());
  EXPECT_EQ(out.status, Status::kMismatch);
  EXPECT_NE(out.actual, kHelloHash);
  EXPECT_FALSE(out.message.empty());

  std::string upper = kHelloHash;
  for (char& c : upper)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  out = Hash(WithHash(TextAsset("hello"), upper), EngineOptions());
  EXPECT_EQ(out.status, Status::kMismatch);
  EXPECT_NE(out.message.find("letter case"), std::string::npos);

  out = Hash(TextAsset("hello"), EngineOptions());
  EXPECT_EQ(out.status, Status::kNoHash);
  EXPECT_EQ(out.actual, kHelloHash);
  out = Hash(WithHash(TextAsset("hello"), ""), EngineOptions());
  EXPECT_EQ(out.status, Status::kNoHash);
}

TEST(AssetHasher, TextIsHashedByteForByte) {
  const std::string text("a\0b\r\n\xc3\xa9", 7);
  EXPECT_EQ(Hash(TextAsset(text), EngineOptions()).actual, Sha256::HexOf(text));
}

TEST(AssetHasher, PlaceholdersAreUnverifiable) {
  const std::string other(64, 'a');
  Spec asset;  // only a hash: no content
  asset.hash = other;
  Outcome out = Hash(asset, EngineOptions());
  EXPECT_EQ(out.status, Status::kUnverifiable);
  EXPECT_EQ(out.source, Source::kNone);
  EXPECT_FALSE(out.message.empty());
  // ... unless the hash is the empty-content hash: an empty text asset.
  asset.hash = std::string(kEmptyAssetHash);
  out = Hash(asset, EngineOptions());
  EXPECT_EQ(out.status, Status::kOk);
  EXPECT_EQ(out.source, Source::kText);

  Spec archive;
  archive.kind = Kind::kArchive;
  archive.hash = other;
  out = Hash(archive, EngineOptions());
  EXPECT_EQ(out.status, Status::kUnverifiable);
  EXPECT_EQ(out.source, Source::kNone);
  archive.hash = std::string(kEmptyArchiveHash);
  out = Hash(archive, EngineOptions());
  EXPECT_EQ(out.status, Status::kOk);
  EXPECT_EQ(out.source, Source::kAssets);

  // A placeholder member makes the whole archive unverifiable.
  Spec member;
  member.hash = other;
  out = Hash(MapArchive({{"m", member}}), EngineOptions());
  EXPECT_EQ(out.status, Status::kUnverifiable);
}

TEST(AssetHasher, HttpIsNeverFetched) {
  Outcome out =
      Hash(UriAsset("https://example.invalid/x.txt"), EngineOptions());
  EXPECT_EQ(out.status, Status::kUnverifiable);
  EXPECT_EQ(out.source, Source::kUri);
  out = Hash(UriArchive("http://example.invalid/x.zip"), EngineOptions());
  EXPECT_EQ(out.status, Status::kUnverifiable);
  out = Hash(MapArchive({{"m", UriAsset("https://example.invalid/y")}}),
             EngineOptions());
  EXPECT_EQ(out.status, Status::kUnverifiable);
  // An http archive URI without an archive extension is an error offline too.
  out = Hash(UriArchive("https://example.invalid/dir"), EngineOptions());
  EXPECT_EQ(out.status, Status::kError);
}

TEST(AssetHasher, FieldPrecedence) {
  TempDir dir;
  dir.Write("f.txt", "hello");
  Spec spec = TextAsset("ignored");
  spec.path = "f.txt";
  spec.uri = "file:///nonexistent";
  Options options = EngineOptions();
  options.root = dir.path();
  Outcome out = Hash(spec, options);
  EXPECT_EQ(out.source, Source::kPath);
  EXPECT_EQ(out.actual, kHelloHash);
  spec.path = "";
  out = Hash(spec, options);
  EXPECT_EQ(out.source, Source::kUri);
  EXPECT_EQ(out.status, Status::kMissing);
}

TEST(AssetHasher, PathAssets) {
  TempDir dir;
  dir.Write("d/f.txt", "hello");
  fs::create_symlink(dir / "d/f.txt", dir / "link");
  Options options = EngineOptions();
  options.root = dir.path() / "d";
  EXPECT_EQ(Hash(PathAsset("f.txt"), options).actual, kHelloHash);
  EXPECT_EQ(Hash(PathAsset("../link"), options).actual,
            kHelloHash);  // symlink followed
  EXPECT_EQ(Hash(PathAsset("missing.txt"), options).status, Status::kMissing);
  Outcome out = Hash(PathAsset("."), options);
  EXPECT_EQ(out.status, Status::kError);
  EXPECT_NE(out.message.find("directory"), std::string::npos);
  fs::create_symlink("loop", dir / "d/loop");
  out = Hash(PathAsset("loop"), options);
  EXPECT_EQ(out.status, Status::kError);
  EXPECT_NE(out.message.find("symlink"), std::string::npos) << out.message;
}

TEST(AssetHasher, FileUriAssets) {
  TempDir dir;
  const auto f = dir.Write("f.txt", "hello");
  EXPECT_EQ(Hash(UriAsset("file://" + f.string()), EngineOptions()).actual,
            kHelloHash);
  EXPECT_EQ(
      Hash(UriAsset("file://localhost" + f.string()), EngineOptions()).actual,
      kHelloHash);
  for (const std::string& bad :
       {"file://host" + f.string(), "file://u@" + f.string(),
        "file://" + f.string() + "?q", "file://" + f.string() + "#x",
        std::string("ftp://h/x"), std::string("no-scheme")}) {
    Outcome out = Hash(UriAsset(bad), EngineOptions());
    EXPECT_EQ(out.status, Status::kError) << bad;
    EXPECT_FALSE(out.message.empty());
  }
  EXPECT_EQ(Hash(UriAsset("file:///nonexistent/x"), EngineOptions()).status,
            Status::kMissing);
  EXPECT_EQ(Hash(UriAsset("file:///dev/zero"), EngineOptions()).status,
            Status::kError);  // size 0, endless
}

TEST(AssetHasher, ArchivePathKinds) {
  TempDir dir;
  dir.Write("plain.txt", "x");
  dir.Write("UPPER.ZIP", "x");
  dir.Write("garbage.zip", "not a zip");
  fs::create_directories(dir / "dir.zip");
  EXPECT_EQ(
      Hash(PathArchive((dir / "plain.txt").string()), EngineOptions()).status,
      Status::kError);
  EXPECT_EQ(
      Hash(PathArchive((dir / "UPPER.ZIP").string()), EngineOptions()).status,
      Status::kError);
  EXPECT_EQ(
      Hash(PathArchive((dir / "garbage.zip").string()), EngineOptions()).actual,
      Sha256::HexOf("not a zip"));
  EXPECT_EQ(
      Hash(PathArchive((dir / "dir.zip").string()), EngineOptions()).status,
      Status::kError);
  EXPECT_EQ(Hash(PathArchive((dir / "none").string()), EngineOptions()).status,
            Status::kMissing);
  EXPECT_EQ(
      Hash(PathArchive((dir / "none.tgz").string()), EngineOptions()).status,
      Status::kMissing);
  EXPECT_EQ(
      Hash(UriArchive("file://localhost" + (dir / "garbage.zip").string()),
           EngineOptions())
          .status,
      Status::kError);
  EXPECT_EQ(Hash(UriArchive("file://" + (dir / "garbage.zip").string()),
                 EngineOptions())
                .actual,
            Sha256::HexOf("not a zip"));
}

TEST(AssetHasher, LimitExpandedBytesStopsZipBomb) {
  TempDir dir;
  ASSERT_TRUE(WriteArchive(dir / "bomb.zip", "zip",
                           {{"zeros", std::string(8 << 20, '\0')}}));
  ASSERT_LT(fs::file_size(dir / "bomb.zip"), 64u << 10);
  Options options = EngineOptions();
  options.max_expanded_bytes = 1 << 20;
  Outcome out = Hash(
      MapArchive({{"k", PathArchive((dir / "bomb.zip").string())}}), options);
  EXPECT_EQ(out.status, Status::kError);
  EXPECT_NE(out.message.find("limit"), std::string::npos) << out.message;
  options.max_expanded_bytes = 16 << 20;
  EXPECT_EQ(Hash(MapArchive({{"k", PathArchive((dir / "bomb.zip").string())}}),
                 options)
                .status,
            Status::kNoHash);
}

TEST(AssetHasher, LimitMembers) {
  TempDir dir;
  std::vector<Entry> entries;
  for (int i = 0; i < 20; ++i)
    entries.push_back({"f" + std::to_string(i), "x"});
  ASSERT_TRUE(WriteArchive(dir / "many.tar", "tar", entries));
  ASSERT_TRUE(WriteArchive(dir / "many.zip", "zip", entries));
  for (int i = 0; i < 20; ++i) dir.Write("many/f" + std::to_string(i), "x");
  Options options = EngineOptions();
  options.max_members = 10;
  for (const char* name : {"many.tar", "many.zip", "many"}) {
    Outcome out =
        Hash(MapArchive({{"k", PathArchive((dir / name).string())}}), options);
    EXPECT_EQ(out.status, Status::kError) << name;
    EXPECT_NE(out.message.find("too many"), std::string::npos)
        << name << ": " << out.message;
  }
  options.max_members = 20;
  EXPECT_EQ(Hash(MapArchive({{"k", PathArchive((dir / "many.zip").string())}}),
                 options)
                .status,
            Status::kNoHash);
}

TEST(AssetHasher, LimitNesting) {
  Spec spec = MapArchive({{"leaf", TextAsset("x")}});
  for (int i = 0; i < 3; ++i) spec = MapArchive({{"n", spec}});
  Options options = EngineOptions();
  options.max_nesting = 2;
  EXPECT_EQ(Hash(spec, options).status, Status::kError);
  options.max_nesting = 3;
  EXPECT_EQ(Hash(spec, options).actual, TarHash({{"n/n/n/leaf", "x"}}));
}

TEST(AssetHasher, LargeFileStreamsInBlocks) {
  TempDir dir;
  std::string data(3 * (1 << 20) + 123, '\0');
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<char>(i * 31 + (i >> 12));
  dir.Write("big.bin", data);
  EXPECT_EQ(Hash(PathAsset((dir / "big.bin").string()), EngineOptions()).actual,
            Sha256::HexOf(data));
  Sha256 incremental;
  incremental.Update(std::string_view(data).substr(0, 1000));
  incremental.Update(std::string_view(data).substr(1000));
  EXPECT_EQ(incremental.FinishHex(), Sha256::HexOf(data));
}

std::vector<std::string> Codes(const Spec& spec) {
  std::vector<std::string> codes;
  for (const AuditNote& note : Audit(spec, EngineOptions())) {
    EXPECT_FALSE(note.message.empty());
    codes.push_back(std::string(NoteCodeName(note.code)));
  }
  return codes;
}

TEST(AssetAudit, Codes) {
  using V = std::vector<std::string>;
  EXPECT_EQ(Codes(PathAsset("rel/ok.txt")), V{});
  EXPECT_EQ(Codes(PathAsset("/abs/x")), V{"asset-absolute-path"});
  EXPECT_EQ(Codes(PathAsset("C:\\x")),
            (V{"asset-absolute-path", "asset-backslash-path"}));
  EXPECT_EQ(Codes(UriAsset("file:///abs/x")), V{"asset-absolute-path"});
  EXPECT_EQ(Codes(UriAsset("https://h/x")), V{});
  EXPECT_EQ(Codes(PathArchive("a/../../x")), V{"asset-path-escapes-root"});
  EXPECT_EQ(Codes(PathArchive("a/../x")), V{});
  EXPECT_EQ(Codes(PathAsset("dir\\f.txt")), V{"asset-backslash-path"});
  EXPECT_EQ(Codes(MapArchive({{"a\\b", TextAsset("x")}})),
            V{"asset-backslash-path"});
  EXPECT_EQ(Codes(WithHash(TextAsset("x"), "ABC")), V{"asset-hash-malformed"});
  EXPECT_EQ(Codes(WithHash(TextAsset("x"), kHelloHash)), V{});
  EXPECT_EQ(Codes(WithHash(TextAsset("x"), std::string(64, 'A'))),
            V{"asset-hash-malformed"});
}

}  // namespace
}  // namespace pstate::asset_hash
