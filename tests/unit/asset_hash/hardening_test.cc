// Hostile states (review findings F7, F9, F16, F18, F19): what `pstate
// assets` may open, what it may print, and what one run may cost.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <string>

#include "asset_hash/hasher.h"
#include "asset_hash/member_source.h"
#include "asset_hash/run_budget.h"
#include "asset_hash/uri.h"
#include "base/sha256.h"
#include "test_util.h"

namespace pstate::asset_hash {
namespace {

using testing::Entry;
using testing::MapArchive;
using testing::PathArchive;
using testing::PathAsset;
using testing::TempDir;
using testing::TextAsset;
using testing::UriArchive;
using testing::UriAsset;
using testing::WithHash;
using testing::WriteArchive;

std::string Sha(std::string_view text) {
  Sha256 sha;
  sha.Update(text);
  return sha.FinishHex();
}

/// A root directory with a file inside, and a "secret" file beside it.
class OutsideRootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.Write("root/inside.txt", "inside");
    secret_ = dir_.Write("pin", "482913").string();
    options_.root = dir_ / "root";
  }
  TempDir dir_;
  std::string secret_;
  Options options_;  // the default: OutsideRoot::kRefuse
};

TEST_F(OutsideRootTest, FilesInsideTheRootAreHashed) {
  Outcome o = Hash(WithHash(PathAsset("inside.txt"), Sha("inside")), options_);
  EXPECT_EQ(o.status, Status::kOk) << o.message;
  EXPECT_EQ(o.actual, Sha("inside"));
}

TEST_F(OutsideRootTest, FilesOutsideAreNotReadByDefault) {
  ASSERT_EQ(::symlink(secret_.c_str(), (dir_ / "root/link").c_str()), 0);
  for (const Spec& spec :
       {PathAsset(secret_), PathAsset("../pin"), PathAsset("link"),
        UriAsset("file://" + secret_), PathAsset("../no-such-file"),
        PathArchive("../"), UriArchive("file://" + secret_ + ".zip")}) {
    Outcome o = Hash(WithHash(spec, std::string(64, '0')), options_);
    EXPECT_EQ(o.status, Status::kUnverifiable) << o.message;
    EXPECT_FALSE(o.actual.has_value());
    EXPECT_NE(o.message.find("outside --root"), std::string::npos) << o.message;
    EXPECT_EQ(o.message.find(Sha("482913")), std::string::npos);
  }
}

TEST_F(OutsideRootTest, ADirectoryArchiveLinkingOutIsNotRead) {
  dir_.Write("root/app/main.txt", "x");
  ASSERT_EQ(::symlink(secret_.c_str(), (dir_ / "root/app/pin").c_str()), 0);
  Outcome o = Hash(PathArchive("app"), options_);
  EXPECT_EQ(o.status, Status::kUnverifiable) << o.message;
  EXPECT_FALSE(o.actual.has_value());
}

TEST_F(OutsideRootTest, AllowedOutsideFilesAreComparedButTheirHashNeverShown) {
  options_.outside_root = OutsideRoot::kReadHashHidden;
  Outcome same = Hash(WithHash(PathAsset(secret_), Sha("482913")), options_);
  EXPECT_EQ(same.status, Status::kOk) << same.message;
  EXPECT_FALSE(same.actual.has_value());
  Outcome other =
      Hash(WithHash(PathAsset("../pin"), std::string(64, '0')), options_);
  EXPECT_EQ(other.status, Status::kMismatch);
  EXPECT_FALSE(other.actual.has_value());
  EXPECT_EQ(other.message.find(Sha("482913")), std::string::npos)
      << other.message;
  Outcome none = Hash(PathAsset(secret_), options_);
  EXPECT_EQ(none.status, Status::kNoHash);
  EXPECT_FALSE(none.actual.has_value());
  EXPECT_EQ(none.message.find(Sha("482913")), std::string::npos)
      << none.message;
  // Inside the root nothing changes.
  Outcome inside = Hash(PathAsset("inside.txt"), options_);
  EXPECT_EQ(inside.actual, Sha("inside"));
}

TEST(AssetDevicesTest, OnlyRegularFilesAreOpened) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  ASSERT_EQ(::symlink("/dev/null", (dir / "null").c_str()), 0);
  Options options = testing::EngineOptions();
  options.root = dir.path();
  for (const std::string path : {"/dev/zero", "/dev/null", "fifo", "null"}) {
    Result<Blob> blob = OpenFileBlob(
        path.starts_with('/') ? path : (dir / path).string(), &options);
    ASSERT_FALSE(blob.ok()) << path;
    EXPECT_NE(blob.status().message().find("not a regular file"),
              std::string::npos)
        << blob.status().message();
    Outcome o = Hash(PathAsset(path), options);
    EXPECT_EQ(o.status, Status::kError) << path << ": " << o.message;
  }
}

