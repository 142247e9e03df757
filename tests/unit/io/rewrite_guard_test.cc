#include "io/rewrite_guard.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>

#include "io/output.h"
#include "unit/testing/temp_dir.h"

namespace pstate::io {
namespace {

using pstate::testing::ReadFile;
using pstate::testing::TempDir;

/// Rewrites `path` in place through a guarded output, as `--in-place` does.
Status Rewrite(const RewriteGuard& guard, const std::string& path,
               const std::string& bytes) {
  OutputOptions options;
  options.keep_backup = true;
  options.guard = &guard;
  auto out = OpenOutput(path, options);
  if (!out.ok()) return out.status();
  (*out)->Write(bytes);
  return (*out)->Commit();
}

TEST(RewriteGuardTest, UnchangedFileIsRewrittenWithABackup) {
  TempDir dir;
  std::string path = dir.Write("s.json", "old\n");
  auto guard = RewriteGuard::Acquire({path});
  ASSERT_TRUE(guard.ok()) << guard.status().message();
  EXPECT_TRUE(guard->Check().ok());
  ASSERT_TRUE(Rewrite(*guard, path, "new\n").ok());
  EXPECT_EQ(ReadFile(path), "new\n");
  EXPECT_EQ(ReadFile(path + ".bak"), "old\n");
}

TEST(RewriteGuardTest, AWriterThatTakesNoLockIsNoticedAndKept) {
  TempDir dir;
  std::string path = dir.Write("s.json", "old\n");
  auto guard = RewriteGuard::Acquire({path});
  ASSERT_TRUE(guard.ok());
  // Another program writes the file in place (same inode, new size).
  dir.Write("s.json", "theirs, longer\n");
  EXPECT_EQ(guard->Check().code(), Errc::kRefused);
  Status st = Rewrite(*guard, path, "mine\n");
  EXPECT_EQ(st.code(), Errc::kRefused);
  EXPECT_NE(st.message().find("nothing was written"), std::string::npos);
  EXPECT_EQ(ReadFile(path), "theirs, longer\n");
  EXPECT_FALSE(std::filesystem::exists(path + ".bak"));
  // No temporary file is left behind.
  std::size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1u);
}

TEST(RewriteGuardTest, AFileRenamedOverTheInputIsNoticedAndKept) {
  TempDir dir;
  std::string path = dir.Write("s.json", "old\n");
  auto guard = RewriteGuard::Acquire({path});
  ASSERT_TRUE(guard.ok());
  std::string other = dir.Write("other.json", "old\n");
  ASSERT_EQ(std::rename(other.c_str(), path.c_str()), 0);
  Status st = Rewrite(*guard, path, "mine\n");
  EXPECT_EQ(st.code(), Errc::kRefused);
  EXPECT_NE(st.message().find("was replaced"), std::string::npos);
  EXPECT_EQ(ReadFile(path), "old\n");
}

TEST(RewriteGuardTest, ASecondRewriterWaitsThenLocksTheNewFile) {
  TempDir dir;
  std::string path = dir.Write("s.json", "v1\n");
  auto first = RewriteGuard::Acquire({path});
  ASSERT_TRUE(first.ok());
  std::atomic<bool> locked{false};
  std::string seen;
  // flock belongs to an open file description: a second Acquire in this
  // process waits just as another process would.
  std::thread second([&] {
    auto guard = RewriteGuard::Acquire({path});
    ASSERT_TRUE(guard.ok());
    locked = true;
    seen = ReadFile(path);
    EXPECT_TRUE(Rewrite(*guard, path, seen + "v3\n").ok());
  });
  // The waiter cannot get the lock while the first guard lives.
  for (int i = 0; i < 50 && !locked; ++i) std::this_thread::yield();
  EXPECT_FALSE(locked);
  ASSERT_TRUE(Rewrite(*first, path, "v1\nv2\n").ok());
  EXPECT_FALSE(locked);
  *first = RewriteGuard();  // releases the lock
  second.join();
  EXPECT_EQ(seen, "v1\nv2\n");
  EXPECT_EQ(ReadFile(path), "v1\nv2\nv3\n");
  EXPECT_EQ(ReadFile(path + ".bak"), "v1\nv2\n");
}

TEST(RewriteGuardTest, TwoNamesOfOneFileAreLockedOnce) {
  TempDir dir;
  std::string path = dir.Write("s.json", "x\n");
  std::string link = dir.File("link.json");
  ASSERT_EQ(::symlink(path.c_str(), link.c_str()), 0);
  std::string other = dir.Write("t.json", "y\n");
  // Would deadlock against itself if one file were locked twice.
  auto guard = RewriteGuard::Acquire({other, link, path});
  ASSERT_TRUE(guard.ok());
  EXPECT_TRUE(guard->Check().ok());
  auto a = guard->LockedFileAt(link);
  auto b = guard->LockedFileAt(path);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  auto c = guard->LockedFileAt(other);
  ASSERT_TRUE(c.ok());
  EXPECT_NE(*a, *c);
}

TEST(RewriteGuardTest, WhatCannotBeOpenedIsLeftToTheReader) {
  TempDir dir;
  auto guard = RewriteGuard::Acquire({dir.File("missing.json")});
  ASSERT_TRUE(guard.ok());
  EXPECT_TRUE(guard->Check().ok());
  auto fd = guard->LockedFileAt(dir.File("missing.json"));
  ASSERT_TRUE(fd.ok());
  EXPECT_EQ(*fd, -1);
}

}  // namespace
}  // namespace pstate::io
