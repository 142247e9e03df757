#include "edit/edit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "edit/index.h"
#include "edit/plan.h"
#include "edit/splice.h"
#include "io/input.h"
#include "json/document.h"
#include "state/reader.h"
#include "unit/testing/state_samples.h"
#include "verify/verifier.h"

namespace pstate::edit {
namespace {

namespace fs = std::filesystem;

const std::string kS = "urn:pulumi:dev::proj::";
const std::string kR = kS + "pulumi:pulumi:Stack::proj-dev";
const std::string kP = kS + "pulumi:providers:aws::default_6_0_0";
const std::string kB = kS + "aws:s3/bucket:Bucket::logs";
const std::string kW = kS + "my:app:Web::web";
const std::string kO =
    kS + "my:app:Web$aws:s3/bucketObject:BucketObject::index";

std::string Fixture(const std::string& name) {
  return std::string(PSTATE_FIXTURES_DIR) + "/edit/" + name;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class EditTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("pstate-edit-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Runs `request` on fixture `name`; returns the output text.
  std::string Edit(const std::string& name, Request request,
                   Outcome* outcome = nullptr) {
    Config config;
    config.request = std::move(request);
    config.input = Fixture(name);
    config.output = (dir_ / "out.json").string();
    auto r = edit::Run(config);
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (!r.ok()) return "";
    if (outcome != nullptr) *outcome = *r;
    EXPECT_FALSE(r->refused) << r->refusal;
    return ReadAll(config.output);
  }

  Outcome Refused(const std::string& name, Request request) {
    Config config;
    config.request = std::move(request);
    config.input = Fixture(name);
    config.output = (dir_ / "refused.json").string();
    auto r = edit::Run(config);
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (!r.ok()) return {};
    EXPECT_TRUE(r->refused);
    EXPECT_FALSE(fs::exists(config.output));
    return *r;
  }

  fs::path dir_;
};

Request Delete(std::vector<std::string> urns, bool dependents = false) {
  Request r;
  r.op = Operation::kDelete;
  r.urns = std::move(urns);
  r.target_dependents = dependents;
  return r;
}

/// The URNs of a written state's resources, in order.
std::vector<std::string> Urns(const std::string& text) {
  auto doc = json::Document::Parse(text);
  EXPECT_TRUE(doc.ok());
  std::vector<std::string> out;
  if (!doc.ok()) return out;
  const json::Value* d = doc->root().Find("deployment");
  if (d == nullptr) d = doc->root().Find("checkpoint")->Find("latest");
  const json::Value* rs = d->Find("resources");
  if (rs == nullptr) return out;
  for (const json::Value& r : rs->array()) out.push_back(r.Find("urn")->Str());
  return out;
}

TEST_F(EditTest, DeleteLeafKeepsEveryOtherByte) {
  std::string in = ReadAll(Fixture("example.json"));
  std::string out = Edit("example.json", Delete({kO}));
  EXPECT_EQ(Urns(out), (std::vector<std::string>{kR, kP, kB, kW}));
  // The output is the input with O's element and its separator cut out.
  std::size_t at = in.find("{\n                \"urn\": \"" + kO);
  ASSERT_NE(at, std::string::npos);
  std::size_t sep = in.rfind("},", at);
  std::size_t end = in.find("\n            }", at) + 14;
  EXPECT_EQ(out, in.substr(0, sep + 1) + in.substr(end));
}

// A plain file of 1 MiB and more is mapped, and the ranges the edit does
// not touch are copied by the kernel (io::Output::CopyRange): the result
// must be the same bytes as the small file's path gives.
TEST_F(EditTest, LargeFileRangesAreCopiedExactly) {
  std::string in = ReadAll(Fixture("example.json")) +
                   std::string(std::size_t{3} << 19, ' ') + "\n";
  fs::path big = dir_ / "big.json";
  {
    std::ofstream f(big, std::ios::binary);
    f << in;
  }
  Config config;
  config.request = Delete({kO});
  config.input = big.string();
  config.output = (dir_ / "big-out.json").string();
  auto r = edit::Run(config);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_FALSE(r->refused) << r->refusal;
  std::string out = ReadAll(config.output);
  std::size_t at = in.find("{\n                \"urn\": \"" + kO);
  ASSERT_NE(at, std::string::npos);
  std::size_t sep = in.rfind("},", at);
  std::size_t end = in.find("\n            }", at) + 14;
  EXPECT_TRUE(out == in.substr(0, sep + 1) + in.substr(end));
  EXPECT_EQ(out.size(), in.size() - (end - sep - 1));
}

TEST_F(EditTest, DeleteWithDependentsIsRefusedListingThem) {
  Outcome o = Refused("example.json", Delete({kB}));
  EXPECT_NE(o.refusal.find("depend on it"), std::string::npos);
  EXPECT_NE(o.refusal.find(kO), std::string::npos);
}

TEST_F(EditTest, DeleteTargetDependents) {
  EXPECT_EQ(Urns(Edit("example.json", Delete({kB}, true))),
            (std::vector<std::string>{kR, kP, kW}));
  EXPECT_EQ(Urns(Edit("example.json", Delete({kP}, true))),
            (std::vector<std::string>{kR, kW}));
}

TEST_F(EditTest, DeleteSeveralTargetsTogether) {
  EXPECT_EQ(Urns(Edit("example.json", Delete({kB, kO}))),
            (std::vector<std::string>{kR, kP, kW}));
}

TEST_F(EditTest, DeleteUnknownSuggests) {
  Outcome o =
      Refused("example.json", Delete({kS + "aws:s3/bucket:Bucket::log"}));
  EXPECT_NE(o.refusal.find("Did you mean"), std::string::npos);
  EXPECT_NE(o.refusal.find(kB), std::string::npos);
}

TEST_F(EditTest, DeleteProtectedNeedsForce) {
  Request r = Delete({kB}, true);
  Outcome o = Refused("rich.json", r);
  EXPECT_NE(o.refusal.find("protected"), std::string::npos);
  r.force = true;
  Outcome done;
  std::string out = Edit("rich.json", r, &done);
  EXPECT_EQ(Urns(out), (std::vector<std::string>{kR, kP, kW}));
}

TEST_F(EditTest, DuplicateNeedsId) {
  Outcome o = Refused("duplicate.json", Delete({kB}));
  EXPECT_NE(o.refusal.find("logs-old"), std::string::npos);
  Request r = Delete({kB});
  r.id = "logs-old";
  std::string out = Edit("duplicate.json", r);
  EXPECT_EQ(out, ReadAll(Fixture("example.json")));
}

TEST_F(EditTest, DeleteEverythingDropsTheMember) {
  Request r = Delete({kR, kP}, true);
  std::string out = Edit("example.json", r);
  EXPECT_EQ(out.find("\"resources\""), std::string::npos) << out;
  EXPECT_TRUE(json::Document::Parse(out).ok());
}

TEST_F(EditTest, ProtectInsertsInGoOrder) {
  Request r;
  r.op = Operation::kProtect;
  r.urns = {kB};
  std::string out = Edit("example.json", r);
  EXPECT_NE(out.find("\"parent\": \"" + kR +
                     "\",\n                \"protect\": true,\n"
                     "                \"provider\""),
            std::string::npos)
      << out;
  r.op = Operation::kUnprotect;
  Config config;
  config.request = r;
  config.input = (dir_ / "out.json").string();
  config.output = (dir_ / "back.json").string();
  auto back = edit::Run(config);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(ReadAll(config.output), ReadAll(Fixture("example.json")));
}

TEST_F(EditTest, TaintSwitchesVersionFourAndBack) {
  Request r;
  r.op = Operation::kTaint;
  r.urns = {kB};
  std::string out = Edit("example.json", r);
  EXPECT_EQ(out.rfind("{\n    \"version\": 4,\n    \"features\": [\n"
                      "        \"taint\"\n    ],\n",
                      0),
            0u)
      << out;
  EXPECT_NE(out.find("\"taint\": true"), std::string::npos);
  Config config;
  config.request.op = Operation::kUntaint;
  config.request.all = true;
  config.input = (dir_ / "out.json").string();
  config.output = (dir_ / "back.json").string();
  auto back = edit::Run(config);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(ReadAll(config.output), ReadAll(Fixture("example.json")));
}

TEST_F(EditTest, TaintCompactCheckpoint) {
  Request r;
  r.op = Operation::kTaint;
  r.urns = {kB};
  std::string out = Edit("checkpoint.json", r);
  EXPECT_EQ(out.rfind("{\"version\":4,\"features\":[\"taint\"],", 0), 0u)
      << out;
}

TEST_F(EditTest, RenameRewritesEveryReference) {
  Request r;
  r.op = Operation::kRename;
  r.urns = {kB};
  r.new_name = "audit";
  std::string out = Edit("rich.json", r);
  std::string renamed = kS + "aws:s3/bucket:Bucket::audit";
  EXPECT_EQ(out.find(kB), std::string::npos)
      << out.substr(out.find(kB) - 300, 600);
  // urn, dependencies, propertyDependencies, the reference in W's
  // outputs, deletedWith, replaceWith (once), and the pending update.
  std::size_t count = 0;
  for (std::size_t at = out.find(renamed); at != std::string::npos;
       at = out.find(renamed, at + 1)) {
    ++count;
  }
  EXPECT_EQ(count, 7u) << out;
}

TEST_F(EditTest, RenameProviderRewritesProviderReferences) {
  Request r;
  r.op = Operation::kRename;
  r.urns = {kP};
  r.new_name = "main";
  std::string out = Edit("example.json", r);
  EXPECT_NE(out.find(kS + "pulumi:providers:aws::main::p1"), std::string::npos);
  EXPECT_EQ(out.find("default_6_0_0"), std::string::npos);
}

TEST_F(EditTest, RenameToUrnIsRefused) {
  Request r;
  r.op = Operation::kRename;
  r.urns = {kB};
  r.new_name = kW;
  Outcome o = Refused("example.json", r);
  EXPECT_NE(o.refusal.find("is a URN"), std::string::npos);
}

TEST_F(EditTest, ReparentMovesAfterNewParentAndRecomputesUrns) {
  // B under W: B comes before W, so it moves after it, and its URN gains
  // W's type.
  Request r;
  r.op = Operation::kReparent;
  r.urns = {kB};
  r.new_parent = kW;
  std::string out = Edit("example.json", r);
  std::string moved = kS + "my:app:Web$aws:s3/bucket:Bucket::logs";
  EXPECT_EQ(Urns(out), (std::vector<std::string>{kR, kP, kW, moved, kO}));
  EXPECT_EQ(out.find(kB), std::string::npos);
}

TEST_F(EditTest, ReparentUnderDescendantIsRefused) {
  Request r;
  r.op = Operation::kReparent;
  r.urns = {kW};
  r.new_parent = kO;
  Outcome o = Refused("example.json", r);
  EXPECT_NE(o.refusal.find("cycle"), std::string::npos);
}

TEST_F(EditTest, PendingOperations) {
  Request clear;
  clear.op = Operation::kClearPending;
  clear.pending_type = "creating";
  std::string out = Edit("rich.json", clear);
  EXPECT_EQ(out.find("\"creating\""), std::string::npos);
  EXPECT_NE(out.find("\"updating\""), std::string::npos);

  Request import;
  import.op = Operation::kImportPending;
  import.urns = {kS + "aws:s3/bucket:Bucket::new"};
  import.id = "new-1";
  out = Edit("rich.json", import);
  EXPECT_NE(out.find("\"id\": \"new-1\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"importing\""), std::string::npos);
}

TEST_F(EditTest, RepairReordersAndPrunes) {
  Request r;
  r.op = Operation::kRepair;
  Outcome o;
  std::string out = Edit("broken.json", r, &o);
  std::vector<std::string> urns = Urns(out);
  ASSERT_EQ(urns.size(), 6u);
  EXPECT_EQ(urns[0], kR);
  EXPECT_EQ(urns.back(), kS + "my:app:Leaf::leaf");
  EXPECT_EQ(out.find("::gone"), std::string::npos);
  EXPECT_EQ(out.find("Orphan"), std::string::npos);
  EXPECT_FALSE(o.notes.empty());
  EXPECT_TRUE(o.new_findings.empty());
}

// A repair that moves every resource of a chain written in reverse holds a
// typed, fixed-size record per moved resource for its note and its change
// (rendered only when read), never a line of text.
/// Resource `i` of ReversedChain.
std::string ChainUrn(std::size_t i) {
  return kS + "x:index:Thing::t" + std::to_string(i);
}

/// A root stack and `n` resources, each depending on the next: every
/// dependency comes after its user, as repair fixes.
std::string ReversedChain(std::size_t n) {
  const std::string root = kS + "pulumi:pulumi:Stack::proj-dev";
  std::string text =
      "{\"version\": 3, \"deployment\": {\"resources\": [\n"
      "{\"urn\": \"" +
      root +
      "\", \"custom\": false, \"type\": "
      "\"pulumi:pulumi:Stack\"}";
  for (std::size_t i = 0; i < n; ++i) {
    text += ",\n{\"urn\": \"" + ChainUrn(i) +
            "\", \"custom\": false, \"type\": \"x:index:Thing\", "
            "\"parent\": \"" +
            root + "\"";
    if (i + 1 < n) text += ", \"dependencies\": [\"" + ChainUrn(i + 1) + "\"]";
    text += "}";
  }
  text += "\n]}}\n";
  return text;
}

TEST_F(EditTest, ARepairOfAReversedChainHoldsRecordsNotText) {
  constexpr std::size_t kN = 300;
  auto urn = ChainUrn;
  std::string text = ReversedChain(kN);
  std::string in = (dir_ / "chain.json").string();
  std::ofstream(in, std::ios::binary) << text;
  Config config;
  config.request.op = Operation::kRepair;
  config.input = in;
  config.output = (dir_ / "out.json").string();
  auto o = edit::Run(config);
  ASSERT_TRUE(o.ok()) << o.status().message();
  ASSERT_FALSE(o->refused) << o->refusal;
  // Every resource but the last comes too early: a note and a change each.
  ASSERT_EQ(o->notes.size(), kN - 1);
  ASSERT_EQ(o->changes.resources.size(), kN - 1);
  EXPECT_EQ(o->notes.held(), 0U);
  EXPECT_EQ(o->changes.resources.held(), 0U);
  EXPECT_LE(sizeof(Note), 12U);
  EXPECT_LE(sizeof(ChangeRecord), 12U);
  // Rendered when read, as the lines always were: the last resource
  // (position kN) comes first, after the root stack.
  EXPECT_EQ(o->notes[0], "moved " + urn(kN - 1) +
                             " up, before the first resource that needs it "
                             "(position " +
                             std::to_string(kN) + " -> 1)");
  ElementChange c = o->changes.resources[0];
  EXPECT_EQ(c.kind, ChangeKind::kChanged);
  EXPECT_EQ(c.what, urn(kN - 1));
  ASSERT_EQ(c.fields.size(), 1U);
  EXPECT_EQ(c.fields[0].field, "(position)");
  EXPECT_EQ(c.fields[0].before, std::to_string(kN));
  EXPECT_EQ(c.fields[0].after, "1");
  std::vector<std::string> urns = Urns(ReadAll(config.output));
  ASSERT_EQ(urns.size(), kN + 1);
  EXPECT_EQ(urns[1], urn(kN - 1));
  EXPECT_EQ(urns.back(), urn(0));
  // A copy renders every record into text that no longer needs the index.
  Notes held = o->notes;
  held.Hold();
  EXPECT_EQ(held.held(), kN - 1);
  EXPECT_EQ(held[0], o->notes[0]);
}

// Pass 2 reads a reordered array backwards: the pages it has read still
// go back as it goes (counted: the ranges handed to the release), not only
// those behind a forward reader.
TEST(SpliceTest, AReversedReadHandsBackWhatItRead) {
  std::string bytes = ReversedChain(40000);
  ASSERT_GT(bytes.size(), std::size_t{8} << 20);
  Index index;
  diag::Report report("in");
  {
    auto input = io::MemoryInput(bytes, "in");
    Indexer indexer(index);
    ASSERT_TRUE(state::Read(*input, indexer, report).ok());
  }
  Request r;
  r.op = Operation::kRepair;
  auto planned = MakePlan(index, r);
  ASSERT_TRUE(planned.ok() && !planned->refused);
  ASSERT_FALSE(planned->plan.order.empty());
  auto out = Assemble(bytes, index, planned->plan);
  ASSERT_TRUE(out.ok());
  std::uint64_t released = 0;
  auto stream = SegmentStream(bytes, *out, out->segments, "out",
                              [&](std::uint64_t begin, std::uint64_t end) {
                                EXPECT_LT(begin, end);
                                released += end - begin;
                              });
  std::vector<char> buf(1 << 16);
  std::uint64_t read = 0;
  for (;;) {
    auto n = stream->Read(buf.data(), buf.size());
    ASSERT_TRUE(n.ok());
    if (*n == 0) break;
    read += *n;
  }
  EXPECT_EQ(read, bytes.size());
  // All but the last span (under 4 MiB) went back.
  EXPECT_GE(released + (std::uint64_t{4} << 20), bytes.size());
}

TEST_F(EditTest, AStateThatDoesNotVerifyCanStillBeEdited) {
  // broken.json has a dependency that comes after its dependent, a missing
  // dependency and a missing parent: its own errors do not block an edit,
  // and the edit adds none.
  Request r = Delete({kS + "my:app:Orphan$my:app:Leaf::leaf"});
  Outcome o;
  std::string out = Edit("broken.json", r, &o);
  EXPECT_EQ(Urns(out).size(), 5u);
  EXPECT_TRUE(o.new_findings.empty());
}

TEST_F(EditTest, GzipInGzipOut) {
  Config config;
  config.request = Delete({kO});
  config.input = Fixture("example.json.gz");
  config.output = (dir_ / "out.json.gz").string();
  auto r = edit::Run(config);
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::string out = ReadAll(config.output);
  ASSERT_GE(out.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(out[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(out[1]), 0x8b);
  // Read back through the edit's own source.
  Config again;
  again.request = Delete({kW});
  again.input = config.output;
  again.output = (dir_ / "plain.json").string();
  auto r2 = edit::Run(again);
  ASSERT_TRUE(r2.ok()) << r2.status().message();
}

TEST_F(EditTest, InPlaceKeepsBackup) {
  fs::copy_file(Fixture("example.json"), dir_ / "s.json");
  Config config;
  config.request = Delete({kO});
  config.input = (dir_ / "s.json").string();
  config.in_place = true;
  auto r = edit::Run(config);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(ReadAll((dir_ / "s.json.bak").string()),
            ReadAll(Fixture("example.json")));
  EXPECT_EQ(Urns(ReadAll((dir_ / "s.json").string())).size(), 4u);
}

TEST_F(EditTest, DryRunWritesNothing) {
  Config config;
  config.request = Delete({kB}, true);
  config.input = Fixture("example.json");
  config.output = (dir_ / "never.json").string();
  config.dry_run = true;
  auto r = edit::Run(config);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(fs::exists(config.output));
  EXPECT_EQ(r->changes.resources.size(), 2u);
}

TEST_F(EditTest, RenameKeepsChildrenWhoseUrnsCarryTheParentType) {
  // A name-only rename keeps the qualified type, so a child that carries
  // it (O under W) keeps its URN; only its parent changes.
  Request r;
  r.op = Operation::kRename;
  r.urns = {kW};
  r.new_name = "site";
  Outcome o;
  std::string out = Edit("example.json", r, &o);
  EXPECT_EQ(Urns(out), (std::vector<std::string>{kR, kP, kB,
                                                 kS + "my:app:Web::site", kO}));
  EXPECT_NE(out.find("\"parent\": \"" + kS + "my:app:Web::site\""),
            std::string::npos);
  EXPECT_TRUE(o.notes.empty());
  EXPECT_TRUE(o.new_findings.empty());
}

TEST_F(EditTest, RenameGivesChildrenTheTypeTheirParentImplies) {
  // "part" is W's child but its URN lacks W's type (a parent-type-chain
  // warning): the rename recomputes it as Pulumi's does, its child "leaf"
  // follows, and the dependency on "leaf" is rewritten. "home" already
  // carries W's type and keeps its URN.
  Request r;
  r.op = Operation::kRename;
  r.urns = {kW};
  r.new_name = "site2";
  Outcome o;
  std::string out = Edit("child-type.json", r, &o);
  std::string part = kS + "my:app:Web$my:app:Part::part";
  std::string leaf = kS + "my:app:Web$my:app:Part$my:app:Leaf::leaf";
  EXPECT_EQ(Urns(out),
            (std::vector<std::string>{kR, kS + "my:app:Web::site2",
                                      kS + "my:app:Web$my:app:Page::home", part,
                                      leaf, kS + "my:app:Site::site"}));
  EXPECT_NE(out.find("\"" + leaf + "\",\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("proj::my:app:Part::part"), std::string::npos) << out;
  ASSERT_EQ(o.notes.size(), 2u);
  EXPECT_NE(o.notes[0].find("recomputed the URN of " + kS +
                            "my:app:Part$my:app:Leaf::leaf"),
            std::string::npos);
  EXPECT_TRUE(o.new_findings.empty());
}

TEST_F(EditTest, RenameRefusesAChildUrnThatExists) {
  // Recomputing "part" would give it the URN of an existing resource.
  std::string text = ReadAll(Fixture("child-type.json"));
  std::string taken = kS + "my:app:Web$my:app:Part::part";
  std::string site = "\"urn\": \"" + kS + "my:app:Site::site\"";
  text.replace(text.find(site), site.size(), "\"urn\": \"" + taken + "\"");
  text.replace(text.find("\"type\": \"my:app:Site\""),
               std::string("\"type\": \"my:app:Site\"").size(),
               "\"type\": \"my:app:Part\"");
  std::string path = (dir_ / "taken.json").string();
  std::ofstream(path) << text;
  Config config;
  config.request.op = Operation::kRename;
  config.request.urns = {kW};
  config.request.new_name = "other";
  config.input = path;
  config.output = (dir_ / "out.json").string();
  auto run = edit::Run(config);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_TRUE(run->refused);
  EXPECT_NE(run->refusal.find("which another resource already has"),
            std::string::npos)
      << run->refusal;
}

/// Pass 1 over a fixture: its index and report.
struct Indexed {
  std::string bytes;
  Index index;
  diag::Report before{"in"};
};

/// Adds a resource with `urn` (and `parent`, and "delete": true) to
/// `index`, as pass 1 would.
void Add(Index& index, const std::string& urn, const std::string& parent = "",
         bool del = false) {
  std::string text = "{\"urn\":\"" + urn + "\",\"type\":\"t\"";
  if (!parent.empty()) text += ",\"parent\":\"" + parent + "\"";
  if (del) text += ",\"delete\":true";
  text += "}";
  auto doc = json::Document::Parse(text);
  ASSERT_TRUE(doc.ok());
  index.AddResource(doc->root());
}

std::unique_ptr<Indexed> IndexText(std::string text) {
  auto out = std::make_unique<Indexed>();
  out->bytes = std::move(text);
  auto input = io::MemoryInput(out->bytes, "in");
  verify::Verifier verifier;
  Indexer indexer(out->index);
  state::Tee tee(verifier, indexer);
  EXPECT_TRUE(state::Read(*input, tee, out->before).ok());
  return out;
}

std::unique_ptr<Indexed> IndexFixture(const std::string& name) {
  auto out = std::make_unique<Indexed>();
  out->bytes = ReadAll(Fixture(name));
  auto input = io::MemoryInput(out->bytes, "in");
  verify::Verifier verifier;
  Indexer indexer(out->index);
  state::Tee tee(verifier, indexer);
  EXPECT_TRUE(state::Read(*input, tee, out->before).ok());
  return out;
}

/// The codes and URNs of `findings`, sorted.
std::vector<std::string> Keys(const std::vector<diag::Finding>& findings) {
  std::vector<std::string> out;
  for (const diag::Finding& f : findings) {
    out.push_back(std::string(diag::Info(f.code).name) + " " + f.urn);
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// The errors `plan` adds, through the check document and through the
/// whole output: they must agree.
std::vector<std::string> AddedBothWays(const Indexed& in, const Plan& plan,
                                       std::size_t* stubs) {
  auto full = Assemble(in.bytes, in.index, plan);
  auto checked = Assemble(in.bytes, in.index, plan, {}, true);
  EXPECT_TRUE(full.ok() && checked.ok());
  if (!full.ok() || !checked.ok()) return {};
  EXPECT_TRUE(full->check_segments.empty());
  EXPECT_FALSE(checked->check_segments.empty());
  *stubs = static_cast<std::size_t>(
      std::count(checked->stub.begin(), checked->stub.end(), true));
  InputFindings before;
  for (const diag::Finding& f : in.before.findings()) before.Add(f);
  InputFindings again = before;  // AddedErrors takes the keys it is given
  auto a = AddedErrors(in.bytes, in.index, plan, *full, before, "in");
  EXPECT_TRUE(before.errors.empty());
  auto b = AddedErrors(in.bytes, in.index, plan, *checked, again, "in");
  EXPECT_TRUE(a.ok() && b.ok());
  if (!a.ok() || !b.ok()) return {};
  EXPECT_EQ(Keys(*a), Keys(*b));
  return Keys(*b);
}

TEST(CheckDocumentTest, FindsWhatTheWholeOutputHasAndStubsTheRest) {
  auto in = IndexFixture("example.json");
  ASSERT_EQ(in->index.resources_list.size(), 5u);
  ASSERT_EQ(in->index.resources_pointer, "/deployment/resources");
  auto plan_for = [&](Request r) {
    auto p = MakePlan(in->index, r);
    EXPECT_TRUE(p.ok() && !p->refused);
    return p.ok() ? p->plan : Plan{};
  };
  std::size_t stubs = 0;
  // Deleting a leaf: nothing names it, every kept resource is a stub.
  EXPECT_TRUE(AddedBothWays(*in, plan_for(Delete({kO})), &stubs).empty());
  EXPECT_EQ(stubs, 4u);
  // Deleting B and its dependent O: R, P, W name neither.
  EXPECT_TRUE(AddedBothWays(*in, plan_for(Delete({kB}, true)), &stubs).empty());
  EXPECT_EQ(stubs, 3u);
  // Renaming P rewrites B and O (provider references); R, W are stubs.
  Request rename;
  rename.op = Operation::kRename;
  rename.urns = {kP};
  rename.new_name = "main";
  EXPECT_TRUE(AddedBothWays(*in, plan_for(rename), &stubs).empty());
  EXPECT_EQ(stubs, 2u);
  // Protecting W rewrites W alone.
  Request protect;
  protect.op = Operation::kProtect;
  protect.urns = {kW};
  EXPECT_TRUE(AddedBothWays(*in, plan_for(protect), &stubs).empty());
  EXPECT_EQ(stubs, 4u);
}

TEST(CheckDocumentTest, AResourceNamingARemovedUrnIsReadAgain) {
  // Plans the planner would refuse: B dropped without O (O's dependency
  // and property dependency now name nothing), and P dropped (B's and O's
  // provider references name nothing). The errors are found on O and B
  // though R and W stand as stubs.
  auto in = IndexFixture("example.json");
  Plan plan;
  plan.drop = {false, false, true, false, false};
  plan.pending.resize(in->index.pending.size());
  std::size_t stubs = 0;
  EXPECT_EQ(AddedBothWays(*in, plan, &stubs),
            (std::vector<std::string>{"dependency-missing " + kO,
                                      "dependency-missing " + kO}));
  EXPECT_EQ(stubs, 3u);
  plan.drop = {false, true, false, false, false};
  EXPECT_EQ(AddedBothWays(*in, plan, &stubs),
            (std::vector<std::string>{"provider-unknown " + kB,
                                      "provider-unknown " + kO}));
  EXPECT_EQ(stubs, 2u);
}

TEST(CheckDocumentTest, PropertyResourceReferencesAreReadAgain) {
  // rich.json: W's outputs hold a resource reference to B. Deleting B
  // with its dependents keeps W, which must be read again (its reference
  // now dangles: a warning, so no new error).
  auto in = IndexFixture("rich.json");
  Request r = Delete({kB}, true);
  r.force = true;  // B is protected
  auto planned = MakePlan(in->index, r);
  ASSERT_TRUE(planned.ok() && !planned->refused);
  auto checked =
      Assemble(in->bytes, in->index, planned->plan, {}, /*check=*/true);
  ASSERT_TRUE(checked.ok());
  std::size_t w = 0;
  for (std::size_t i = 0, k = 0; i < in->index.resources_list.size(); ++i) {
    if (planned->plan.drop[i]) continue;
    if (in->index.Urn(i) == kW) w = k;
    ++k;
  }
  ASSERT_LT(w, checked->stub.size());
  EXPECT_FALSE(checked->stub[w]);
  std::size_t stubs = 0;
  AddedBothWays(*in, planned->plan, &stubs);
}

/// A state of R (the stack), B (a bucket) and W, whose outputs hold
/// `value` (JSON text).
std::string StateWithOutput(const std::string& value) {
  return "{\"version\":3,\"deployment\":{\"manifest\":{\"time\":"
         "\"2024-01-01T00:00:00Z\",\"magic\":\"\",\"version\":\"v3.100.0\"},"
         "\"resources\":[{\"urn\":\"" +
         kR +
         "\",\"custom\":false,\"type\":\"pulumi:pulumi:Stack\"},"
         "{\"urn\":\"" +
         kB +
         "\",\"custom\":false,\"type\":\"aws:s3/bucket:Bucket\","
         "\"parent\":\"" +
         kR +
         "\"},"
         "{\"urn\":\"" +
         kW + "\",\"custom\":false,\"type\":\"my:app:Web\",\"parent\":\"" + kR +
         "\",\"outputs\":{\"v\":" + value + "}}]}}";
}

const std::string kRefSig =
    "\"4dabf18193072939515e22adb298388d\":\"5cf8f73096256a8f31e491e813e4eb8e\"";

TEST(CheckDocumentTest, APlaintextReferenceIsNotVisibleAndDoesNotMatter) {
  // W's only reference to B is inside a secret's plaintext: pass 1 does
  // not list it (a string's bytes), so deleting B stubs W. The full output
  // gives W a resource-ref-dangling finding the check document does not:
  // a warning, which the gate does not compare, so both ways agree.
  std::string plaintext =
      "{\\\"4dabf18193072939515e22adb298388d\\\":"
      "\\\"5cf8f73096256a8f31e491e813e4eb8e\\\","
      "\\\"urn\\\":\\\"" +
      kB + "\\\"}";
  auto in = IndexText(
      StateWithOutput("{\"4dabf18193072939515e22adb298388d\":"
                      "\"1b47061264138c4ac30d75fd1eb44270\",\"plaintext\":\"" +
                      plaintext + "\"}"));
  ASSERT_EQ(in->index.resources_list.size(), 3u);
  EXPECT_TRUE(in->index.PropertyRefs(in->index.resources_list[2]).empty());
  EXPECT_EQ(diag::Info(diag::Code::kResourceRefDangling).severity,
            diag::Severity::kWarning);
  auto planned = MakePlan(in->index, Delete({kB}));
  ASSERT_TRUE(planned.ok() && !planned->refused) << planned->refusal;
  auto checked = Assemble(in->bytes, in->index, planned->plan, {}, true);
  ASSERT_TRUE(checked.ok());
  EXPECT_EQ(checked->stub, (std::vector<bool>{true, true}));
  std::size_t stubs = 0;
  EXPECT_TRUE(AddedBothWays(*in, planned->plan, &stubs).empty());
  // The full output does warn about the plaintext reference.
  auto full = Assemble(in->bytes, in->index, planned->plan);
  ASSERT_TRUE(full.ok());
  diag::Report after("out");
  auto stream = SegmentStream(in->bytes, *full, full->segments, "out");
  verify::Verifier verifier;
  ASSERT_TRUE(state::Read(*stream, verifier, after).ok());
  bool warned = false;
  for (const diag::Finding& f : after.findings()) {
    if (f.code == diag::Code::kResourceRefDangling) warned = true;
  }
  EXPECT_TRUE(warned);
}

TEST(CheckDocumentTest, APropertyReferenceFoundInPassOneIsReadAgain) {
  // The same reference as an object: listed in pass 1, so W is read again.
  auto in = IndexText(
      StateWithOutput("[1,{\"x\":{" + kRefSig + ",\"urn\":\"" + kB + "\"}}]"));
  ASSERT_EQ(in->index.resources_list.size(), 3u);
  auto refs = in->index.PropertyRefs(in->index.resources_list[2]);
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_EQ(in->index.Text(refs[0]), kB);
  auto planned = MakePlan(in->index, Delete({kB}));
  ASSERT_TRUE(planned.ok() && !planned->refused) << planned->refusal;
  auto checked = Assemble(in->bytes, in->index, planned->plan, {}, true);
  ASSERT_TRUE(checked.ok());
  EXPECT_EQ(checked->stub, (std::vector<bool>{true, false}));
  std::size_t stubs = 0;
  EXPECT_TRUE(AddedBothWays(*in, planned->plan, &stubs).empty());
  // A rename of B rewrites the reference in W.
  Request rename;
  rename.op = Operation::kRename;
  rename.urns = {kB};
  rename.new_name = "audit";
  auto renamed = MakePlan(in->index, rename);
  ASSERT_TRUE(renamed.ok() && !renamed->refused);
  auto out = Assemble(in->bytes, in->index, renamed->plan);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->changes.resources.size(), 2u);
  EXPECT_EQ(out->changes.resources[1].what, kW);
}

TEST(IndexTest, StringTableInternsEachStringOnce) {
  StringTable table;
  EXPECT_EQ(table.Find("a"), kNoStr);
  StrId a = table.Intern("a");
  StrId b = table.Intern("b");
  EXPECT_NE(a, b);
  EXPECT_EQ(table.Intern("a"), a);
  EXPECT_EQ(table.Find("b"), b);
  StrId empty = table.Intern("");
  EXPECT_EQ(table.Find(""), empty);
  EXPECT_EQ(table.View(empty), "");
  EXPECT_EQ(table.View(kNoStr), "");
  // Past several growths every string keeps its id and bytes.
  std::vector<StrId> ids;
  ids.reserve(5000);
  for (int i = 0; i < 5000; ++i) {
    ids.push_back(table.Intern(kS + "t::n" + std::to_string(i)));
  }
  EXPECT_EQ(table.size(), 5003u);
  for (int i = 0; i < 5000; ++i) {
    std::string text = kS + "t::n" + std::to_string(i);
    EXPECT_EQ(table.Find(text), ids[static_cast<std::size_t>(i)]);
    EXPECT_EQ(table.View(ids[static_cast<std::size_t>(i)]), text);
  }
  EXPECT_EQ(table.View(a), "a");
  // An added string is read by id only: Find and Intern do not see it.
  StrId added = table.Add("i-1");
  EXPECT_EQ(table.View(added), "i-1");
  EXPECT_EQ(table.Find("i-1"), kNoStr);
  EXPECT_NE(table.Intern("i-1"), added);
  EXPECT_GT(table.memory(), 0u);
}

TEST(IndexTest, DuplicatesShareOneUrnIdInInputOrder) {
  Index index;
  Add(index, kW, "", true);
  Add(index, kR);
  Add(index, kW);
  Add(index, kW, "", true);
  EXPECT_EQ(index.resources_list[0].urn, index.resources_list[2].urn);
  EXPECT_EQ(index.Find(kW), (std::vector<std::size_t>{0, 2, 3}));
  EXPECT_EQ(index.Live(kW), (std::vector<std::size_t>{2}));
  EXPECT_TRUE(index.Find(kO).empty());
  EXPECT_TRUE(index.IsFirstCopy(0));
  EXPECT_FALSE(index.IsFirstCopy(2));
  EXPECT_TRUE(index.HasResource(index.resources_list[1].urn));
  EXPECT_EQ(Suggest(index, kW + "x"), (std::vector<std::string>{kW}));
  // A repeated resources member starts over.
  index.ClearResources();
  EXPECT_TRUE(index.Find(kW).empty());
  Add(index, kO);
  EXPECT_EQ(index.Find(kO), (std::vector<std::size_t>{0}));
}

TEST(IndexTest, ReferencesAreIdsOfEveryField) {
  std::string text =
      "{\"urn\":\"" + kO + "\",\"type\":\"aws:s3/bucketObject:BucketObject\"," +
      "\"custom\":true,\"id\":\"i-1\",\"parent\":\"" + kW +
      "\",\"dependencies\":[\"" + kB + "\",\"\",7],\"provider\":\"" + kP +
      "::p-1\",\"propertyDependencies\":{\"a\":[\"" + kB + "\"],\"b\":[\"" +
      kR + "\"]},\"deletedWith\":\"" + kB + "\",\"replaceWith\":[\"" + kW +
      "\"],\"aliases\":[\"" + kS + "t::old\"],\"viewOf\":\"" + kR +
      "\",\"protect\":true,\"delete\":true,\"inputs\":{\"r\":{" + kRefSig +
      ",\"urn\":\"" + kR + "\"}}}";
  auto doc = json::Document::Parse(text);
  ASSERT_TRUE(doc.ok());
  Index index;
  index.AddResource(doc->root(), {10, 20});
  const ResourceEntry& r = index.resources_list[0];
  EXPECT_EQ(index.Text(r.urn), kO);
  EXPECT_EQ(index.Text(r.id), "i-1");
  EXPECT_EQ(index.Text(r.provider), kP + "::p-1");
  EXPECT_TRUE(r.custom && r.protect && r.del && !r.taint);
  EXPECT_EQ(index.Range(0).begin, 10u);
  std::vector<std::string> seen;
  ForEachReference(index, r, [&](RefKind kind, StrId id) {
    seen.push_back(std::string(state::RefKindName(kind)) + " " +
                   std::string(index.Text(id)));
  });
  EXPECT_EQ(
      seen,
      (std::vector<std::string>{
          "parent " + kW, "dependencies " + kB, "propertyDependencies " + kB,
          "propertyDependencies " + kR, "deletedWith " + kB,
          "replaceWith " + kW, "provider " + kP, "aliases " + kS + "t::old",
          "viewOf " + kR, "inputs/outputs " + kR}));
  // One id per distinct URN: kB is named three times, stored once.
  EXPECT_EQ(index.strings.Find(kB), index.Dependencies(r)[0]);
  EXPECT_EQ(index.strings.Find(kB), r.deleted_with);
  EXPECT_GT(index.memory(), 0u);
}

TEST(CheckDocumentTest, AReorderingEditVerifiesTheWholeOutput) {
  auto in = IndexFixture("example.json");
  Request r;
  r.op = Operation::kReparent;
  r.urns = {kB};
  r.new_parent = kW;
  auto planned = MakePlan(in->index, r);
  ASSERT_TRUE(planned.ok() && !planned->refused);
  ASSERT_FALSE(planned->plan.order.empty());
  auto checked = Assemble(in->bytes, in->index, planned->plan, {}, true);
  ASSERT_TRUE(checked.ok());
  EXPECT_TRUE(checked->check_segments.empty());
  EXPECT_TRUE(checked->stub.empty());
}

TEST(VerifyGateTest, OnlyNewErrorsCount) {
  auto finding = [](diag::Code code, std::string urn) {
    diag::Finding f;
    f.code = code;
    f.severity = diag::Severity::kError;
    f.message = "m";
    f.urn = std::move(urn);
    return f;
  };
  diag::Report before("in"), after("out");
  before.Add(finding(diag::Code::kDependencyMissing, kO));
  before.Add(finding(diag::Code::kProviderUnknown, kB));
  // The same problem on the renamed resource is not new; a second copy of
  // a problem and a problem on another resource are.
  after.Add(finding(diag::Code::kDependencyMissing, kO));
  after.Add(finding(diag::Code::kProviderUnknown,
                    kS + "aws:s3/bucket:Bucket::audit"));
  after.Add(finding(diag::Code::kProviderUnknown,
                    kS + "aws:s3/bucket:Bucket::audit"));
  after.Add(finding(diag::Code::kDependencyOrder, kW));
  diag::Finding warning = finding(diag::Code::kParentTypeChain, kW);
  warning.severity = diag::Severity::kWarning;
  after.Add(warning);
  auto added =
      NewErrors(before, after, {{kB, kS + "aws:s3/bucket:Bucket::audit"}});
  ASSERT_EQ(added.size(), 2u);
  EXPECT_EQ(added[0].code, diag::Code::kProviderUnknown);
  EXPECT_EQ(added[1].code, diag::Code::kDependencyOrder);
}

TEST(PlanTest, TopologicalOrderKeepsAValidOrder) {
  Index index;
  for (const std::string& urn : {kR, kP, kB}) {
    Add(index, urn, urn == kB ? kR : "");
  }
  auto order = TopologicalOrder(index, {}, nullptr);
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(*order, (std::vector<std::size_t>{0, 1, 2}));
}

TEST(PlanTest, TopologicalOrderMovesDependentsDown) {
  Index index;
  Add(index, kO, kW);  // 0 needs 2
  Add(index, kR, "");  // 1
  Add(index, kW, kR);  // 2 needs 1
  Add(index, kB, kR);  // 3
  auto order = TopologicalOrder(index, {}, nullptr);
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(*order, (std::vector<std::size_t>{1, 2, 0, 3}));
}

TEST(PlanTest, CycleIsAnError) {
  Index index;
  for (auto [urn, parent] : {std::pair{kW, kO}, std::pair{kO, kW}}) {
    Add(index, urn, parent);
  }
  EXPECT_FALSE(TopologicalOrder(index, {}, nullptr).ok());
}

TEST(PlanTest, DependentsAreTransitiveAndSkipLiveCopies) {
  Index index;
  Add(index, kR, "");
  Add(index, kW, kR);
  Add(index, kW, kR, true);  // a pending-delete copy of W
  Add(index, kO, kW);
  EXPECT_EQ(Dependents(index, {0}), (std::vector<std::size_t>{1, 2, 3}));
  // Deleting one copy of W leaves O's parent resolvable.
  EXPECT_TRUE(Dependents(index, {2}).empty());
}

/// A resource `name` with `dependencies` (URNs) and optional id / delete.
void AddDeps(Index& index, const std::string& name,
             const std::vector<std::string>& deps, const std::string& id = "",
             bool del = false) {
  std::string text =
      "{\"urn\":\"" + kS + "t:m:T::" + name + "\",\"type\":\"t:m:T\"";
  if (!id.empty()) text += ",\"id\":\"" + id + "\"";
  if (del) text += ",\"delete\":true";
  text += ",\"dependencies\":[";
  for (std::size_t i = 0; i < deps.size(); ++i) {
    text += (i ? ",\"" : "\"") + kS + "t:m:T::" + deps[i] + "\"";
  }
  text += "]}";
  auto doc = json::Document::Parse(text);
  ASSERT_TRUE(doc.ok());
  index.AddResource(doc->root());
}

TEST(PlanTest, OnlyDependsOnCountsByPosition) {
  // [t, x(new, deps t), y(deps x), x(old, delete)]: the pending-delete
  // copy after y does not answer y's reference, so y goes with x.
  Index index;
  AddDeps(index, "t", {});
  AddDeps(index, "x", {"t"}, "x-new");
  AddDeps(index, "y", {"x"});
  AddDeps(index, "x", {}, "x-old", true);
  std::vector<bool> gone(4, false);
  EXPECT_EQ(OnlyDependsOn(index, 0, gone), (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(Dependents(index, {0}), (std::vector<std::size_t>{1, 2}));
  // A copy of x before the referrer answers it: y stays.
  Index before;
  AddDeps(before, "t", {});
  AddDeps(before, "x", {}, "x-old", true);
  AddDeps(before, "x", {"t"}, "x-new");
  AddDeps(before, "y", {"x"});
  EXPECT_EQ(Dependents(before, {0}), (std::vector<std::size_t>{2}));
}

TEST(PlanTest, RepairOrderPullsDependenciesUp) {
  // [a(deps c), q, c] -> [c, a, q], as Pulumi's Toposort gives it.
  Index index;
  AddDeps(index, "a", {"c"});
  AddDeps(index, "q", {});
  AddDeps(index, "c", {});
  auto order = RepairOrder(index);
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(*order, (std::vector<std::size_t>{2, 0, 1}));
  // Two unvisited dependencies: the lower position first.
  Index two;
  AddDeps(two, "a", {"d", "c"});
  AddDeps(two, "c", {});
  AddDeps(two, "d", {});
  order = RepairOrder(two);
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(*order, (std::vector<std::size_t>{1, 2, 0}));
}

TEST(PlanTest, RepairOrderOfALongReversedChainNeedsNoRecursion) {
  Index index;
  constexpr std::size_t kN = 50000;
  for (std::size_t i = kN; i-- > 0;) {
    std::vector<std::string> deps;
    if (i > 0) deps.push_back("r" + std::to_string(i - 1));
    AddDeps(index, "r" + std::to_string(i), deps);
  }
  auto order = RepairOrder(index);
  ASSERT_TRUE(order.ok());
  ASSERT_EQ(order->size(), kN);
  for (std::size_t k = 0; k < kN; ++k) EXPECT_EQ((*order)[k], kN - 1 - k);
}

TEST(PlanTest, RepairOrderNamesACycle) {
  Index index;
  AddDeps(index, "a", {"b"});
  AddDeps(index, "b", {"a"});
  auto order = RepairOrder(index);
  ASSERT_FALSE(order.ok());
  EXPECT_NE(order.status().message().find("t:m:T::a"), std::string::npos);
  EXPECT_NE(order.status().message().find("t:m:T::b"), std::string::npos);
}

TEST(PlanTest, UrnUnderParent) {
  EXPECT_EQ(UrnUnderParent(kB, kW),
            kS + "my:app:Web$aws:s3/bucket:Bucket::logs");
  EXPECT_EQ(UrnUnderParent(kO, kR),
            kS + "aws:s3/bucketObject:BucketObject::index");
  EXPECT_EQ(UrnUnderParent(kO, ""),
            kS + "aws:s3/bucketObject:BucketObject::index");
}

TEST(SpliceTest, SerializeFollowsTheElementLayout) {
  auto doc = json::Document::Parse("{\"a\":[1,{\"b\":true}]}");
  ASSERT_TRUE(doc.ok());
  Layout layout;
  layout.prefix = "\t";
  layout.unit = "\t";
  EXPECT_EQ(Serialize(doc->root(), layout),
            "{\n\t\t\"a\": [\n\t\t\t1,\n\t\t\t{\n\t\t\t\t\"b\": true\n\t\t\t}\n"
            "\t\t]\n\t}");
  layout.indented = false;
  EXPECT_EQ(Serialize(doc->root(), layout), "{\"a\":[1,{\"b\":true}]}");
}

TEST(SpliceTest, DetectLayout) {
  std::string text = "[\n  {\n    \"a\": 1\n  }\n]";
  Layout l = DetectLayout(text, {4, 18}, json::EscapeStyle::kExport);
  EXPECT_TRUE(l.indented);
  EXPECT_EQ(l.prefix, "  ");
  EXPECT_EQ(l.unit, "  ");
}

}  // namespace
}  // namespace pstate::edit

namespace pstate::edit {
namespace {

// ---- selections -------------------------------------------------------------

TEST(SelectTest, NamesFiltersAndUrnsEachOnceArgumentsFirst) {
  auto in = IndexFixture("example.json");
  state::Selector select;
  select.type = "aws:*";
  Selection s = Select(in->index, {"web", kO}, select);
  ASSERT_FALSE(s.refused) << s.refusal;
  EXPECT_TRUE(s.shown);
  EXPECT_EQ(s.urns, (std::vector<std::string>{kW, kO, kB}));
}

TEST(SelectTest, ExactUrnsAloneAreNotShown) {
  auto in = IndexFixture("example.json");
  Selection s = Select(in->index, {kB}, {});
  EXPECT_FALSE(s.refused);
  EXPECT_FALSE(s.shown);
}

TEST(SelectTest, AnAmbiguousOrUnknownNameAndAnEmptySelectionAreRefused) {
  auto same = IndexFixture("same-name.json");
  Selection a = Select(same->index, {"logs"}, {});
  EXPECT_TRUE(a.refused);
  EXPECT_NE(a.refusal.find("ambiguous"), std::string::npos);
  auto in = IndexFixture("example.json");
  EXPECT_TRUE(Select(in->index, {"nosuch"}, {}).refused);
  state::Selector none;
  none.flags = {state::Flag::kProtect};
  Selection e = Select(in->index, {}, none);
  EXPECT_TRUE(e.refused);
  EXPECT_NE(e.refusal.find("matches no resource"), std::string::npos);
}

TEST(SelectTest, FiltersMatchWhatLsMatches) {
  auto in = IndexFixture("example.json");
  state::Selector select;
  select.parent = kR;
  select.name = "w*";
  Selection s = Select(in->index, {}, select);
  EXPECT_EQ(s.urns, (std::vector<std::string>{kW}));
  select = {};
  select.provider = "*default_6_0_0::p1";
  EXPECT_EQ(Select(in->index, {}, select).urns,
            (std::vector<std::string>{kB, kO}));
}

// ---- extract ----------------------------------------------------------------

TEST_F(EditTest, ExtractKeepsParentsAndProvidersAndPrunesTheRest) {
  Request r;
  r.op = Operation::kExtract;
  r.urns = {kO};
  std::string out = Edit("example.json", r);
  EXPECT_EQ(Urns(out), (std::vector<std::string>{kR, kP, kW, kO}));
  EXPECT_EQ(out.find("\"dependencies\""), std::string::npos);
  r.with_dependencies = true;
  EXPECT_EQ(Urns(Edit("example.json", r)),
            (std::vector<std::string>{kR, kP, kB, kW, kO}));
}

// ---- move -------------------------------------------------------------------

class MoveTest : public EditTest {
 protected:
  /// Copies fixture `name` into the test directory.
  std::string Copy(const std::string& name) {
    fs::path to = dir_ / name;
    fs::copy_file(Fixture(name), to, fs::copy_options::overwrite_existing);
    return to.string();
  }
  Result<MoveOutcome> Run(const std::string& dest,
                          std::vector<std::string> urns, bool dry = false) {
    MoveConfig config;
    config.source = Copy("example.json");
    config.destination = Copy(dest);
    config.request.urns = std::move(urns);
    config.dry_run = dry;
    return Move(config);
  }
};

const std::string kD = "urn:pulumi:prod::proj::";

TEST_F(MoveTest, BothFilesAreWrittenWithBackups) {
  auto r = Run("move-dest.json", {kW, kB});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_FALSE(r->refused) << r->refusal;
  EXPECT_TRUE(r->source.written && r->destination.written);
  std::string src = ReadAll((dir_ / "example.json").string());
  std::string dst = ReadAll((dir_ / "move-dest.json").string());
  EXPECT_EQ(Urns(src), (std::vector<std::string>{kR, kP}));
  EXPECT_EQ(Urns(dst),
            (std::vector<std::string>{
                kD + "pulumi:pulumi:Stack::proj-prod",
                kD + "pulumi:providers:aws::default_6_0_0",
                kD + "aws:s3/bucket:Bucket::logs", kD + "my:app:Web::web",
                kD + "my:app:Web$aws:s3/bucketObject:BucketObject::index"}));
  EXPECT_NE(dst.find("\"provider\": \"" + kD +
                     "pulumi:providers:aws::default_6_0_0::p1\""),
            std::string::npos);
  EXPECT_EQ(dst.find("urn:pulumi:dev::"), std::string::npos);
  EXPECT_EQ(ReadAll((dir_ / "example.json.bak").string()),
            ReadAll(Fixture("example.json")));
  EXPECT_EQ(ReadAll((dir_ / "move-dest.json.bak").string()),
            ReadAll(Fixture("move-dest.json")));
}

TEST_F(MoveTest, ARefusalOrADryRunWritesNeither) {
  auto broken = Run("move-dest.json", {kW});
  ASSERT_TRUE(broken.ok());
  EXPECT_TRUE(broken->refused);
  EXPECT_NE(broken->refusal.find("(moving) depends on " + kB + " (staying)"),
            std::string::npos);
  auto dry = Run("move-dest.json", {kW, kB}, true);
  ASSERT_TRUE(dry.ok());
  EXPECT_FALSE(dry->refused);
  EXPECT_FALSE(dry->source.written);
  EXPECT_EQ(ReadAll((dir_ / "example.json").string()),
            ReadAll(Fixture("example.json")));
  EXPECT_EQ(ReadAll((dir_ / "move-dest.json").string()),
            ReadAll(Fixture("move-dest.json")));
  EXPECT_FALSE(fs::exists(dir_ / "example.json.bak"));
}

TEST_F(MoveTest, AProviderWithTheSameInputsIsReusedUnderItsId) {
  auto r = Run("move-dest-same-provider.json", {kW, kB});
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(r->refused) << r->refusal;
  std::string dst = ReadAll((dir_ / "move-dest-same-provider.json").string());
  EXPECT_NE(dst.find("default_6_0_0::p9\""), std::string::npos);
  EXPECT_EQ(dst.find("default_6_0_0::p1\""), std::string::npos);
  EXPECT_EQ(Urns(dst).size(), 5U);  // root, its provider, the three moved
}

TEST_F(MoveTest, ConflictsAreRefused) {
  auto provider = Run("move-dest-conflict.json", {kW, kB});
  ASSERT_TRUE(provider.ok());
  EXPECT_TRUE(provider->refused);
  EXPECT_NE(provider->refusal.find("already exists in destination stack"),
            std::string::npos);
  auto web = Run("move-dest-has-web.json", {kW, kB});
  ASSERT_TRUE(web.ok());
  EXPECT_TRUE(web->refused);
  EXPECT_NE(web->refusal.find("resource " + kD + "my:app:Web::web already"),
            std::string::npos);
  auto named = Run("move-dest.json", {kP});
  ASSERT_TRUE(named.ok());
  EXPECT_TRUE(named->refused);
  EXPECT_NE(named->refusal.find("cannot move providers"), std::string::npos);
}

// A destination without resources (a fresh `pulumi stack init` export has
// no resources member at all): its stack and project come from the
// request, else from its checkpoint's "stack"; both files are written.
TEST_F(MoveTest, AFreshDestinationGetsAResourcesArray) {
  const std::string fresh =
      "{\n    \"version\": 3,\n    \"deployment\": {\n        \"manifest\": "
      "{\n            \"time\": \"2024-01-01T00:00:00Z\",\n            "
      "\"magic\": "
      "\"fab95cc1ec33ad4842e4ce440b669bd522c568e8a7a8934e58ff24ba38128033\","
      "\n            \"version\": \"v3.200.0\"\n        },\n        "
      "\"metadata\": {}\n    }\n}\n";
  MoveConfig config;
  config.source = Copy("example.json");
  config.destination = (dir_ / "fresh.json").string();
  std::ofstream(config.destination, std::ios::binary) << fresh;
  config.request.urns = {kW, kB};
  auto unnamed = Move(config);
  ASSERT_TRUE(unnamed.ok()) << unnamed.status().message();
  EXPECT_TRUE(unnamed->refused);
  EXPECT_NE(unnamed->refusal.find("give --stack and --project"),
            std::string::npos);

  config.request.dest_stack = "prod";
  config.request.dest_project = "proj";
  auto r = Move(config);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_FALSE(r->refused) << r->refusal;
  EXPECT_TRUE(r->destination.written);
  std::string dst = ReadAll(config.destination);
  EXPECT_EQ(Urns(dst).front(), kD + "pulumi:pulumi:Stack::proj-prod");
  EXPECT_EQ(Urns(dst).size(), 5U);
  EXPECT_NE(dst.find("        },\n        \"resources\": [\n            {\n"),
            std::string::npos);
  // The typed result: what moved, which provider was copied.
  ASSERT_EQ(r->moved.size(), 3U);
  EXPECT_EQ(r->moved[0].first, kB);
  EXPECT_EQ(r->moved[0].second, kD + "aws:s3/bucket:Bucket::logs");
  ASSERT_EQ(r->providers_copied.size(), 1U);
  EXPECT_TRUE(r->providers_reused.empty());

  // A checkpoint names its stack: "organization/<project>/<stack>".
  config.source = Copy("example.json");
  config.request.dest_stack.clear();
  config.request.dest_project.clear();
  std::ofstream(config.destination, std::ios::binary)
      << "{\"version\":3,\"checkpoint\":{\"stack\":\"organization/app/"
         "qa\",\"latest\":{\"manifest\":{\"time\":\"2024-01-01T00:00:00Z\","
         "\"magic\":\"fab95cc1ec33ad4842e4ce440b669bd522c568e8a7a8934e58ff24"
         "ba38128033\",\"version\":\"v3.200.0\"}}}}";
  auto named = Move(config);
  ASSERT_TRUE(named.ok()) << named.status().message();
  ASSERT_FALSE(named->refused) << named->refusal;
  EXPECT_EQ(Urns(ReadAll(config.destination)).front(),
            "urn:pulumi:qa::app::pulumi:pulumi:Stack::app-qa");
}

TEST_F(MoveTest, ARefusedMoveListsTheBrokenDependencies) {
  auto r = Run("move-dest.json", {kW});
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->refused);
  ASSERT_EQ(r->broken.size(), 1U);
  EXPECT_EQ(r->broken[0].target, kB);
  EXPECT_TRUE(r->broken[0].moving);
}

// ---- S3: rewritten resources are rendered, never held
// ------------------------

TEST(SpliceTest, RewrittenResourcesAreSegmentsNotText) {
  auto in = IndexFixture("example.json");
  Request r;
  r.op = Operation::kProtect;
  r.all = true;
  auto planned = MakePlan(in->index, r);
  ASSERT_TRUE(planned.ok());
  auto out = Assemble(in->bytes, in->index, planned->plan, {}, true);
  ASSERT_TRUE(out.ok());
  std::size_t rendered = 0, text = 0;
  for (const Segment& s : out->segments) {
    if (s.is_resource) ++rendered;
    if (s.is_text) text += s.text.size();
    EXPECT_LE(sizeof s, 32U);
  }
  EXPECT_EQ(rendered, 5U);
  EXPECT_LT(text, 16U);  // separators at most, no resource's text
  // Streamed, the output is what the edit writes.
  auto stream = SegmentStream(in->bytes, *out, out->segments, "out");
  std::string streamed;
  char buf[7];
  for (;;) {
    auto n = stream->Read(buf, sizeof buf);
    ASSERT_TRUE(n.ok());
    if (*n == 0) break;
    streamed.append(buf, *n);
  }
  EXPECT_EQ(std::count(streamed.begin(), streamed.end(), '\n'),
            std::count(in->bytes.begin(), in->bytes.end(), '\n') + 5);
  EXPECT_EQ(Urns(streamed).size(), 5U);
}

// The first read (the index) hands the reader's progress to the caller;
// the total is the input's size.
TEST_F(EditTest, ReportsProgress) {
  Config config;
  config.request = Delete({"urn:pulumi:s::p::t:m:R::r7"});
  config.input = (dir_ / "big.json").string();
  std::ofstream(config.input, std::ios::binary) << testing::BigState();
  config.output = (dir_ / "out.json").string();
  std::uint64_t calls = 0, total = 0;
  config.on_progress = [&](std::uint64_t, std::uint64_t size) {
    ++calls;
    total = size;
  };
  auto r = edit::Run(config);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_GT(calls, 0u);
  EXPECT_EQ(total, fs::file_size(config.input));
}

}  // namespace
}  // namespace pstate::edit
