#include "verify/integrity.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "io/input.h"
#include "unit/testing/fake_context.h"
#include "unit/testing/temp_dir.h"

namespace pstate::verify {
namespace {

FindingPlace Here() {
  io::LineColumn at;
  at.line = 3;
  at.column = 4;
  return {"/p", "urn:me", at};
}
using RefKind = PendingReference::Kind;

TEST(IntegrityTrackerTest, DependencyOrderVersusMissing) {
  IntegrityTracker t;
  t.AddResource("a", false);
  EXPECT_TRUE(t.Seen("a"));
  EXPECT_FALSE(t.Seen("later"));
  t.Reference(RefKind::kDependency, "a", "parent", false, Here());  // seen
  t.Reference(RefKind::kDependency, "later", "parent", false, Here());
  t.Reference(RefKind::kDependency, "nowhere", "dependencies", false, Here());
  t.AddResource("later", false);
  auto findings = *t.Finish();
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].code, diag::Code::kDependencyOrder);
  EXPECT_EQ(findings[0].severity, diag::Severity::kError);
  EXPECT_NE(findings[0].message.find("comes after it"), std::string::npos);
  EXPECT_EQ(findings[0].line, 3u);  // the prepared location is kept
  EXPECT_EQ(findings[0].pointer, "/p");
  EXPECT_EQ(findings[0].urn, "urn:me");
  EXPECT_EQ(findings[1].code, diag::Code::kDependencyMissing);
  EXPECT_NE(findings[1].message.find("not in the state"), std::string::npos);
  EXPECT_TRUE(t.Finish()->empty());  // pending references are consumed
}

TEST(IntegrityTrackerTest, ProviderLaterVersusUnknown) {
  IntegrityTracker t;
  t.AddProvider("prov::1");
  EXPECT_TRUE(t.SeenProvider("prov::1"));
  EXPECT_FALSE(t.SeenProvider("prov::2"));
  t.Reference(RefKind::kProvider, "prov::1", "provider", false, Here());
  t.Reference(RefKind::kProvider, "prov::2", "provider", false, Here());
  t.Reference(RefKind::kProvider, "prov::3", "provider", false, Here());
  t.AddProvider("prov::2");
  // A resource URN equal to the reference does not count as a provider.
  t.AddResource("prov::3", false);
  auto findings = *t.Finish();
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].code, diag::Code::kProviderUnknown);
  EXPECT_NE(findings[0].message.find("comes after it"), std::string::npos);
  EXPECT_EQ(findings[1].code, diag::Code::kProviderUnknown);
  EXPECT_NE(findings[1].message.find("names no provider resource"),
            std::string::npos);
}

TEST(IntegrityTrackerTest, ForwardResourceReferencesAreDropped) {
  IntegrityTracker t;
  t.Reference(RefKind::kResourceReference, "fwd", {}, false, Here());
  t.Reference(RefKind::kResourceReference, "gone", {}, false, Here());
  t.Reference(RefKind::kResourceReference, "hidden", {}, true, Here());
  t.AddResource("fwd", false);
  auto findings = *t.Finish();
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].code, diag::Code::kResourceRefDangling);
  EXPECT_EQ(findings[0].severity, diag::Severity::kWarning);
  EXPECT_NE(findings[0].message.find("\"gone\""), std::string::npos);
  // A URN found inside a secret's plaintext is never quoted.
  EXPECT_EQ(findings[1].message.find("hidden"), std::string::npos);
}

struct DupCase {
  int copies;
  int deleted;
  bool reported;
};

TEST(IntegrityTrackerTest, DuplicatesNeedAllButOneDeleted) {
  for (const DupCase& c : std::vector<DupCase>{{2, 0, true},
                                               {2, 1, false},
                                               {2, 2, false},
                                               {3, 1, true},
                                               {3, 2, false},
                                               {4, 2, true},
                                               {4, 3, false}}) {
    IntegrityTracker t;
    for (int i = 0; i < c.copies; ++i) {
      // The "deleted" copies come first, as Pulumi writes them.
      bool deleted = i < c.deleted;
      std::string pointer = "/deployment/resources/" + std::to_string(i);
      io::LineColumn at;
      at.line = static_cast<std::uint64_t>(i + 1);
      t.Duplicate("u", FindingPlace{pointer, "u", at});
      t.AddResource("u", deleted);
    }
    auto findings = *t.Finish();
    ASSERT_EQ(findings.size(), c.reported ? 1u : 0u)
        << c.copies << " copies, " << c.deleted << " deleted";
    if (c.reported) {
      EXPECT_EQ(findings[0].code, diag::Code::kUrnDuplicate);
      // Located at the first repeat.
      EXPECT_EQ(findings[0].pointer, "/deployment/resources/1");
      EXPECT_EQ(findings[0].line, 2u);
      EXPECT_NE(findings[0].message.find(std::to_string(c.copies) + " times"),
                std::string::npos)
          << findings[0].message;
    }
  }
}

