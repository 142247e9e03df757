// The Auditor over a whole state read from memory: every item reaches the
// sink once, in state order, whatever the number of threads; statuses map
// to finding codes; OrderedHandler keeps one order for all findings.
#include "assets/auditor.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/sha256.h"
#include "io/input.h"
#include "state/reader.h"

namespace pstate::assets {
namespace {

const std::string kAsset =
    R"("4dabf18193072939515e22adb298388d":"c44067f5952c0a294b673a41bacd8c17")";
const std::string kArchive =
    R"("4dabf18193072939515e22adb298388d":"0def7320c3a5731c473e5ecbe6d01bc7")";

std::string Sha(const std::string& s) {
  Sha256 sha;
  sha.Update(s);
  return sha.FinishHex();
}

std::string Urn(int i) {
  return "urn:pulumi:dev::p::t:m:R::r" + std::to_string(i);
}

// `n` resources, each with one text asset; every third one mismatches.
std::string ManyAssets(int n) {
  std::string s = R"({"version":3,"deployment":{"resources":[)";
  for (int i = 0; i < n; ++i) {
    if (i > 0) s += ',';
    std::string text = "content " + std::to_string(i);
    std::string hash = i % 3 == 2 ? Sha(text + "!") : Sha(text);
    s += R"({"urn":")" + Urn(i) +
         R"(","type":"t:m:R","custom":true,"inputs":{"f":{)" + kAsset +
         R"(,"text":")" + text + R"(","hash":")" + hash + R"("}}})";
  }
  return s + "]}}";
}

struct Collected {
  std::vector<ItemResult> results;
  Status status;
};

Collected AuditState(const std::string& state, int jobs,
                     asset_hash::Options options = {}) {
  Collected c;
  Auditor auditor(options, jobs,
                  [&](ItemResult&& r) { c.results.push_back(std::move(r)); });
  AuditHandler handler(auditor);
  auto input = io::MemoryInput(state, "mem.json");
  diag::Report report("mem.json");
  c.status = state::Read(*input, handler, report);
  auditor.Finish();
  return c;
}

TEST(Auditor, StateOrderWhateverTheJobs) {
  const std::string state = ManyAssets(1500);
  for (int jobs : {1, 3, 8}) {
    Collected c = AuditState(state, jobs);
    ASSERT_TRUE(c.status.ok()) << c.status.message();
    ASSERT_EQ(c.results.size(), 1500u);
    Tally tally;
    for (std::size_t i = 0; i < c.results.size(); ++i) {
      const ItemResult& r = c.results[i];
      Count(tally, r);
      ASSERT_EQ(r.item.urn, Urn(static_cast<int>(i)));
      ASSERT_EQ(r.item.pointer,
                "/deployment/resources/" + std::to_string(i) + "/inputs/f");
      ASSERT_EQ(r.outcome.status, i % 3 == 2 ? asset_hash::Status::kMismatch
                                             : asset_hash::Status::kOk);
      ASSERT_FALSE(r.item.spec.text.has_value());  // dropped once hashed
      ASSERT_EQ(r.at.line, 1u);
    }
    EXPECT_EQ(tally.total(), 1500u);
    EXPECT_EQ(
        tally
            .by_status[static_cast<std::size_t>(asset_hash::Status::kMismatch)],
        500u);
    EXPECT_TRUE(tally.failed());
  }
}

TEST(Auditor, MemberLimitIsAnErrorNotACrash) {
  std::string s =
      R"({"version":3,"deployment":{"resources":[{"urn":"u","inputs":{"code":{)" +
      kArchive + R"(,"hash":")" + std::string(64, '0') + R"(","assets":{)";
  for (int i = 0; i < 300; ++i) {
    if (i > 0) s += ',';
    s += "\"m" + std::to_string(i) + "\":{" + kAsset + ",\"text\":\"x\"}";
  }
  s += "}}}}]}}";
  asset_hash::Options options;
  options.max_members = 100;
  Collected c = AuditState(s, 2, options);
  ASSERT_EQ(c.results.size(), 1u);
  EXPECT_EQ(c.results[0].outcome.status, asset_hash::Status::kError);
  EXPECT_NE(c.results[0].outcome.message.find("too many members"),
            std::string::npos);
}

TEST(Auditor, UnreadableStateStillDeliversWhatWasFound) {
  std::string state = ManyAssets(20);
  state.resize(state.size() - 40);  // cut inside the last resource
  Collected c = AuditState(state, 4);
  EXPECT_FALSE(c.status.ok());
  EXPECT_EQ(c.results.size(), 19u);
}

TEST(Auditor, FindingsPerStatusAndNote) {
  ItemResult r;
  r.item.pointer = "/p";
  r.item.urn = "u";
  r.at = {3, 7};
  r.item.notes.push_back(
      {"/p/assets/a", {asset_hash::kNoteAbsolutePath, "abs"}});
  const std::pair<asset_hash::Status, diag::Code> cases[] = {
      {asset_hash::Status::kMismatch, diag::Code::kAssetHashMismatch},
      {asset_hash::Status::kMissing, diag::Code::kAssetMissing},
      {asset_hash::Status::kError, diag::Code::kAssetError},
      {asset_hash::Status::kUnverifiable, diag::Code::kAssetUnverifiable},
      {asset_hash::Status::kNoHash, diag::Code::kAssetNoHash},
  };
  for (const auto& [status, code] : cases) {
    r.outcome.status = status;
    r.outcome.message = "why";
    auto findings = ToFindings(r);
    ASSERT_EQ(findings.size(), 2u);
    EXPECT_EQ(findings[0].code, code);
    EXPECT_EQ(findings[0].message, "asset: why");
    EXPECT_EQ(findings[0].pointer, "/p");
    EXPECT_EQ(findings[0].urn, "u");
    EXPECT_EQ(findings[0].line, 3u);
    EXPECT_EQ(findings[0].column, 7u);
    EXPECT_EQ(findings[1].code, diag::Code::kAssetAbsolutePath);
    EXPECT_EQ(findings[1].pointer, "/p/assets/a");
  }
  r.outcome.status = asset_hash::Status::kOk;
  auto findings = ToFindings(r);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].code, diag::Code::kAssetAbsolutePath);

