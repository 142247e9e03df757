#include "history/history.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "unit/testing/temp_dir.h"

namespace pstate::history {
namespace {

namespace fs = std::filesystem;
using pstate::testing::ReadFile;
using pstate::testing::TempDir;

constexpr const char* kLogs = "urn:pulumi:dev::web::aws:s3/bucket:Bucket::logs";

/// A writable copy of fixtures/backends/project (made by
/// tests/backend/make_backend.py).
std::string CopyBackend(const TempDir& dir) {
  fs::path from = fs::path(PSTATE_FIXTURES_DIR) / "backends" / "project";
  fs::path to = dir.path() / "project";
  fs::copy(from, to, fs::copy_options::recursive);
  return to.string();
}

std::string Dev(const std::string& root) {
  return root + "/.pulumi/stacks/web/dev.json";
}

TEST(History, DurationsParse) {
  EXPECT_EQ(ParseDuration("30d"), 30 * 86400);
  EXPECT_EQ(ParseDuration("12h"), 12 * 3600);
  EXPECT_EQ(ParseDuration("2w"), 14 * 86400);
  EXPECT_EQ(ParseDuration("90m"), 90 * 60);
  EXPECT_FALSE(ParseDuration("d"));
  EXPECT_FALSE(ParseDuration("3y"));
  EXPECT_FALSE(ParseDuration("-3d"));
  EXPECT_FALSE(ParseDuration("99999999999999999d"));
}

TEST(History, SummarizesEveryStack) {
  auto stacks =
      SummarizeBackend(std::string(PSTATE_FIXTURES_DIR) + "/backends/project");
  ASSERT_TRUE(stacks.ok()) << stacks.status().message();
  ASSERT_EQ(stacks->size(), 3u);
  const StackSummary& dev = (*stacks)[0];
  EXPECT_EQ(dev.stack.QualifiedName(), "organization/web/dev");
  EXPECT_EQ(dev.updates, 5u);
  EXPECT_EQ(dev.resources, 4u);
  EXPECT_GT(dev.backup_bytes, 0u);
  EXPECT_TRUE((*stacks)[1].locked);
  EXPECT_EQ((*stacks)[2].updates, 3u);  // prod, two of them as "staging"
}

TEST(History, ListsUpdatesNewestFirstAndVerifiesCopies) {
  auto target =
      OpenTarget(Dev(std::string(PSTATE_FIXTURES_DIR) + "/backends/project"));
  ASSERT_TRUE(target.ok()) << target.status().message();
  auto rows = ListUpdates(*target, /*verify=*/true);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].entry.number, 5);
  EXPECT_EQ(rows[0].copy, CopyState::kVerified);
  EXPECT_EQ(rows[1].copy, CopyState::kMissing);  // the failed update
  EXPECT_EQ(ListUpdates(*target, false)[0].copy, CopyState::kPresent);
}

TEST(History, RestoreInPlaceKeepsTheCurrentAsBak) {
  TempDir dir;
  std::string root = CopyBackend(dir);
  std::string current = ReadFile(Dev(root));
  RestoreConfig config;
  config.ref = Dev(root) + "@1";
  config.in_place = true;
  auto result = Restore(config);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(ReadFile(Dev(root) + ".bak"), current);
  EXPECT_EQ(ReadFile(Dev(root)), ReadFile(result->version_file));
  EXPECT_EQ(result->changes.changed, 2u);  // logs' tags, db's password
}

TEST(History, RestoreToAnExportAndRefusals) {
  TempDir dir;
  std::string root = CopyBackend(dir);
  RestoreConfig config;
  config.ref = Dev(root) + "@~2";
  config.output = dir.File("export.json");
  auto result = Restore(config);
  ASSERT_TRUE(result.ok()) << result.status().message();
  std::string out = ReadFile(config.output);
  EXPECT_EQ(out.rfind("{\n    \"version\": 3,\n    \"deployment\"", 0), 0u)
      << out.substr(0, 80);

  config.ref = root + "/.pulumi/stacks/web/locked.json@1";
  config.output.clear();
  config.in_place = true;
  auto locked = Restore(config);
  ASSERT_FALSE(locked.ok());
  EXPECT_EQ(locked.status().code(), Errc::kRefused);

  config.ref = Dev(root);  // no version
  EXPECT_EQ(Restore(config).status().code(), Errc::kInvalidArgument);
}