TEST(AssetUriCredentialsTest, UserinfoIsNeverEchoed) {
  EXPECT_EQ(RedactUserinfo("https://admin:S3cret@example.com/app.zip"),
            "https://***@example.com/app.zip");
  EXPECT_EQ(RedactUserinfo("https://a@b@example.com"),
            "https://***@example.com");
  EXPECT_EQ(RedactUserinfo("https://example.com/x@y"),
            "https://example.com/x@y");
  EXPECT_EQ(RedactUserinfo("file:///tmp/a@b"), "file:///tmp/a@b");
  for (const Spec& spec :
       {UriAsset("https://admin:S3cret@example.com/app.txt"),
        UriArchive("https://admin:S3cret@example.com/app.zip"),
        UriArchive("https://admin:S3cret@example.com/app.exe"),
        UriAsset("file://admin:S3cret@/etc/passwd"),
        UriArchive("file://admin:S3cret@host/a.zip")}) {
    Outcome o = Hash(spec, Options());
    EXPECT_EQ(o.message.find("S3cret"), std::string::npos) << o.message;
    for (const AuditNote& note : Audit(spec, Options())) {
      EXPECT_EQ(note.message.find("S3cret"), std::string::npos) << note.message;
    }
  }
}

TEST(AssetRunBudgetTest, BytesAreLimitedPerRunAndEachFileIsHashedOnce) {
  TempDir dir;
  dir.Write("a", std::string(80, 'a'));
  dir.Write("b", std::string(80, 'b'));
  Options options;
  options.root = dir.path();
  options.max_total_bytes = 100;
  options.run = std::make_shared<RunBudget>(options);
  // The same file named many times is read once.
  for (int i = 0; i < 5; ++i) {
    Outcome o = Hash(PathAsset("a"), options);
    EXPECT_EQ(o.actual, Sha(std::string(80, 'a'))) << o.message;
  }
  Outcome second = Hash(PathAsset("b"), options);
  EXPECT_EQ(second.status, Status::kError);
  EXPECT_NE(second.message.find("limit of 100"), std::string::npos)
      << second.message;
}

TEST(AssetRunBudgetTest, MembersAreLimitedPerRun) {
  Options options;
  options.max_total_members = 3;
  options.run = std::make_shared<RunBudget>(options);
  Spec two = MapArchive({{"a", TextAsset("1")}, {"b", TextAsset("2")}});
  EXPECT_TRUE(Hash(two, options).actual.has_value());
  Outcome o = Hash(two, options);
  EXPECT_EQ(o.status, Status::kError);
  EXPECT_NE(o.message.find("archive members"), std::string::npos) << o.message;
}

TEST(AssetRunBudgetTest, ExpandedBytesAreLimitedPerRun) {
  TempDir dir;
  for (const char* name : {"one.zip", "two.zip"}) {
    ASSERT_TRUE(
        WriteArchive(dir / name, "zip", {Entry{"big", std::string(100, 'z')}}));
  }
  Options options;
  options.root = dir.path();
  options.max_total_expanded_bytes = 150;
  options.run = std::make_shared<RunBudget>(options);
  Spec first = MapArchive({{"x", PathArchive("one.zip")}});
  Spec second = MapArchive({{"x", PathArchive("two.zip")}});
  EXPECT_TRUE(Hash(first, options).actual.has_value());
  Outcome o = Hash(second, options);
  EXPECT_EQ(o.status, Status::kError);
  EXPECT_NE(o.message.find("tar, tgz and zip"), std::string::npos) << o.message;
}

// F16: the count in the end-of-central-directory record is what the zip
// claims; the limit applies to the headers really there.
TEST(AssetZipTest, MemberCountIsWhatTheCentralDirectoryHolds) {
  TempDir dir;
  std::vector<Entry> entries;
  for (int i = 0; i < 10; ++i)
    entries.push_back(Entry{"f" + std::to_string(i), "x"});
  const auto zip = dir / "liar.zip";
  ASSERT_TRUE(WriteArchive(zip, "zip", entries));
  // Make the record claim 2 entries (both count fields).
  std::fstream f(zip, std::ios::in | std::ios::out | std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), {});
  const std::size_t eocd = bytes.rfind(std::string("PK\5\6", 4));
  ASSERT_NE(eocd, std::string::npos);
  f.seekp(static_cast<std::streamoff>(eocd + 8));
  const char two[4] = {2, 0, 2, 0};
  f.write(two, 4);
  f.close();
  Options options;
  options.root = dir.path();
  options.max_members = 5;
  Outcome o = Hash(MapArchive({{"x", PathArchive("liar.zip")}}), options);
  EXPECT_EQ(o.status, Status::kError);
  EXPECT_NE(o.message.find("zip '"), std::string::npos) << o.message;
  EXPECT_NE(o.message.find("too many members"), std::string::npos) << o.message;
  // Under the limit the same file hashes.
  options.max_members = 10;
  EXPECT_NE(Hash(MapArchive({{"x", PathArchive("liar.zip")}}), options).status,
            Status::kError);
}

// A damaged zip whose local and central headers disagree streams another
// number of bytes than the size it announces (found by fuzz_archive): it is
// refused as corrupt, never hashed with a size its content does not have.
TEST(AssetZipTest, MemberDataMustMatchItsAnnouncedSize) {
  TempDir dir;
  std::filesystem::copy_file(
      std::filesystem::path(PSTATE_FIXTURES_DIR) /
          "../tests/fuzz/corpus/archive/zip-member-size-disagrees.zip",
      dir / "bad.zip");
  Options options;
  options.root = dir.path();
  Outcome o = Hash(MapArchive({{"x", PathArchive("bad.zip")}}), options);
  EXPECT_EQ(o.status, Status::kError);
  EXPECT_NE(o.message.find("than its header says"), std::string::npos)
      << o.message;
}

}  // namespace
}  // namespace pstate::asset_hash
