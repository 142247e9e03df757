// EditMove and EditTakesSelection (pstate/pstate.h, the edit section).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pstate/pstate.h"
#include "unit/testing/temp_dir.h"

namespace pstate {
namespace {

std::string EditFixture(const std::string& name) {
  return std::string(PSTATE_FIXTURES_DIR) + "/edit/" + name;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

State Open(const std::string& path) {
  Result<State> state = State::Open(path);
  EXPECT_TRUE(state.ok()) << state.status().message();
  return std::move(state).value();
}

const std::string kLogs = "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::logs";
const std::string kWeb = "urn:pulumi:dev::proj::my:app:Web::web";

TEST(EditApiTest, TakesSelection) {
  for (EditOperation op :
       {EditOperation::kDelete, EditOperation::kRename,
        EditOperation::kReparent, EditOperation::kProtect,
        EditOperation::kUnprotect, EditOperation::kTaint,
        EditOperation::kUntaint, EditOperation::kImportPending,
        EditOperation::kExtract}) {
    EXPECT_TRUE(EditTakesSelection(op)) << static_cast<int>(op);
  }
  for (EditOperation op :
       {EditOperation::kRenameStack, EditOperation::kClearPending,
        EditOperation::kRepair}) {
    EXPECT_FALSE(EditTakesSelection(op)) << static_cast<int>(op);
  }
}

TEST(EditApiTest, ListChangesFalseLeavesTheListsEmpty) {
  testing::TempDir dir;
  EditConfig config;
  config.operation = EditOperation::kProtect;
  config.all = true;
  config.output = dir.File("protected.json");
  Result<EditResult> listed = Edit(Open(EditFixture("example.json")), config);
  ASSERT_TRUE(listed.ok()) << listed.status().message();
  EXPECT_FALSE(listed->resources.empty());
  // The lists render their entries as they are read, from what the edit
  // left bound to them: a copy outlives the result, and reading an entry
  // twice, or by iteration, gives the same change.
  EditList<EditElementChange> kept = listed->resources;
  std::vector<std::string> whats;
  for (const EditElementChange& c : listed->resources) whats.push_back(c.what);
  ASSERT_EQ(whats.size(), kept.size());
  listed = Status(Errc::kIo, "dropped");
  for (std::size_t i = 0; i < kept.size(); ++i) {
    EXPECT_EQ(kept[i].what, whats[i]);
    EXPECT_EQ(kept[i].kind, EditChangeKind::kChanged);
  }
  config.list_changes = false;
  config.output = dir.File("quiet.json");
  Result<EditResult> quiet = Edit(Open(EditFixture("example.json")), config);
  ASSERT_TRUE(quiet.ok()) << quiet.status().message();
  EXPECT_TRUE(quiet->written);
  EXPECT_TRUE(quiet->resources.empty());
  EXPECT_TRUE(quiet->envelope.empty());
  EXPECT_TRUE(quiet->notes.empty());
  EXPECT_EQ(Slurp(dir.File("quiet.json")), Slurp(dir.File("protected.json")));
}

TEST(EditApiTest, MoveDryRunWritesNothing) {
  const std::string source = EditFixture("example.json");
  const std::string destination = EditFixture("move-dest.json");
  const std::string source_bytes = Slurp(source);
  const std::string destination_bytes = Slurp(destination);
  EditMoveConfig config;
  config.urns = {"web", "logs"};  // names, as the command line takes them
  config.dry_run = true;
  Result<EditMoveResult> moved =
      EditMove(Open(source), Open(destination), config);
  ASSERT_TRUE(moved.ok()) << moved.status().message();
  EXPECT_FALSE(moved->refused) << moved->refusal;
  EXPECT_EQ(moved->selected, (std::vector<std::string>{kWeb, kLogs}));
  ASSERT_EQ(moved->moved.size(), 3u);  // web's child comes along
  EXPECT_EQ(moved->moved[0].first, kLogs);
  EXPECT_EQ(moved->moved[0].second,
            "urn:pulumi:prod::proj::aws:s3/bucket:Bucket::logs");
  EXPECT_EQ(moved->providers_copied.size(), 1u);
  EXPECT_TRUE(moved->broken.empty());
  for (const EditResult* side : {&moved->source, &moved->destination}) {
    EXPECT_FALSE(side->written);
    EXPECT_TRUE(side->new_errors.empty());
    ASSERT_TRUE(side->diff.has_value());
  }
  EXPECT_EQ(moved->source.diff->summary.removed, 3u);
  EXPECT_EQ(moved->destination.diff->summary.added, 4u);  // and the provider
  ASSERT_EQ(moved->source.resources.size(), 3u);
  EXPECT_EQ(moved->source.resources[0].kind, EditChangeKind::kRemoved);
  EXPECT_EQ(Slurp(source), source_bytes);
  EXPECT_EQ(Slurp(destination), destination_bytes);
}

TEST(EditApiTest, MoveWritesBothFilesWithBackups) {
  testing::TempDir dir;
  const std::string source = dir.File("src.json");
  const std::string destination = dir.File("dest.json");
  std::filesystem::copy_file(EditFixture("example.json"), source);
  std::filesystem::copy_file(EditFixture("move-dest.json"), destination);
  EditMoveConfig config;
  config.select.type = "aws:s3/bucket:Bucket";
  config.urns = {kWeb};
  Result<EditMoveResult> moved =
      EditMove(Open(source), Open(destination), config);
  ASSERT_TRUE(moved.ok()) << moved.status().message();
  ASSERT_FALSE(moved->refused) << moved->refusal;
  EXPECT_TRUE(moved->source.written);
  EXPECT_TRUE(moved->destination.written);
  EXPECT_EQ(moved->source.backup, source + ".bak");
  EXPECT_EQ(moved->destination.backup, destination + ".bak");
  EXPECT_EQ(Slurp(moved->source.backup), Slurp(EditFixture("example.json")));
  EXPECT_FALSE(moved->source.diff.has_value());
  for (const std::string& path : {source, destination}) {
    Result<Findings> check = Verify(Open(path));
    ASSERT_TRUE(check.ok()) << check.status().message();
    EXPECT_EQ(check->errors, 0u) << path;
  }
  Result<std::vector<ResourceRow>> rows = List(Open(destination));
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  bool has_logs = false;
  for (const ResourceRow& row : *rows) {
    has_logs |= row.urn == "urn:pulumi:prod::proj::aws:s3/bucket:Bucket::logs";
  }
  EXPECT_TRUE(has_logs);
}

TEST(EditApiTest, MoveRefusesABrokenDependency) {
  EditMoveConfig config;
  config.urns = {"web"};  // its child depends on logs, which stays
  Result<EditMoveResult> moved =
      EditMove(Open(EditFixture("example.json")),
               Open(EditFixture("move-dest.json")), config);
  ASSERT_TRUE(moved.ok()) << moved.status().message();
  EXPECT_TRUE(moved->refused);
  EXPECT_FALSE(moved->refusal.empty());
  ASSERT_EQ(moved->broken.size(), 1u);
  EXPECT_TRUE(moved->broken[0].moving);
  EXPECT_EQ(moved->broken[0].target, kLogs);
  EXPECT_FALSE(moved->source.written);
  EXPECT_FALSE(moved->destination.written);
}

TEST(EditApiTest, MoveNeedsTwoFiles) {
  const std::string source = EditFixture("example.json");
  EditMoveConfig config;
  config.urns = {"web", "logs"};
  // The same file twice.
  Result<EditMoveResult> same = EditMove(Open(source), Open(source), config);
  ASSERT_FALSE(same.ok());
  EXPECT_EQ(same.status().code(), Errc::kInvalidArgument);
  // Standard input.
  Result<EditMoveResult> piped = EditMove(Open(source), Open("-"), config);
  ASSERT_FALSE(piped.ok());
  EXPECT_EQ(piped.status().code(), Errc::kInvalidArgument);
  // A state in memory has no place to be written, but can be planned.
  OpenOptions named;
  named.name = "dest-in-memory";
  Result<State> memory =
      State::FromBytes(Slurp(EditFixture("move-dest.json")), named);
  ASSERT_TRUE(memory.ok()) << memory.status().message();
  Result<EditMoveResult> in_memory = EditMove(Open(source), *memory, config);
  ASSERT_FALSE(in_memory.ok());
  EXPECT_EQ(in_memory.status().code(), Errc::kInvalidArgument);
  EXPECT_NE(in_memory.status().message().find("dest-in-memory"),
            std::string::npos);
  config.dry_run = true;
  Result<EditMoveResult> planned = EditMove(Open(source), *memory, config);
  ASSERT_TRUE(planned.ok()) << planned.status().message();
  EXPECT_FALSE(planned->refused) << planned->refusal;
  EXPECT_EQ(planned->moved.size(), 3u);
}

}  // namespace
}  // namespace pstate
