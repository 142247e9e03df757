#include "engine/executor.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "unit/testing/temp_dir.h"

namespace pstate::engine {
namespace {

/// What a resource leaves for the fold: where it was and its name.
struct Seen {
  std::size_t index = 0;
  std::string name;
};

/// A pass that reports a finding per resource (per-resource work) and one
/// per fold, and records the order folds came in.
class OrderPass : public Pass<Seen> {
 public:
  class NameWorker : public Worker<Seen> {
   public:
    void PerResource(state::Leaf& leaf, state::Context& context,
                     Seen& out) override {
      out.index = leaf.index;
      const json::Value* name =
          leaf.value.is_object() ? leaf.value.Find("name") : nullptr;
      if (name == nullptr || !name->is_string()) return;
      out.name = name->Str();
      context.Report(
          diag::MakeFinding(diag::Code::kFieldValue, "name " + out.name,
                            std::string(leaf.pointer)),
          name->offset);
    }
  };

  std::unique_ptr<Worker<Seen>> NewWorker() override {
    return std::make_unique<NameWorker>();
  }
  void Fold(Seen&& seen, state::Context& context) override {
    folded.push_back(std::to_string(seen.index) + ":" + seen.name);
    context.ReportUnlocated(diag::MakeFinding(
        diag::Code::kFieldUnknown, "fold " + std::to_string(seen.index)));
  }
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override {
    if (leaf.role == state::Role::kResource) {
      NameWorker worker;
      RunInline(*this, worker, leaf, context);
    }
    return state::Flow::kContinue;
  }

  std::vector<std::string> folded;
};

struct Outcome {
  Executor executor;
  std::vector<std::string> findings;
  std::vector<std::string> folded;
  bool fatal = false;
};

Outcome RunOn(const std::string& path, int jobs, std::size_t batch_bytes) {
  diag::Report report(path);
  std::vector<std::string> folded;
  // The pass is gone when Run returns: keep its folds through a wrapper.
  struct Keeping : OrderPass {
    std::vector<std::string>* out = nullptr;
    ~Keeping() override { *out = folded; }
  };
  std::function<std::unique_ptr<OrderPass>()> make_keeping = [&] {
    auto pass = std::make_unique<Keeping>();
    pass->out = &folded;
    return pass;
  };
  Options options;
  options.jobs = jobs;
  options.batch_bytes = batch_bytes;
  Outcome out;
  out.executor = Run<OrderPass>(path, make_keeping, report, options);
  report.SortByLocation();
  for (const diag::Finding& f : report.findings()) {
    out.findings.push_back(std::string(f.code_name()) + " " + f.pointer + " " +
                           std::to_string(f.line) + ":" +
                           std::to_string(f.column) + ":" +
                           std::to_string(f.char_column) + " " + f.message);
  }
  out.folded = folded;
  out.fatal = report.fatal();
  return out;
}

std::string Resources(int n, bool pretty) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    if (i > 0) out += pretty ? ",\n      " : ",";
    std::string name = "r" + std::to_string(i);
    if (i % 3 == 0) name += "-é-\\\"}]";  // escapes, brackets, UTF-8
    out += "{\"urn\": \"u" + std::to_string(i) + "\", \"name\": \"" + name +
           "\"" + (i % 5 == 0 ? ", \"n\": [{}, [[]], \"[\"]" : "") +
           (pretty ? "\n      }" : "}");
  }
  return out;
}

std::string State(const std::string& resources) {
  return "{\"version\": 3, \"deployment\": {\"manifest\": {}, \"resources\": "
         "[" +
         resources + "]}}\n";
}

TEST(Executor, ParallelFoldsInFileOrderWithTheSameFindings) {
  testing::TempDir dir;
  for (bool pretty : {false, true}) {
    std::string path = dir.Write("s.json", State(Resources(200, pretty)));
    Outcome one = RunOn(path, 1, 1 << 20);
    for (std::size_t batch :
         {std::size_t{1}, std::size_t{300}, std::size_t{1} << 20}) {
      Outcome many = RunOn(path, 3, batch);
      EXPECT_EQ(one.executor, Executor::kSequential);
      EXPECT_EQ(many.executor, Executor::kParallel);
      EXPECT_EQ(many.findings, one.findings) << "batch " << batch;
      ASSERT_EQ(many.folded.size(), 200u);
      EXPECT_EQ(many.folded, one.folded);
      EXPECT_EQ(many.folded.front(), "0:r0-é-\"}]");
    }
  }
}

TEST(Executor, SyntaxErrorInAResourceFallsBackToTheSequentialRead) {
  testing::TempDir dir;
  std::string resources = Resources(20, true);
  // Resource 7's name is followed by a stray string.
  std::string::size_type at = resources.find("\"r7\"");
  ASSERT_NE(at, std::string::npos);
  resources.insert(at + 4, " \"stray\"");
  std::string path = dir.Write("bad.json", State(resources));
  Outcome one = RunOn(path, 1, 1 << 20);
  Outcome many = RunOn(path, 2, 64);
  EXPECT_TRUE(one.fatal);
  EXPECT_EQ(many.executor, Executor::kSequential);
  EXPECT_EQ(many.findings, one.findings);
  EXPECT_EQ(many.folded, one.folded);
  EXPECT_EQ(one.folded.size(), 7u);  // nothing after the error
}

TEST(Executor, UndelimitedAndTruncatedInputsMatch) {
  testing::TempDir dir;
  std::string full = State(Resources(10, false));
  for (std::size_t cut : {full.size() / 2, full.size() - 3}) {
    std::string path = dir.Write("cut.json", full.substr(0, cut));
    Outcome one = RunOn(path, 1, 1 << 20);
    Outcome many = RunOn(path, 2, 64);
    EXPECT_TRUE(one.fatal);
    EXPECT_EQ(many.findings, one.findings) << cut;
    EXPECT_EQ(many.folded, one.folded) << cut;
  }
}

TEST(Executor, DuplicateResourcesMembersFoldEachInTurn) {
  testing::TempDir dir;
  std::string text = "{\"version\": 3, \"deployment\": {\"resources\": [" +
                     Resources(9, true) + "], \"resources\": [" +
                     Resources(5, false) + "]}}";
  std::string path = dir.Write("dup.json", text);
  Outcome one = RunOn(path, 1, 1 << 20);
  Outcome many = RunOn(path, 2, 100);
  EXPECT_EQ(many.executor, Executor::kParallel);
  EXPECT_EQ(many.findings, one.findings);
  EXPECT_EQ(many.folded, one.folded);
  EXPECT_EQ(one.folded.size(), 14u);
}

TEST(Executor, UnopenableInputIsOneFatalFinding) {
  testing::TempDir dir;
  Outcome many = RunOn(dir.File("missing.json"), 2, 64);
  EXPECT_TRUE(many.fatal);
  EXPECT_EQ(many.findings.size(), 1u);
  EXPECT_TRUE(many.folded.empty());
}

}  // namespace
}  // namespace pstate::engine