  const std::pair<asset_hash::NoteCode, diag::Code> notes[] = {
      {asset_hash::kNotePathEscapesRoot, diag::Code::kAssetPathEscapesRoot},
      {asset_hash::kNoteBackslashPath, diag::Code::kAssetBackslashPath},
      {asset_hash::kNoteHashMalformed, diag::Code::kAssetHashMalformed},
  };
  for (const auto& [note, code] : notes) {
    r.item.notes = {{"/p", {note, "m"}}};
    EXPECT_EQ(ToFindings(r).at(0).code, code);
  }
}

TEST(Auditor, InvalidItemsAreErrorsWithTheReason) {
  FoundItem item;
  item.spec.kind = asset_hash::Kind::kArchive;
  item.invalid = "\"path\" is number, not a string";
  asset_hash::Outcome o = CheckItem(item, asset_hash::Options());
  EXPECT_EQ(o.status, asset_hash::Status::kError);
  EXPECT_EQ(o.message, "malformed archive: \"path\" is number, not a string");
  EXPECT_FALSE(o.actual.has_value());
}

// Reports one finding per resource, as verify's checks do.
class FakeVerifier : public state::Handler {
 public:
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override {
    if (leaf.role != state::Role::kResource) return state::Flow::kContinue;
    context.Report(diag::MakeFinding(diag::Code::kFieldUnknown, "check",
                                     std::string(leaf.pointer)),
                   leaf.value.offset);
    return state::Flow::kContinue;
  }
  Status OnFinish(const state::Envelope&, state::Context& context) override {
    context.ReportUnlocated(
        diag::MakeFinding(diag::Code::kUrnDuplicate, "end"));
    return Status::Ok();
  }
};

// verify --assets: checks and audit side by side; the report puts their
// findings in file order whatever order the worker threads finish in.
TEST(AuditHandler, ChecksAndAssetFindingsInOneFileOrder) {
  diag::Report report("mem.json");
  Auditor auditor(asset_hash::Options(), 4, [&](ItemResult&& r) {
    for (diag::Finding& f : ToFindings(r)) report.Add(std::move(f));
  });
  FakeVerifier fake;
  AuditHandler audit(auditor);
  state::Tee both(fake, audit);
  auto input = io::MemoryInput(ManyAssets(300), "mem.json");
  ASSERT_TRUE(state::Read(*input, both, report).ok());
  auditor.Finish();
  report.SortByLocation();
  // Per resource: its check finding, then (every third) its mismatch.
  std::size_t k = 0;
  const auto& f = report.findings();
  for (int i = 0; i < 300; ++i) {
    std::string base = "/deployment/resources/" + std::to_string(i);
    ASSERT_LT(k, f.size());
    ASSERT_EQ(f[k].code, diag::Code::kFieldUnknown);
    ASSERT_EQ(f[k].pointer, base);
    ++k;
    if (i % 3 == 2) {
      ASSERT_EQ(f[k].code, diag::Code::kAssetHashMismatch);
      ASSERT_EQ(f[k].pointer, base + "/inputs/f");
      ++k;
    }
  }
  ASSERT_EQ(k + 1, f.size());
  EXPECT_EQ(f[k].code, diag::Code::kUrnDuplicate);
}

// B1: with a cap, the first findings in file order are kept, not the first
// to arrive (asset results arrive late, from worker threads).
TEST(AuditHandler, CappedReportKeepsTheFirstInFileOrder) {
  diag::Report report("mem.json", 1);
  Auditor auditor(asset_hash::Options(), 4, [&](ItemResult&& r) {
    for (diag::Finding& f : ToFindings(r)) report.Add(std::move(f));
  });
  AuditHandler audit(auditor);
  auto input = io::MemoryInput(ManyAssets(30), "mem.json");
  ASSERT_TRUE(state::Read(*input, audit, report).ok());
  auditor.Finish();
  // A late finding at the end of the file must not displace the first.
  report.Add(diag::MakeFinding(diag::Code::kUrnDuplicate, "late"));
  report.SortByLocation();
  ASSERT_EQ(report.findings().size(), 1u);
  EXPECT_EQ(report.findings()[0].pointer, "/deployment/resources/2/inputs/f");
  EXPECT_EQ(report.omitted(), 10u);
}

}  // namespace
}  // namespace pstate::assets
