#include "backend/backend.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "io/input.h"
#include "unit/testing/temp_dir.h"

namespace pstate::backend {
namespace {

namespace fs = std::filesystem;
using pstate::testing::TempDir;

constexpr const char* kState =
    R"({"version":3,"checkpoint":{"stack":"organization/web/dev","latest":{"manifest":{"time":"2026-11-20T10:00:00Z","magic":"","version":""}}}})";

void Put(const TempDir& dir, const std::string& rel,
         const std::string& text = kState) {
  fs::create_directories((dir.path() / rel).parent_path());
  dir.Write(rel, text);
}

std::string Update(const std::string& kind, const std::string& result) {
  return R"({"kind":")" + kind + R"(","startTime":1795600000,"message":"m",)" +
         R"("result":")" + result +
         R"(","endTime":1795600010,"resourceChanges":{"create":2}})";
}

TEST(UpdateInfo, FieldsMatchCaseInsensitivelyAndTheLastDuplicateWins) {
  auto info = ParseUpdateInfo(
      R"({"Kind":"refresh","KIND":"update","result":"failed","endtime":7,)"
      R"("resourceChanges":{"update":1,"update":3},"unknown":[1]})",
      "h.json");
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info->kind, "update");
  EXPECT_EQ(info->result, "failed");
  EXPECT_EQ(info->end_time, 7);
  EXPECT_EQ(info->Changes("update"), 3);
  EXPECT_EQ(info->Changes("delete"), 0);
}

TEST(UpdateInfo, WrongTypesAndBadJsonAreNamedErrors) {
  auto wrong = ParseUpdateInfo(R"({"startTime":"yesterday"})", "h.json");
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), Errc::kFormat);
  EXPECT_NE(wrong.status().message().find("h.json"), std::string::npos);
  EXPECT_NE(wrong.status().message().find("startTime"), std::string::npos);
  auto bad = ParseUpdateInfo("{\n\"kind\": }", "h.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind("h.json:2:", 0), 0u)
      << bad.status().message();
  EXPECT_FALSE(ParseUpdateInfo("[]", "h.json").ok());
}

TEST(Backend, FindsTheRootAndBothLayouts) {
  TempDir dir;
  Put(dir, ".pulumi/stacks/legacy.json");
  Put(dir, ".pulumi/stacks/legacy.json.bak");
  Put(dir, ".pulumi/stacks/web/dev.json.gz");
  Put(dir, ".pulumi/stacks/web/dev.pulumi-tags", "{}");
  auto root = FindRoot(dir.File(".pulumi/stacks/web"));
  ASSERT_TRUE(root.ok()) << root.status().message();
  EXPECT_EQ(fs::path(*root), dir.path());
  auto stacks = ListStacks(*root);
  ASSERT_TRUE(stacks.ok());
  ASSERT_EQ(stacks->size(), 2u);
  EXPECT_EQ((*stacks)[0].QualifiedName(), "legacy");
  EXPECT_EQ((*stacks)[1].QualifiedName(), "organization/web/dev");
  EXPECT_NE((*stacks)[1].LockDir().find(".pulumi/locks/organization/web/dev"),
            std::string::npos);
  TempDir elsewhere;
  EXPECT_EQ(FindRoot(elsewhere.path().string()).status().code(),
            Errc::kNotFound);
}

