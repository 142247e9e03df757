#include "asset_hash/go_path.h"

#include <gtest/gtest.h>

namespace pstate::asset_hash {
namespace {

TEST(AssetGoPath, CleanMatchesGo) {
  // Cases from Go's path.Clean tests.
  EXPECT_EQ(GoClean(""), ".");
  EXPECT_EQ(GoClean("abc"), "abc");
  EXPECT_EQ(GoClean("abc/def/"), "abc/def");
  EXPECT_EQ(GoClean("a//b"), "a/b");
  EXPECT_EQ(GoClean("./a"), "a");
  EXPECT_EQ(GoClean("/"), "/");
  EXPECT_EQ(GoClean("//abc"), "/abc");
  EXPECT_EQ(GoClean("abc/./def"), "abc/def");
  EXPECT_EQ(GoClean("abc/../def"), "def");
  EXPECT_EQ(GoClean("abc/def/../../.."), "..");
  EXPECT_EQ(GoClean("/abc/def/../../.."), "/");
  EXPECT_EQ(GoClean("abc/def/../../../ghi/jkl/../../../mno"), "../../mno");
  EXPECT_EQ(GoClean("../up.txt"), "../up.txt");
  EXPECT_EQ(GoClean("/../abc"), "/abc");
  EXPECT_EQ(GoClean("abc/./../def"), "def");
  EXPECT_EQ(GoClean("a/b/c/../../d"), "a/d");
}

TEST(AssetGoPath, JoinSkipsEmptyAndCleans) {
  EXPECT_EQ(GoJoin("", ""), "");
  EXPECT_EQ(GoJoin("", "a"), "a");
  EXPECT_EQ(GoJoin(".", "n"), "n");
  EXPECT_EQ(GoJoin("./", "n"), "n");
  EXPECT_EQ(GoJoin("k", "../x"), "x");
  EXPECT_EQ(GoJoin("dir//", "x/"), "dir/x");
  EXPECT_EQ(GoJoin("a", "", "b"), "a/b");
  EXPECT_EQ(GoJoin("d/", "PaxHeaders.0", "f"), "d/PaxHeaders.0/f");
}

TEST(AssetGoPath, SplitAtLastSlash) {
  EXPECT_EQ(GoSplit("a/b/c").first, "a/b/");
  EXPECT_EQ(GoSplit("a/b/c").second, "c");
  EXPECT_EQ(GoSplit("c").first, "");
  EXPECT_EQ(GoSplit("dir/").second, "");
}

TEST(AssetGoPath, ResolveAgainstKeepsAbsolutePathsUncleaned) {
  EXPECT_EQ(ResolveAgainst("/work", "/tmp//x/"), "/tmp//x/");
  EXPECT_EQ(ResolveAgainst("/work", "a/../b/"), "/work/b");
  EXPECT_EQ(ResolveAgainst(".", "x"), "x");
  EXPECT_EQ(ResolveAgainst("/work/p", "../../../etc"), "/etc");
}

}  // namespace
}  // namespace pstate::asset_hash
