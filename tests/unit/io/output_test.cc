#include "pstate/io/output.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "unit/testing/temp_dir.h"

namespace pstate::io {
namespace {

using pstate::testing::ReadFile;
using pstate::testing::TempDir;

std::vector<std::string> Entries(const TempDir& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(OpenOutputTest, WritesThroughATempFileRenamedOnCommit) {
  TempDir dir;
  std::string path = dir.File("out.json");
  auto out = OpenOutput(path);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)->name(), path);
  (*out)->Write("{\"a\":");
  (*out)->Put('1');
  (*out)->Write("}\n");
  // Before Commit the target does not exist; a temporary file sits beside it.
  EXPECT_FALSE(std::filesystem::exists(path));
  auto before = Entries(dir);
  ASSERT_EQ(before.size(), 1u);
  EXPECT_NE(before[0].find("out.json"), std::string::npos);
  EXPECT_NE(before[0], "out.json");
  ASSERT_TRUE((*out)->Commit().ok());
  EXPECT_EQ(ReadFile(path), "{\"a\":1}\n");
  EXPECT_EQ(Entries(dir), std::vector<std::string>{"out.json"});
  out->reset();  // destruction after Commit keeps the file
  EXPECT_EQ(ReadFile(path), "{\"a\":1}\n");
}

TEST(OpenOutputTest, LargeWritesKeepOrder) {
  TempDir dir;
  std::string path = dir.File("big.json");
  std::string expected;
  {
    auto out = OpenOutput(path);
    ASSERT_TRUE(out.ok());
    for (int i = 0; i < 3; ++i) {
      std::string piece(static_cast<std::size_t>(500000 + i * 600000),
                        static_cast<char>('a' + i));
      (*out)->Write(piece);
      (*out)->Put('\n');
      expected += piece;
      expected += '\n';
    }
    ASSERT_TRUE((*out)->Commit().ok());
  }
  EXPECT_EQ(ReadFile(path), expected);
}

TEST(OpenOutputTest, NewFileGetsOrdinaryPermissions) {
  TempDir dir;
  std::string path = dir.File("perm.json");
  auto out = OpenOutput(path);
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE((*out)->Commit().ok());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
}

TEST(OpenOutputTest, AbandonLeavesNothing) {
  TempDir dir;
  std::string path = dir.File("out.json");
  auto out = OpenOutput(path);
  ASSERT_TRUE(out.ok());
  (*out)->Write("partial");
  (*out)->Abandon();
  EXPECT_TRUE(Entries(dir).empty());
  out->reset();
  EXPECT_TRUE(Entries(dir).empty());
}

TEST(OpenOutputTest, DestructionWithoutCommitLeavesNothing) {
  TempDir dir;
  std::string path = dir.File("out.json");
  {
    auto out = OpenOutput(path);
    ASSERT_TRUE(out.ok());
    (*out)->Write(std::string(3 << 20, 'x'));  // some of it already flushed
  }
  EXPECT_TRUE(Entries(dir).empty());
}

TEST(OpenOutputTest, ExistingFileUntouchedWhenAbandoned) {
  TempDir dir;
  std::string path = dir.Write("state.json", "original");
  {
    auto out = OpenOutput(path);
    ASSERT_TRUE(out.ok());
    (*out)->Write("replacement");
    (*out)->Abandon();
  }
  EXPECT_EQ(ReadFile(path), "original");
  {
    auto out = OpenOutput(path);
    ASSERT_TRUE(out.ok());
    (*out)->Write("replacement");
  }
  EXPECT_EQ(ReadFile(path), "original");
  EXPECT_EQ(Entries(dir), std::vector<std::string>{"state.json"});
  {
    auto out = OpenOutput(path);
    ASSERT_TRUE(out.ok());
    (*out)->Write("replacement");
    ASSERT_TRUE((*out)->Commit().ok());
  }
  EXPECT_EQ(ReadFile(path), "replacement");
  EXPECT_EQ(Entries(dir), std::vector<std::string>{"state.json"});
}

TEST(OpenOutputTest, MissingDirectoryFails) {
  TempDir dir;
  auto out = OpenOutput(dir.File("no/such/dir/out.json"));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), Errc::kNotFound);
  EXPECT_NE(out.status().message().find("out.json"), std::string::npos);
}

TEST(OpenOutputTest, DashIsStandardOutput) {
  auto out = OpenOutput("-");
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)->name(), "<stdout>");
  EXPECT_TRUE((*out)->Commit().ok());
}

TEST(StringOutputTest, CollectsBytes) {
  StringOutput out;
  out.Write("ab");
  out.Put('c');
  out.Write(std::string(2 << 20, 'd'));
  EXPECT_EQ(out.str().size(), 3u + (2u << 20));
  EXPECT_EQ(out.str().substr(0, 4), "abcd");
  EXPECT_TRUE(out.Commit().ok());
  EXPECT_EQ(out.name(), "<memory>");
}

}  // namespace
}  // namespace pstate::io
