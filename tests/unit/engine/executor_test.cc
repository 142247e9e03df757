#include "engine/executor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "unit/testing/temp_dir.h"

namespace pstate::engine {
namespace {

// Locate answers as counting from the resource's start does, whatever the
// order of the offsets (checks locate in field order, not file order), on
// resources smaller and larger than the marks' stride, with multi-byte
// characters split by marks.
TEST(ResourceContextTest, LocateInAnyOrderCountsFromTheStart) {
  for (std::size_t size : {std::size_t{40}, std::size_t{5000},
                           std::size_t{70000}, std::size_t{300000}}) {
    std::string bytes;
    for (std::size_t i = 0; bytes.size() < size; ++i) {
      bytes += i % 7 == 0 ? "\n  " : (i % 5 == 0 ? "\xc3\xa9" : "ab");
    }
    io::LineColumn start{3, 5, 4};
    state::Envelope envelope;
    std::vector<diag::Finding> findings;
    ResourceContext context(1000, bytes, start, envelope, &findings);
    std::uint64_t seed = size;
    for (int n = 0; n < 200; ++n) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      std::uint64_t offset = 1000 + (seed >> 33) % (bytes.size() + 10);
      io::LineColumn got = context.Locate(offset);
      std::size_t upto = static_cast<std::size_t>(
          std::min<std::uint64_t>(offset - 1000, bytes.size()));
      io::LineColumn want = io::Advance(start, bytes.data(), upto);
      ASSERT_EQ(got.line, want.line) << size << " @" << offset;
      ASSERT_EQ(got.column, want.column) << size << " @" << offset;
      ASSERT_EQ(got.char_column, want.char_column) << size << " @" << offset;
    }
  }
}

/// What a resource leaves for the fold: where it was and its name.
struct Seen {
  std::size_t index = 0;
  std::string name;
  std::uint64_t name_offset = 0;
};

/// A pass that reports a finding per resource (per-resource work) and one
/// per fold (located at the resource's name when it has one), and records the
/// order folds came in.
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
      out.name_offset = name->offset;
      context.Report(
          diag::MakeFinding(diag::Code::kFieldValue, "name " + out.name,
                            std::string(leaf.pointer)),
          name->offset);
    }
  };

  std::unique_ptr<Worker<Seen>> NewWorker() override {
    return std::make_unique<NameWorker>();
  }
  state::Flow Fold(Seen&& seen, state::Context& context) override {
    folded.push_back(std::to_string(seen.index) + ":" + seen.name);
    diag::Finding f = diag::MakeFinding(diag::Code::kFieldUnknown,
                                        "fold " + std::to_string(seen.index));
    // The fold locates offsets inside its resource as the sequential read
    // does (in parallel the executor reads the resource's bytes again).
    if (seen.name_offset != 0) {
      context.Report(std::move(f), seen.name_offset);
    } else {
      context.ReportUnlocated(std::move(f));
    }
    return folded.size() == stop_after ? state::Flow::kStop
                                       : state::Flow::kContinue;
  }
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override {
    if (leaf.role == state::Role::kResource) {
      NameWorker worker;
      return RunInline(*this, worker, leaf, context);
    }
    return state::Flow::kContinue;
  }

  std::vector<std::string> folded;
  /// Fold answers kStop at this many folds (0: never).
  std::size_t stop_after = 0;
};

struct Outcome {
  Executor executor;
  std::vector<std::string> findings;
  std::vector<std::string> folded;
  bool fatal = false;
};

Outcome RunOn(const std::string& path, int jobs, std::size_t batch_bytes,
              std::size_t stop_after = 0) {
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
    pass->stop_after = stop_after;
    return pass;
  };
  Options options;
  options.jobs = jobs;
  options.batch_bytes = batch_bytes;
  Outcome out;
  out.executor = Run<OrderPass>(path, make_keeping, report, options).executor;
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

/// A state around `resources`: laid out as Pulumi writes it (the first
/// element on its own line, `pretty`) or on one line.
std::string State(const std::string& resources, bool pretty = true) {
  if (!pretty) {
    return "{\"version\": 3, \"deployment\": {\"manifest\": {}, "
           "\"resources\": [" +
           resources + "]}}\n";
  }
  return "{\n  \"version\": 3,\n  \"deployment\": {\n    \"manifest\": {},\n"
         "    \"resources\": [\n      " +
         resources + "\n    ]\n  }\n}\n";
}

/// The same outcome from --jobs 1 and from `jobs` threads with ranges of
/// each size; returns the parallel runs' executors.
std::vector<Executor> ExpectSameOutcome(const std::string& path, int jobs) {
  Outcome one = RunOn(path, 1, 1 << 20);
  EXPECT_EQ(one.executor, Executor::kSequential);
  std::vector<Executor> executors;
  for (std::size_t batch : {std::size_t{1}, std::size_t{64}, std::size_t{300},
                            std::size_t{1} << 20}) {
    Outcome many = RunOn(path, jobs, batch);
    EXPECT_EQ(many.findings, one.findings) << path << " batch " << batch;
    EXPECT_EQ(many.folded, one.folded) << path << " batch " << batch;
    EXPECT_EQ(many.fatal, one.fatal) << path << " batch " << batch;
    executors.push_back(many.executor);
  }
  return executors;
}