TEST(Backend, HistoryPairsFilesAndResolvesVersions) {
  TempDir dir;
  Put(dir, ".pulumi/stacks/web/dev.json");
  Put(dir, ".pulumi/stacks/web/dev.json.bak");
  std::string h = ".pulumi/history/web/dev/";
  // Written under the stack's old name (a rename moves the directory).
  Put(dir, h + "old-1795600000000000000.history.json",
      Update("update", "succeeded"));
  Put(dir, h + "old-1795600000000000000.checkpoint.json");
  Put(dir, h + "dev-1795700000000000000.history.json",
      Update("update", "failed"));
  Put(dir, h + "dev-1795800000000000000.history.json",
      Update("refresh", "succeeded"));
  Put(dir, h + "dev-1795800000000000000.checkpoint.json.gz");
  Put(dir, h + "stray.txt", "x");
  auto stack = StackOfCheckpoint(dir.File(".pulumi/stacks/web/dev.json"));
  ASSERT_TRUE(stack.ok()) << stack.status().message();
  EXPECT_EQ(stack->project, "web");
  auto history = ReadHistory(*stack);
  ASSERT_TRUE(history.ok()) << history.status().message();
  ASSERT_EQ(history->size(), 3u);
  EXPECT_EQ((*history)[0].stack_name, "old");
  EXPECT_EQ((*history)[1].checkpoint_path, "");
  EXPECT_EQ((*history)[2].info.kind, "refresh");

  auto at = [&](std::string_view v) {
    return ResolveVersion(*stack, *history, v, "dev.json@x");
  };
  EXPECT_EQ(*at("~0"), stack->checkpoint);
  EXPECT_NE(at("1")->find("old-1795600000000000000.checkpoint"),
            std::string::npos);
  EXPECT_NE(at("3")->find("dev-1795800000000000000.checkpoint.json.gz"),
            std::string::npos);
  EXPECT_EQ(*at("~2"), *at("1"));
  EXPECT_NE(at("bak")->find("dev.json.bak"), std::string::npos);
  // 1795650000 is between updates 1 and 2.
  EXPECT_EQ(*at("2026-11-25T12:00:00Z"), *at("1"));
  // Update 2 failed and kept no copy.
  auto failed = at("2");
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("update 2 (failed)"),
            std::string::npos);
  auto none = at("9");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), Errc::kNotFound);
  EXPECT_NE(none.status().message().find("has 3 updates (1 at "),
            std::string::npos)
      << none.status().message();
  EXPECT_FALSE(at("~3").ok());
  EXPECT_FALSE(at("2020-01-01T00:00:00Z").ok());
  EXPECT_EQ(at("yesterday").status().code(), Errc::kInvalidArgument);
}

TEST(Backend, InputPathsTakeVersionsAndRealFilesWin) {
  TempDir dir;
  Put(dir, ".pulumi/stacks/dev.json");
  Put(dir, ".pulumi/history/dev/dev-1795600000000000000.history.json",
      Update("update", "succeeded"));
  Put(dir, ".pulumi/history/dev/dev-1795600000000000000.checkpoint.json");
  Put(dir, "odd@1", "{}");
  io::SetPathResolver(&ResolveInputPath);
  auto one = io::ResolveInputPath(dir.File(".pulumi/stacks/dev.json@1"));
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_NE(one->find("dev-1795600000000000000.checkpoint.json"),
            std::string::npos);
  EXPECT_EQ(*io::ResolveInputPath(dir.File("odd@1")), dir.File("odd@1"));
  // Not a version reference: left to the opener's "No such file".
  EXPECT_EQ(*io::ResolveInputPath(dir.File("missing@1")),
            dir.File("missing@1"));
  auto bad = io::OpenInput(dir.File(".pulumi/stacks/dev.json@5"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Errc::kNotFound);
  io::SetPathResolver(nullptr);
}

TEST(Backend, TheNewestCheckpointVariantWinsAndBakWorksAnywhere) {
  TempDir dir;
  Put(dir, ".pulumi/stacks/web/dev.json");
  Put(dir, ".pulumi/stacks/web/dev.json.zst");
  // stackPath: of several variants the most recently modified is read.
  fs::last_write_time(dir.File(".pulumi/stacks/web/dev.json"),
                      fs::file_time_type::clock::now() - std::chrono::hours(1));
  auto stacks = ListStacks(dir.path().string());
  ASSERT_TRUE(stacks.ok());
  ASSERT_EQ(stacks->size(), 1u);
  EXPECT_NE((*stacks)[0].checkpoint.find("dev.json.zst"), std::string::npos);

  Put(dir, "loose.json");
  Put(dir, "loose.json.bak");
  EXPECT_EQ(*ResolveInputPath(dir.File("loose.json@bak")),
            dir.File("loose.json.bak"));
  auto outside = ResolveInputPath(dir.File("loose.json@1"));
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.status().code(), Errc::kInvalidArgument);
}

TEST(Backend, LocksAndBackups) {
  TempDir dir;
  Put(dir, ".pulumi/stacks/web/dev.json");
  Put(dir, ".pulumi/locks/organization/web/dev/abc.json", "{}");
  Put(dir, ".pulumi/backups/web/dev/dev.1795600000000000000.json");
  Put(dir, ".pulumi/backups/web/dev/dev.1795500000000000000.json.gz");
  auto stack = StackOfCheckpoint(dir.File(".pulumi/stacks/web/dev.json"));
  ASSERT_TRUE(stack.ok());
  EXPECT_EQ(ListLocks(*stack).size(), 1u);
  auto backups = ListBackups(*stack);
  ASSERT_EQ(backups.size(), 2u);
  EXPECT_EQ(backups[0].unix_nano, 1795500000000000000);
  EXPECT_EQ(FormatUnixSeconds(1795600000), "2026-11-25T09:46:40Z");
}

}  // namespace
}  // namespace pstate::backend