/// A context reading a plain file: what the reader gives the checks when
/// the input can be read again.
class FileContext : public testing::FakeContext {
 public:
  explicit FileContext(const io::InputStream* file) : file_(file) {}
  const io::InputStream* input_file() const override { return file_; }

 private:
  const io::InputStream* file_;
};

// Texts that are in the input are kept as offsets and read again at the
// end: the findings are the same as from copies, and quote the input.
TEST(IntegrityTrackerTest, TextsInAPlainFileAreReadAgainAtTheEnd) {
  testing::TempDir dir;
  const std::string text = R"(["urn:me","urn:later","urn:gone"])";
  auto file = io::OpenInput(dir.Write("s.json", text));
  ASSERT_TRUE(file.ok()) << file.status().message();
  FileContext context(file->get());
  Reporter reporter(context, "/deployment/resources/0");
  reporter.set_urn("urn:me", 2);
  IntegrityTracker t;
  t.Reference(RefKind::kDependency, "urn:later", 11, "dependencies", false,
              reporter, 10);
  {
    PointerScope scope(reporter, "parent");
    t.Reference(RefKind::kDependency, "urn:gone", 23, "parent", false, reporter,
                22);
  }
  t.AddResource("urn:later", false);
  auto findings = t.Finish();
  ASSERT_TRUE(findings.ok()) << findings.status().message();
  ASSERT_EQ(findings->size(), 2u);
  EXPECT_EQ((*findings)[0].code, diag::Code::kDependencyOrder);
  EXPECT_EQ((*findings)[0].message,
            "dependencies refers to \"urn:later\" which comes after it; "
            "Pulumi needs dependencies to come first");
  EXPECT_EQ((*findings)[0].urn, "urn:me");
  EXPECT_EQ((*findings)[0].pointer, "/deployment/resources/0");
  EXPECT_EQ((*findings)[0].column, 11u);  // FakeContext: offset + 1
  EXPECT_EQ((*findings)[1].code, diag::Code::kDependencyMissing);
  EXPECT_EQ((*findings)[1].message,
            "parent refers to \"urn:gone\" which is not in the state");
  EXPECT_EQ((*findings)[1].urn, "urn:me");
  EXPECT_EQ((*findings)[1].pointer, "/deployment/resources/0/parent");
}

// A file rewritten between the read and the end is an error, never a
// finding that quotes other bytes.
TEST(IntegrityTrackerTest, AFileChangedBeforeTheEndIsAnError) {
  testing::TempDir dir;
  std::string path = dir.Write("s.json", R"(["urn:me","urn:later"])");
  auto file = io::OpenInput(path);
  ASSERT_TRUE(file.ok());
  FileContext context(file->get());
  Reporter reporter(context, "/r");
  reporter.set_urn("urn:me", 2);
  IntegrityTracker t;
  t.Reference(RefKind::kDependency, "urn:later", 11, "dependencies", false,
              reporter, 10);
  dir.Write("s.json", R"(["urn:me",12345678901])");  // same size, in place
  auto changed = t.Finish();
  ASSERT_FALSE(changed.ok());
  EXPECT_EQ(changed.status().code(), Errc::kIo);
  EXPECT_NE(changed.status().message().find("changed"), std::string::npos);

  IntegrityTracker shorter;
  dir.Write("s.json", R"(["urn:me","urn:later"])");
  shorter.Reference(RefKind::kDependency, "urn:later", 11, "dependencies",
                    false, reporter, 10);
  dir.Write("s.json", "[]");
  EXPECT_EQ(shorter.Finish().status().code(), Errc::kIo);
}

// Without a file to read again (a pipe, a compressed stream) the texts
// are copied: offsets given for them are ignored.
TEST(IntegrityTrackerTest, WithoutAFileTheTextsAreCopied) {
  testing::FakeContext context;
  Reporter reporter(context, "/r");
  reporter.set_urn("urn:me", 2);
  IntegrityTracker t;
  t.Reference(RefKind::kDependency, "urn:later", 11, "dependencies", false,
              reporter, 10);
  auto findings = t.Finish();
  ASSERT_TRUE(findings.ok());
  ASSERT_EQ(findings->size(), 1u);
  EXPECT_NE((*findings)[0].message.find("\"urn:later\""), std::string::npos);
  EXPECT_EQ((*findings)[0].urn, "urn:me");
}

// Pointers are stored as the rest after the previous one's prefix: a
// shorter pointer after a longer one, and the first after a Reset, come
// back whole.
TEST(IntegrityTrackerTest, PointersSharingPrefixesComeBackWhole) {
  IntegrityTracker t;
  const std::vector<std::string> pointers = {
      "/deployment/resources/10/dependencies/0",
      "/deployment/resources/10/dependencies/1", "/deployment/resources/1",
      "/deployment/resources/123/parent", ""};
  for (const std::string& p : pointers) {
    t.Reference(RefKind::kDependency, "x", "dependencies", false,
                FindingPlace{p, "urn:me", {}});
  }
  auto findings = t.Finish();
  ASSERT_TRUE(findings.ok());
  ASSERT_EQ(findings->size(), pointers.size());
  for (std::size_t i = 0; i < pointers.size(); ++i) {
    EXPECT_EQ((*findings)[i].pointer, pointers[i]);
  }
  t.Reference(RefKind::kDependency, "x", "dependencies", false,
              FindingPlace{"/deployment/resources/9", "u", {}});
  t.Reset();
  t.Reference(RefKind::kDependency, "x", "dependencies", false,
              FindingPlace{"/z", "u", {}});
  findings = t.Finish();
  ASSERT_TRUE(findings.ok());
  ASSERT_EQ(findings->size(), 1u);
  EXPECT_EQ((*findings)[0].pointer, "/z");
}