TEST(Executor, ParallelFoldsInFileOrderWithTheSameFindings) {
  testing::TempDir dir;
  for (bool pretty : {false, true}) {
    std::string path =
        dir.Write("s.json", State(Resources(200, pretty), pretty));
    Outcome one = RunOn(path, 1, 1 << 20);
    for (std::size_t batch :
         {std::size_t{1}, std::size_t{300}, std::size_t{1} << 20}) {
      Outcome many = RunOn(path, 3, batch);
      EXPECT_EQ(one.executor, Executor::kSequential);
      // One line: no line starts to cut at; the reader reads it.
      EXPECT_EQ(many.executor,
                pretty ? Executor::kParallel : Executor::kSequential);
      EXPECT_EQ(many.findings, one.findings) << "batch " << batch;
      ASSERT_EQ(many.folded.size(), 200u);
      EXPECT_EQ(many.folded, one.folded);
      EXPECT_EQ(many.folded.front(), "0:r0-é-\"}]");
    }
  }
}

// A fold that answers kStop ends the read where the sequential read ends
// it: no later resource is folded or reports a finding, whatever the
// ranges in flight.
TEST(Executor, AStoppingFoldEndsTheReadAtTheSameResource) {
  testing::TempDir dir;
  std::string path = dir.Write("stop.json", State(Resources(40, true)));
  for (std::size_t stop : {std::size_t{1}, std::size_t{7}, std::size_t{40}}) {
    Outcome one = RunOn(path, 1, 1 << 20, stop);
    ASSERT_EQ(one.folded.size(), stop);
    for (std::size_t batch : {std::size_t{1}, std::size_t{300}}) {
      Outcome many = RunOn(path, 3, batch, stop);
      EXPECT_EQ(many.executor, Executor::kParallel) << stop << " " << batch;
      EXPECT_EQ(many.folded, one.folded) << stop << " " << batch;
      EXPECT_EQ(many.findings, one.findings) << stop << " " << batch;
      EXPECT_FALSE(many.fatal);
    }
  }
}

TEST(Executor, LinesThatOnlyLookLikeElementStartsAreCaught) {
  testing::TempDir dir;
  // An object inside an element, laid out at the elements' indentation:
  // a range may start there, and must not be believed.
  std::string inner = Resources(30, true);
  std::string::size_type at = inner.find("\"name\": \"r11\"");
  ASSERT_NE(at, std::string::npos);
  inner.insert(
      at, "\"x\": [\n      {\"urn\": \"fake\", \"name\": \"no\"}\n      ], ");
  std::string path = dir.Write("inner.json", State(inner));
  ExpectSameOutcome(path, 2);

  // Pending operations after the array, at the same indentation.
  std::string pending =
      "{\n  \"version\": 3,\n  \"deployment\": {\n    \"resources\": [\n     "
      " " +
      Resources(12, true) +
      "\n    ],\n    \"pending_operations\": [\n      {\"resource\": "
      "{\"urn\": \"p\"}, \"type\": \"creating\"}\n    ]\n  }\n}\n";
  path = dir.Write("pending.json", pending);
  for (Executor e : ExpectSameOutcome(path, 2)) {
    EXPECT_EQ(e, Executor::kParallel);
  }
}