TEST(History, PruneListsThenDeletesOnlyWithYes) {
  TempDir dir;
  std::string root = CopyBackend(dir);
  PruneConfig config;
  config.target = Dev(root);
  config.keep = 2;
  auto listed = Prune(config);
  ASSERT_TRUE(listed.ok()) << listed.status().message();
  // Updates 1-3: three records and three copies; backups 1-2.
  EXPECT_EQ(listed->files.size(), 8u);
  EXPECT_FALSE(listed->deleted);
  for (const PruneFile& f : listed->files) EXPECT_TRUE(fs::exists(f.path));

  // Nothing is older than a day before the oldest update.
  config.older_than_s = 1000 * 86400;
  config.now_unix_nano = 1795600000LL * 1000000000;
  EXPECT_TRUE(Prune(config)->files.empty());

  config.older_than_s.reset();
  config.yes = true;
  auto deleted = Prune(config);
  ASSERT_TRUE(deleted.ok());
  EXPECT_TRUE(deleted->deleted);
  for (const PruneFile& f : deleted->files) EXPECT_FALSE(fs::exists(f.path));
  EXPECT_TRUE(fs::exists(Dev(root)));
  EXPECT_TRUE(fs::exists(Dev(root) + ".bak"));
  auto target = OpenTarget(Dev(root));
  EXPECT_EQ(target->history.size(), 2u);

  config.target = root + "/.pulumi/stacks/web/locked.json";
  EXPECT_EQ(Prune(config).status().code(), Errc::kRefused);
  config.target = root;
  auto backend = Prune(config);
  ASSERT_TRUE(backend.ok());
  ASSERT_EQ(backend->locked.size(), 1u);
  EXPECT_EQ(backend->locked[0], "organization/web/locked");
}

TEST(History, BlameFindsCreationChangesAndDeletion) {
  std::string root = std::string(PSTATE_FIXTURES_DIR) + "/backends/project";
  BlameConfig config;
  config.ref = Dev(root);
  config.urn = kLogs;
  auto all = Blame(config);
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_EQ(all->events.size(), 2u);
  EXPECT_EQ(all->events[0].kind, BlameKind::kCreated);
  EXPECT_EQ(all->events[1].kind, BlameKind::kChanged);
  EXPECT_EQ(all->events[1].entry.number, 3);
  EXPECT_EQ(all->versions, 4u);

  config.path = "inputs.tags.env";
  auto path = Blame(config);
  ASSERT_EQ(path->events.size(), 2u);
  EXPECT_EQ(path->events[1].properties.size(), 1u);
  config.path = "bucket";
  EXPECT_EQ(Blame(config)->events.size(), 1u);  // only its creation

  config.urn = "urn:pulumi:dev::web::aws:s3/bucket:Bucket::site";
  config.path.clear();
  auto site = Blame(config);
  ASSERT_EQ(site->events.size(), 2u);
  EXPECT_EQ(site->events[1].kind, BlameKind::kDeleted);
  ASSERT_EQ(site->events[1].uncertain.size(), 1u);
  EXPECT_EQ(site->events[1].uncertain[0], 4);

  // The secret changed: reported, never shown.
  config.urn =
      "urn:pulumi:dev::web::random:index/randomPassword:"
      "RandomPassword::db";
  auto db = Blame(config);
  ASSERT_EQ(db->events.size(), 2u);
  ASSERT_FALSE(db->events[1].properties.empty());
  for (const auto& p : db->events[1].properties) {
    EXPECT_TRUE(!p.before || p.before->hidden()) << p.path;
    EXPECT_TRUE(!p.after || p.after->hidden()) << p.path;
  }
}

}  // namespace
}  // namespace pstate::history