// A worker's journal records only what the fold may decide: a reference
// to a resource the same worker journaled before, and a stack step of the
// stack and project it recorded last, are settled where they are made; the
// duplicate check and the adding of a resource are one step. Replayed in
// file order, the journals give the findings of the direct calls.
TEST(IntegrityTrackerTest, AJournalRecordsOnlyWhatTheFoldDecides) {
  testing::FakeContext context;
  IntegrityTracker worker;
  IntegrityJournal first, second;
  worker.set_journal(&first);
  Reporter r0(context, "/resources/0");
  EXPECT_FALSE(worker.NoteStack("dev", "proj", r0, 1).has_value());
  worker.Duplicate("urn:a", r0, 1);
  worker.AddResource("urn:a", false);
  worker.set_journal(&second);
  Reporter r1(context, "/resources/1");
  EXPECT_FALSE(worker.NoteStack("dev", "proj", r1, 2).has_value());
  worker.Reference(RefKind::kDependency, "urn:a", 0, "parent", false, r1, 3);
  worker.Reference(RefKind::kDependency, "urn:z", 0, "dependencies", false, r1,
                   4);
  EXPECT_FALSE(worker.NoteStack("other", "proj", r1, 5).has_value());
  worker.Duplicate("urn:a", r1, 2);
  worker.AddResource("urn:a", true);
  worker.set_journal(nullptr);
  // The stack step, then the duplicate check that adds the resource.
  ASSERT_EQ(first.events.size(), 2u);
  EXPECT_EQ(first.events[0].kind, IntegrityEvent::Kind::kStack);
  EXPECT_EQ(first.events[1].kind, IntegrityEvent::Kind::kDuplicate);
  EXPECT_TRUE(first.events[1].adds);
  // "dev"/"proj" and the reference to urn:a were settled: the reference to
  // urn:z, the other stack, and the repeat of urn:a remain.
  ASSERT_EQ(second.events.size(), 3u);
  EXPECT_EQ(second.events[0].kind, IntegrityEvent::Kind::kReference);
  EXPECT_EQ(second.events[1].kind, IntegrityEvent::Kind::kStack);
  EXPECT_EQ(second.events[2].kind, IntegrityEvent::Kind::kDuplicate);
  EXPECT_TRUE(second.events[2].adds);
  EXPECT_TRUE(second.events[2].deleted);

  IntegrityTracker fold;
  fold.Replay(first, context, {});
  fold.Replay(second, context, {});
  EXPECT_TRUE(fold.Seen("urn:a"));
  auto replayed = fold.Finish();
  ASSERT_TRUE(replayed.ok());
  std::vector<std::string> from_journals;
  for (const diag::Finding& f : context.findings) {
    from_journals.emplace_back(f.code_name());
  }
  for (const diag::Finding& f : *replayed) {
    from_journals.emplace_back(f.code_name());
  }

  // The same calls on a tracker that is not journaling.
  testing::FakeContext direct_context;
  IntegrityTracker direct;
  std::vector<std::string> from_calls;
  auto note = [&](std::string_view stack, Reporter& r, std::uint64_t at) {
    if (auto f = direct.NoteStack(stack, "proj", r, at)) {
      from_calls.emplace_back(f->code_name());
    }
  };
  Reporter d0(direct_context, "/resources/0");
  note("dev", d0, 1);
  direct.Duplicate("urn:a", d0, 1);
  direct.AddResource("urn:a", false);
  Reporter d1(direct_context, "/resources/1");
  note("dev", d1, 2);
  direct.Reference(RefKind::kDependency, "urn:a", 0, "parent", false, d1, 3);
  direct.Reference(RefKind::kDependency, "urn:z", 0, "dependencies", false, d1,
                   4);
  note("other", d1, 5);
  direct.Duplicate("urn:a", d1, 2);
  direct.AddResource("urn:a", true);
  auto finished = direct.Finish();
  ASSERT_TRUE(finished.ok());
  for (const diag::Finding& f : *finished) {
    from_calls.emplace_back(f.code_name());
  }
  EXPECT_EQ(from_journals, from_calls);
  // The stack mismatch and the missing target at least.
  EXPECT_NE(
      std::find(from_calls.begin(), from_calls.end(), "urn-stack-mismatch"),
      from_calls.end());
  EXPECT_NE(
      std::find(from_calls.begin(), from_calls.end(), "dependency-missing"),
      from_calls.end());
}

}  // namespace
}  // namespace pstate::verify