TEST(Executor, LayoutsOfEveryKindMatchTheSequentialRead) {
  testing::TempDir dir;
  std::string resources = Resources(40, true);
  // Windows line ends.
  std::string crlf;
  for (char c : State(resources)) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  for (Executor e : ExpectSameOutcome(dir.Write("crlf.json", crlf), 2)) {
    EXPECT_EQ(e, Executor::kParallel);
  }
  // An element that is not an object, one in the middle.
  std::string odd = resources;
  std::string::size_type at = odd.find("{\"urn\": \"u20\"");
  ASSERT_NE(at, std::string::npos);
  odd.insert(at, "null,\n      ");
  ExpectSameOutcome(dir.Write("null.json", State(odd)), 2);
  // An empty array, and one element larger than every range.
  ExpectSameOutcome(dir.Write("empty.json", State("")), 2);
  std::string big = "{\"urn\": \"big\", \"name\": \"" + std::string(5000, 'b') +
                    "\", \"n\": [\n        {}\n      ]}";
  for (Executor e : ExpectSameOutcome(
           dir.Write("big.json", State(big + ",\n      " + resources)), 3)) {
    EXPECT_EQ(e, Executor::kParallel);
  }
  // Bytes after the array that are not JSON.
  std::string trailing = State(resources);
  trailing.insert(trailing.rfind(']') + 1, " junk");
  ExpectSameOutcome(dir.Write("junk.json", trailing), 2);
  // A later element with an indentation of its own.
  std::string shifted = resources;
  at = shifted.find("\n      {\"urn\": \"u33\"");
  ASSERT_NE(at, std::string::npos);
  shifted.insert(at + 1, "  ");
  ExpectSameOutcome(dir.Write("shifted.json", State(shifted)), 2);
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
  std::string text =
      "{\"version\": 3, \"deployment\": {\"resources\": [\n      " +
      Resources(9, true) + "], \"resources\": [" + Resources(5, false) + "]}}";
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

// CountRange counts as a byte-by-byte reading of the file does, with and
// without holding the range's bytes (and then holds exactly them), and
// finds each element line with the newlines before it, at
// every alignment of the range against the vector blocks, with element
// lines, lines only like them (another indentation, or other bytes where
// the indentation should be) and newlines in runs longer than the
// block counters' 255, with each block loop.
TEST(Executor, CountRangeCountsAsAByteByByteReading) {
  testing::TempDir dir;
  std::string text;
  for (int i = 0; i < 400; ++i) {
    text += "\n    {\"a\": " + std::to_string(i) + "}";
    if (i % 7 == 0) text += "\n   {";    // one space short
    if (i % 11 == 0) text += "\n  x {";  // other bytes
    if (i % 13 == 0) text += std::string(300, '\n');
    if (i % 17 == 0) text += "\n    {";  // at the very end of a run
  }
  std::string path = dir.Write("count.json", text);
  auto in = io::OpenInput(path);
  ASSERT_TRUE(in.ok());
  const std::string indent = "    ";
  auto expected = [&](std::size_t begin, std::size_t end) {
    internal::RangeCounts c;
    for (std::size_t q = begin; q < end; ++q) {
      if (text[q] != '\n') continue;
      ++c.newlines;
    }
    // Element lines whose '{' is in [begin, end).
    for (std::size_t q = 0; q + indent.size() + 1 < text.size(); ++q) {
      std::size_t brace = q + indent.size() + 1;
      if (text[q] == '\n' && brace >= begin && brace < end &&
          text.compare(q + 1, indent.size(), indent) == 0 &&
          text[brace] == '{') {
        ++c.element_lines;
      }
    }
    return c;
  };
  // Element lines whose '{' is in [begin, end), with the newlines of
  // [begin, '{').
  auto expected_lines = [&](std::size_t begin, std::size_t end) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> lines;
    for (std::size_t q = 0; q + indent.size() + 1 < text.size(); ++q) {
      std::size_t brace = q + indent.size() + 1;
      if (text[q] == '\n' && brace >= begin && brace < end &&
          text.compare(q + 1, indent.size(), indent) == 0 &&
          text[brace] == '{') {
        lines.emplace_back(
            brace, std::count(text.begin() + static_cast<std::ptrdiff_t>(begin),
                              text.begin() + static_cast<std::ptrdiff_t>(brace),
                              '\n'));
      }
    }
    return lines;
  };
  auto pairs = [](const std::vector<internal::ElementLine>& lines) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    for (const internal::ElementLine& l : lines) {
      out.emplace_back(l.offset, l.newlines);
    }
    return out;
  };
  internal::HeldBytes held;
  std::vector<internal::ElementLine> lines;
  for (int width : {64, 32, 16}) {
    internal::CountWithLoopsUpTo(width);
    for (std::size_t begin :
         std::vector<std::size_t>{0, 1, 5, 16, 31, 33, 100, 1000}) {
      for (std::size_t end : {begin, begin + 1, begin + 47, begin + 4099,
                              text.size() - 3, text.size()}) {
        if (end > text.size()) continue;
        internal::RangeCounts want = expected(begin, end);
        auto want_lines = expected_lines(begin, end);
        auto plain =
            internal::CountRange(**in, indent, begin, end, nullptr, &lines);
        ASSERT_TRUE(plain.has_value());
        EXPECT_EQ(plain->newlines, want.newlines) << begin << ".." << end;
        EXPECT_EQ(plain->element_lines, want.element_lines)
            << begin << ".." << end;
        EXPECT_EQ(pairs(lines), want_lines) << begin << ".." << end;
        auto with =
            internal::CountRange(**in, indent, begin, end, &held, &lines);
        ASSERT_TRUE(with.has_value());
        EXPECT_EQ(with->newlines, want.newlines) << begin << ".." << end;
        EXPECT_EQ(with->element_lines, want.element_lines)
            << begin << ".." << end;
        EXPECT_EQ(pairs(lines), want_lines) << begin << ".." << end;
        std::size_t start = begin >= 5 ? begin - 5 : 0;
        EXPECT_EQ(held.at, start);
        EXPECT_EQ(held.bytes,
                  std::string_view(text).substr(start, end + 5 - start));
      }
    }
  }
  internal::CountWithLoopsUpTo(64);
}

}  // namespace
}  // namespace pstate::engine
