// The one engine that reads a state for a pass: it opens the input, owns
// progress, stopping and the one fatal failure (a located finding in the
// report, diag::IsFatal), and chooses the executor.
//
//  - Sequential streaming (pipes, standard input, gzip/zstd, --jobs 1, or a
//    pass that cannot be split): one forward pass through state::Read,
//    exactly as every command read before.
//  - Parallel (a plain regular file and --jobs N > 1): state::Read walks
//    the envelope on the calling thread, so every envelope rule holds, but
//    it hands each "resources" array whole to the executor
//    (ReadOptions::on_resources) and goes on after its ']' without reading
//    the bytes in between. The executor cuts the array into ranges of
//    about `batch_bytes` at lines that look like the first element's start
//    (a newline, the same indentation, '{'), and N workers each read their
//    range from the file (pread), count its lines and element starts,
//    then parse and check its elements (Worker::PerResource) knowing their
//    line numbers and indexes from the ranges before them. The calling
//    thread folds the partials strictly in file order (Pass::Fold).
//
// Speculation is checked, never trusted. A range is accepted only when
// its elements, parsed by the same json::Parser as the sequential read,
// start exactly at the lines counted for it and the last one is followed
// by the next range's first byte (or by the array's ']'); then the ranges
// together are exactly the sequential read's elements, whatever the file
// looks like. A raw newline cannot occur inside a JSON string, so a line
// start is always outside one. An array whose first element does not
// start a line (minified JSON) is read by the sequential reader.
//
// Output is identical either way. Where the parallel read cannot promise
// that, it gives up and the input is read again sequentially, by a fresh
// pass, into the report as it was before: when the read meets a fatal
// finding (a syntax error, an unreadable input, an unsupported version, a
// piece over the size limit; the first error in file order must win and
// nothing after it may be reported), or when a range fails its checks.
// Memory holds at most 2 × N ranges' partials (reused from range to range,
// not made anew for each resource) and N windows, whatever the size of the
// file.
#ifndef PSTATE_ENGINE_EXECUTOR_H_
#define PSTATE_ENGINE_EXECUTOR_H_

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/thread_pool.h"
#include "diag/report.h"
#include "engine/pass.h"
#include "io/input.h"
#include "io/window.h"
#include "json/parser.h"
#include "state/reader.h"

namespace pstate::engine {

struct Options {
  /// Threads for the per-resource work (1: the sequential executor).
  int jobs = 1;
  /// Called every few MiB with (bytes consumed, size or 0). A parallel
  /// read that falls back starts counting again.
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
  /// A range of the resources array is handed to a worker at about this
  /// size.
  std::size_t batch_bytes = std::size_t{1} << 20;
  /// Ranges queued or running at once (0: 2 × jobs).
  std::size_t max_batches_in_flight = 0;
  /// A worker's window's first size (state::ReadOptions::window_size).
  std::size_t window_size = std::size_t{256} << 10;
};

/// Who read the resources: kParallel when the elements of at least one
/// "resources" array were read and checked by workers.
enum class Executor { kSequential, kParallel };

/// Whether `input` can be read in parallel: a plain (uncompressed) regular
/// file, which can also be opened again for a fallback.
bool CanSplit(const io::InputStream& input);

/// A resource as a worker sees it: located from its first byte's
/// line:column, reporting into a list. The parallel executor's
/// state::Context.
class ResourceContext final : public state::Context {
 public:
  /// `input_file`: what the reader's context says of its input (the fold
  /// then reads offsets a worker kept from the same file).
  ResourceContext(std::uint64_t offset, std::string_view bytes,
                  io::LineColumn at, const state::Envelope& envelope,
                  std::vector<diag::Finding>* findings,
                  const io::InputStream* input_file = nullptr)
      : input_file_(input_file),
        offset_(offset),
        bytes_(bytes),
        at_(at),
        envelope_(envelope),
        findings_(findings),
        last_offset_(offset),
        last_at_(at),
        far_offset_(offset),
        far_at_(at),
        stride_(std::max<std::size_t>(kMinStride, bytes.size() / kMarks + 1)) {}
  void Report(diag::Finding finding, std::uint64_t offset) override;
  void ReportUnlocated(diag::Finding finding) override {
    findings_->push_back(std::move(finding));
  }
  /// Clamped to the resource, as the reader's window clamps to what it
  /// holds. Counted from the nearest known place before the offset: the
  /// last answer, or one of the marks left every `stride_` bytes by the
  /// counting so far. Checks locate in field order, not file order (a
  /// resource's provider before its parent, both after its properties),
  /// so an offset behind the furthest one counts at most a stride again,
  /// and a resource's bytes are counted about once.
  io::LineColumn Locate(std::uint64_t offset) override;
  const state::Envelope& envelope() const override { return envelope_; }
  const io::InputStream* input_file() const override { return input_file_; }

 private:
  const io::InputStream* input_file_;
  std::uint64_t offset_;
  std::string_view bytes_;
  io::LineColumn at_;
  const state::Envelope& envelope_;
  std::vector<diag::Finding>* findings_;
  std::uint64_t last_offset_;
  io::LineColumn last_at_;
  static constexpr std::size_t kMarks = 16;
  static constexpr std::size_t kMinStride = 4096;
  /// The furthest offset located, and its line:column.
  std::uint64_t far_offset_;
  io::LineColumn far_at_;
  std::size_t stride_;
  /// marks_[k]: the line:column of offset_ + (k + 1) × stride_, for the
  /// first `marked_` of them (those at or before far_offset_).
  std::array<io::LineColumn, kMarks> marks_{};
  std::size_t marked_ = 0;
};

/// The context of Pass::Fold for a resource a worker read: it reports
/// into the reader's context, and locates offsets inside the resource by
/// reading its bytes again from the file (the reader has moved on), which
/// only a finding made at the fold needs (rarely: a rule that failed).
class FoldContext final : public state::Context {
 public:
  FoldContext(state::Context& inner, const io::InputStream& file,
              std::uint64_t offset, std::uint64_t size, io::LineColumn at)
      : inner_(inner), file_(file), offset_(offset), size_(size), at_(at) {}
  void Report(diag::Finding finding, std::uint64_t offset) override;
  void ReportUnlocated(diag::Finding finding) override {
    inner_.ReportUnlocated(std::move(finding));
  }
  /// Clamped to the resource; the resource's first byte when the file
  /// cannot be read again.
  io::LineColumn Locate(std::uint64_t offset) override;
  const state::Envelope& envelope() const override { return inner_.envelope(); }
  const io::InputStream* input_file() const override {
    return inner_.input_file();
  }

 private:
  state::Context& inner_;
  const io::InputStream& file_;
  std::uint64_t offset_;
  std::uint64_t size_;
  io::LineColumn at_;
};

namespace internal {

/// Where a "resources" array's elements start and what a line that starts
/// one looks like.
struct FirstElement {
  enum class Kind {
    kEmpty,        ///< the array is `[ ]`: `offset` is its ']'
    kAtLineStart,  ///< the first element starts a line after `indent`
    kOther,        ///< anything else: the sequential reader reads it
  };
  Kind kind = Kind::kOther;
  std::uint64_t offset = 0;
  io::LineColumn at;
  std::string indent;  ///< the bytes between the line's start and it
};
FirstElement FindFirstElement(const io::InputStream& file,
                              const state::ResourcesSpan& span);

/// The first offset at or after `from` that starts a line of `indent`
/// followed by '{' (the offset of the '{'); nullopt when the file ends
/// first or cannot be read.
std::optional<std::uint64_t> FindElementLine(const io::InputStream& file,
                                             std::string_view indent,
                                             std::uint64_t from);

/// Lines and element-like line starts (as FindElementLine finds them) of
/// the bytes [begin, end) of the file.
struct RangeCounts {
  std::uint64_t newlines = 0;
  std::size_t element_lines = 0;
};
/// A worker's buffer for the bytes of the range it counts, so that its
/// parse reads them where they are (a window over them: io::Window's
/// second constructor), still warm in the cache, instead of reading the
/// file a second time. Reused from range to range; `bytes` is what the
/// last CountRange read, from file offset `at` (empty when the range was
/// too large to hold), followed by io::Window::kPadding bytes of room.
struct HeldBytes {
  /// A range larger than this is counted by chunks and read again.
  static constexpr std::size_t kMaxHeld = std::size_t{8} << 20;
  std::unique_ptr<char[]> buffer;
  std::size_t capacity = 0;
  std::string_view bytes;
  std::uint64_t at = 0;
};
/// An element line CountRange found: the offset of its '{' and the
/// newlines between the range's first byte and it, so that the worker
/// knows the line of each element it parses without counting again.
struct ElementLine {
  std::uint64_t offset = 0;
  std::uint64_t newlines = 0;
};
/// For tests: count with block loops of at most `width` bytes (64: the
/// widest the processor has, the default; 32; 16), so that each is tested
/// on a machine that has a wider one.
void CountWithLoopsUpTo(int width);

/// `held`, when given, receives the range's bytes (from a little before
/// `begin` to a little after `end`) when they fit HeldBytes::kMaxHeld.
/// `lines`, when given, receives the element lines counted, in order
/// (cleared first).
std::optional<RangeCounts> CountRange(
    const io::InputStream& file, std::string_view indent, std::uint64_t begin,
    std::uint64_t end, HeldBytes* held = nullptr,
    std::vector<ElementLine>* lines = nullptr);

/// The ranges' counts, posted by the workers in any order and awaited in
/// range order: range i starts after the lines and elements of ranges
/// 0..i-1.
class RangePrefix {
 public:
  struct Base {
    std::uint64_t newlines = 0;
    std::size_t elements = 0;
  };
  /// Range i's counts, or (nullopt) that it has none: every later range
  /// then gives up.
  void Post(std::size_t i, std::optional<RangeCounts> counts);
  /// Blocks until ranges 0..i-1 posted; nullopt when one of them failed.
  std::optional<Base> Wait(std::size_t i);

 private:
  std::mutex mutex_;
  std::condition_variable posted_;
  std::vector<std::optional<std::optional<RangeCounts>>> counts_;
};

/// One worker's reading of one range: the elements from `begin` (line:
/// column `at`, index `first_index`) until the one followed by `bound`
/// (or by the array's ']' when `bound` is nullopt or not reached).
class RangeParser {
 public:
  /// `held`: the range's bytes, already read (HeldBytes), parsed where
  /// they are; the file is read only without them.
  RangeParser(const io::InputStream& file, std::string_view array_pointer,
              std::string_view indent, std::uint64_t begin, io::LineColumn at,
              std::optional<std::uint64_t> bound, std::size_t first_index,
              std::size_t window_size, json::Parser& parser, json::Arena& arena,
              HeldBytes* held = nullptr);

  enum class Step {
    kElement,  ///< `leaf` is the next element (its bytes valid until Next)
    kLanded,   ///< the last element was followed by `bound`
    kEnded,    ///< the last element was followed by the array's ']'
    kFailed,   ///< anything else: the parallel read gives up
  };
  Step Next(state::Leaf* leaf);
  /// The window holding the element Next returned (for locating offsets
  /// in it until the next call).
  io::Window& window() { return window_; }

  std::size_t elements() const { return elements_; }
  /// After kEnded: just past the ']', and its line:column.
  std::uint64_t end() const { return end_; }
  io::LineColumn at_end() const { return at_end_; }

 private:
  /// Skips whitespace; false when the input failed. `*c` is '\0' at end.
  bool Peek(char* c, std::size_t* newlines_skipped = nullptr);
  bool Fill();

  std::unique_ptr<io::InputStream> input_;
  io::Window window_;
  std::string pointer_;
  std::size_t pointer_prefix_;
  std::string indent_;
  std::optional<std::uint64_t> bound_;
  std::size_t index_;
  json::Parser& parser_;
  json::Arena& arena_;
  const char* pos_ = nullptr;
  bool ok_ = false;
  bool first_ = true;
  std::size_t elements_ = 0;
  std::uint64_t end_ = 0;
  io::LineColumn at_end_;
};

/// Makes a partial that Fold had (and may have moved from) ready for
/// another resource: its own Recycle() when it has one (which keeps what
/// it allocated), else a fresh value.
template <typename T>
void RecyclePartial(T& partial) {
  if constexpr (requires { partial.Recycle(); }) {
    partial.Recycle();
  } else {
    partial = T{};
  }
}

/// The parallel read of one pass; see the file comment.
template <typename P>
class ParallelRead final : public state::Handler {
 public:
  using Partial = typename P::Partial;

  ParallelRead(P& pass, const io::InputStream& file, const Options& options)
      : pass_(pass),
        file_(file),
        options_(options),
        jobs_(options.jobs),
        pool_(options.jobs, options.max_batches_in_flight == 0
                                ? 2 * static_cast<std::size_t>(options.jobs)
                                : options.max_batches_in_flight) {}

  ~ParallelRead() override {
    // Running work refers to the slots and the prefix: wait for it.
    abandoned_ = true;
    try {
      pool_.Finish();
    } catch (...) {  // NOLINT(bugprone-empty-catch): the read failed already
    }
  }

  /// True when the read cannot stand for the sequential one.
  bool gave_up() const { return gave_up_; }
  /// True when the elements of a "resources" array were read by workers
  /// (not an empty array, not one left to the reader).
  bool split() const { return split_; }

  /// ReadOptions::on_resources.
  Result<state::ResourcesRead> OnResources(const state::ResourcesSpan& span,
                                           state::Context& context) {
    if (gave_up_) return GiveUp();
    FirstElement first = FindFirstElement(file_, span);
    state::ResourcesRead read;
    if (first.kind == FirstElement::Kind::kOther) return read;
    read.handled = true;
    if (first.kind == FirstElement::Kind::kEmpty) {
      read.end = first.offset + 1;
      read.at_end = first.at;
      ++read.at_end.column;
      ++read.at_end.char_column;
      return read;
    }
    Run run;
    run.pointer = std::string(span.pointer);
    run.first = std::move(first);
    run.envelope = context.envelope();
    run.context = &context;
    run.input_file = context.input_file();
    std::vector<std::unique_ptr<Slot>> slots;
    for (int i = 0; i < jobs_; ++i) {
      auto slot = std::make_unique<Slot>();
      slot->worker = pass_.NewWorker();
      idle_.push_back(slot.get());
      slots.push_back(std::move(slot));
    }
    std::uint64_t begin = run.first.offset;
    std::size_t step = std::max<std::size_t>(options_.batch_bytes, 1);
    for (std::size_t i = 0; !run.ended && !gave_up_; ++i) {
      std::optional<std::uint64_t> bound =
          FindElementLine(file_, run.first.indent, begin + step);
      auto range = std::make_shared<Range>();
      range->index = i;
      range->begin = begin;
      range->bound = bound;
      pool_.Submit([this, range, &run] { Work(*range, run); },
                   [this, range, &run] { Deliver(*range, run); });
      if (!bound) break;
      begin = *bound;
    }
    pool_.Finish();
    idle_.clear();
    if (stopped_) {
      read.stopped = true;
      split_ = true;
      return read;
    }
    if (gave_up_ || !run.ended) {
      gave_up_ = true;
      return GiveUp();
    }
    read.end = run.end;
    read.at_end = run.at_end;
    read.elements = run.elements;
    split_ = true;
    return read;
  }

  // Every other event goes to the pass as it is.
  void BeginObject() override { pass_.BeginObject(); }
  void Key(std::string_view raw_key) override { pass_.Key(raw_key); }
  void EndObject() override { pass_.EndObject(); }
  void BeginArray() override { pass_.BeginArray(); }
  void EndArray() override { pass_.EndArray(); }
  void OnEnvelopeMember(const state::EnvelopeMember& member,
                        state::Context& context) override {
    pass_.OnEnvelopeMember(member, context);
  }
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override {
    // The elements of an array the executor left to the reader.
    return pass_.OnLeaf(leaf, context);
  }
  Status OnFinish(const state::Envelope& envelope,
                  state::Context& context) override {
    return pass_.OnFinish(envelope, context);
  }

 private:
  struct Item {
    Partial partial{};
    std::vector<diag::Finding> findings;
    /// The resource's bytes in the file and its first byte's line:column,
    /// for Fold's Locate (FoldContext).
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    io::LineColumn at;
  };
  struct Range {
    std::size_t index = 0;
    std::uint64_t begin = 0;
    std::optional<std::uint64_t> bound;
    /// The first `count` are this range's resources; the vector and what
    /// its items allocated are reused from range to range (spare_).
    std::vector<Item> items;
    std::size_t count = 0;
    RangeParser::Step outcome = RangeParser::Step::kFailed;
    std::uint64_t end = 0;
    io::LineColumn at_end;
  };
  /// One "resources" array.
  struct Run {
    std::string pointer;
    FirstElement first;
    state::Envelope envelope;
    state::Context* context = nullptr;
    const io::InputStream* input_file = nullptr;  ///< context's
    RangePrefix prefix;
    bool ended = false;
    std::uint64_t end = 0;
    io::LineColumn at_end;
    std::size_t elements = 0;
  };
  struct Slot {
    std::unique_ptr<Worker<Partial>> worker;
    json::Parser parser;
    json::Arena arena;
    HeldBytes held;
    std::vector<ElementLine> lines;  ///< the range's, as CountRange found them
  };

  Status GiveUp() {
    return Status(Errc::kInvalidArgument,
                  "the parallel read cannot reproduce the sequential one");
  }

  Slot* TakeSlot() {
    std::lock_guard<std::mutex> lock(mutex_);
    Slot* slot = idle_.back();
    idle_.pop_back();
    return slot;
  }
  void ReturnSlot(Slot* slot) {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_.push_back(slot);
  }

  /// A reused vector of items (their partials recycled), or an empty one.
  /// Reuse is what keeps a worker from allocating a pass's partial for
  /// every resource and the folding thread from freeing it: an allocation
  /// freed on another thread costs glibc's allocator several times one
  /// made and freed on the same thread.
  std::vector<Item> TakeSpare() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (spare_.empty()) return {};
    std::vector<Item> items = std::move(spare_.back());
    spare_.pop_back();
    return items;
  }
  void GiveSpare(std::vector<Item> items) {
    std::lock_guard<std::mutex> lock(mutex_);
    spare_.push_back(std::move(items));
  }

  void Work(Range& range, Run& run) {
    const std::string& indent = run.first.indent;
    // No more ranges run at once than there are workers, and as many
    // slots: one is free.
    Slot* slot = TakeSlot();
    struct Return {
      ParallelRead* read;
      Slot* slot;
      ~Return() { read->ReturnSlot(slot); }
    } give_back{this, slot};
    // Post before waiting, whatever happens: ranges wait in order, and
    // one that never posted would hold every later one.
    std::optional<RangeCounts> counts;
    slot->held.bytes = {};
    slot->lines.clear();
    try {
      if (range.bound) {
        counts = CountRange(file_, indent, range.begin, *range.bound,
                            &slot->held, &slot->lines);
      }
    } catch (...) {
      run.prefix.Post(range.index, std::nullopt);
      throw;
    }
    run.prefix.Post(range.index, counts);
    std::optional<RangePrefix::Base> base = run.prefix.Wait(range.index);
    if (!base || abandoned_ || stopped_) return;
    io::LineColumn at = run.first.at;
    if (range.index > 0) {
      at.line += base->newlines;
      at.column = indent.size() + 1;
      at.char_column = at.column;
    }
    RangeParser parser(file_, run.pointer, indent, range.begin, at, range.bound,
                       base->elements, options_.window_size, slot->parser,
                       slot->arena, &slot->held);
    range.items = TakeSpare();
    for (;;) {
      state::Leaf leaf;
      RangeParser::Step step = parser.Next(&leaf);
      if (step != RangeParser::Step::kElement) {
        range.outcome = step;
        break;
      }
      std::size_t k = range.count++;
      if (k == range.items.size()) range.items.emplace_back();
      Item& item = range.items[k];
      item.offset = leaf.value.offset;
      item.size = leaf.bytes.size();
      // The count found the element's line: no second count to locate it.
      if (k < slot->lines.size() && slot->lines[k].offset == item.offset) {
        item.at = slot->lines[k].newlines == 0
                      ? at
                      : io::LineColumn{at.line + slot->lines[k].newlines,
                                       indent.size() + 1, indent.size() + 1};
      } else {
        item.at = parser.window().Locate(leaf.value.offset);
      }
      ResourceContext context(item.offset, leaf.bytes, item.at, run.envelope,
                              &item.findings, run.input_file);
      slot->worker->PerResource(leaf, context, item.partial);
      slot->arena.Reset();
    }
    slot->arena.Reset();
    if (range.outcome == RangeParser::Step::kLanded &&
        (!counts || parser.elements() != counts->element_lines)) {
      range.outcome = RangeParser::Step::kFailed;
    }
    if (range.outcome == RangeParser::Step::kEnded) {
      range.end = parser.end();
      range.at_end = parser.at_end();
    }
  }

  void Deliver(Range& range, Run& run) {
    // Past the array, or past what the pass wanted.
    if (run.ended || gave_up_ || abandoned_ || stopped_) return;
    if (range.outcome == RangeParser::Step::kFailed) {
      gave_up_ = true;
      return;
    }
    for (std::size_t k = 0; k < range.count; ++k) {
      Item& item = range.items[k];
      for (diag::Finding& f : item.findings) {
        run.context->ReportUnlocated(std::move(f));
      }
      item.findings.clear();
      FoldContext context(*run.context, file_, item.offset, item.size, item.at);
      state::Flow flow = pass_.Fold(std::move(item.partial), context);
      RecyclePartial(item.partial);
      if (flow == state::Flow::kStop) {
        stopped_ = true;
        return;
      }
    }
    run.elements += range.count;
    GiveSpare(std::move(range.items));
    if (range.outcome == RangeParser::Step::kEnded) {
      run.ended = true;
      run.end = range.end;
      run.at_end = range.at_end;
    }
    if (options_.on_progress) {
      options_.on_progress(range.bound.value_or(range.end),
                           file_.source_size().value_or(0));
    }
  }

  P& pass_;
  const io::InputStream& file_;
  const Options& options_;
  int jobs_;
  std::mutex mutex_;
  std::vector<Slot*> idle_;
  /// Item vectors of delivered ranges (at most as many as are in flight).
  std::vector<std::vector<Item>> spare_;
  bool gave_up_ = false;
  bool split_ = false;
  std::atomic<bool> abandoned_ = false;
  /// A fold answered kStop: later ranges are neither parsed nor folded.
  std::atomic<bool> stopped_ = false;
  ThreadPool pool_;  // last: destroyed (joined) first
};

}  // namespace internal

/// What Run did.
template <typename P>
struct Ran {
  /// Who read the resources.
  Executor executor = Executor::kSequential;
  /// What the read itself returned: the open failure, a handler's own
  /// failure, or Ok (a located reason for a failed read is in the report).
  Status status;
  /// The pass that produced the report, with its result; null when the
  /// input could not be opened.
  std::unique_ptr<P> pass;
};

/// A fresh stream over the whole input from its start, each time it is
/// called: io::OpenInput of a path, io::Replayable::Open.
using Opener = std::function<Result<std::unique_ptr<io::InputStream>>()>;

/// Reads the input `open` gives once through a pass from `make`. An input
/// that cannot be opened is a fatal kIoError finding (nothing is read).
/// Findings and the fatal failure go to `report`; `make` is called again
/// (after the previous pass is destroyed) when a parallel read falls back.
/// `open` is called a second time for the parallel read's own stream.
template <typename P>
Ran<P> Run(const Opener& open, const std::function<std::unique_ptr<P>()>& make,
           diag::Report& report, const Options& options) {
  Ran<P> ran;
  auto input = open();
  if (!input.ok()) {
    ran.status = input.status();
    report.Add(
        diag::MakeFinding(diag::Code::kIoError, input.status().message()));
    return ran;
  }
  state::ReadOptions read;
  read.on_progress = options.on_progress;
  std::unique_ptr<P> pass = make();
  if (options.jobs > 1 && pass->splittable() && CanSplit(**input)) {
    // The parallel read gets its own stream of the same file; the first
    // stays unread for the fallback.
    auto again = open();
    if (again.ok() && CanSplit(**again)) {
      diag::Report before = report;
      bool gave_up = false;
      bool split = false;
      {
        internal::ParallelRead<P> parallel(*pass, **again, options);
        read.on_resources = [&parallel](const state::ResourcesSpan& span,
                                        state::Context& context) {
          return parallel.OnResources(span, context);
        };
        ran.status = state::Read(**again, parallel, report, read);
        gave_up = parallel.gave_up();
        split = parallel.split();
      }
      if (!gave_up && !report.fatal()) {
        ran.executor = split ? Executor::kParallel : Executor::kSequential;
        ran.pass = std::move(pass);
        return ran;
      }
      report = std::move(before);
      pass.reset();
      pass = make();
      read.on_resources = nullptr;
    }
  }
  ran.status = state::Read(**input, *pass, report, read);
  ran.pass = std::move(pass);
  return ran;
}

/// Run of the file at `path` ("-": standard input).
template <typename P>
Ran<P> Run(const std::string& path,
           const std::function<std::unique_ptr<P>()>& make,
           diag::Report& report, const Options& options) {
  return Run<P>(Opener([&path] { return io::OpenInput(path); }), make, report,
                options);
}

/// The Status of a read for a command whose result is data (ls, stats,
/// show, tree, graph, diff), which has no findings to print: Ok; the
/// report's fatal finding as diag::FailureOf's located Status (kFormat
/// when the read itself returned Ok); a handler's own failure as it is.
Status Explain(const diag::Report& report, const Status& status);

/// state::Read of `input` (named `name` in messages) through `handler`,
/// sequentially, explained as Explain does.
Status ReadOrExplain(
    io::InputStream& input, const std::string& name, state::Handler& handler,
    const std::function<void(std::uint64_t, std::uint64_t)>& on_progress = {});

/// Run for a command whose result is data: the pass that read the state
/// (its result in it), or the failure: an input that could not be opened
/// as io said it (its message names the file and the cause), else as
/// Explain gives it. `executor`, when given, learns who read the
/// resources.
template <typename P>
Result<std::unique_ptr<P>> RunOrExplain(
    const Opener& open, const std::string& name,
    const std::function<std::unique_ptr<P>()>& make, const Options& options,
    Executor* executor = nullptr) {
  diag::Report report(name);
  Ran<P> ran = Run<P>(open, make, report, options);
  if (executor != nullptr) *executor = ran.executor;
  if (ran.pass == nullptr) return ran.status;  // not opened
  if (Status s = Explain(report, ran.status); !s.ok()) return s;
  return std::move(ran.pass);
}

/// RunOrExplain of the file at `path` ("-": standard input).
template <typename P>
Result<std::unique_ptr<P>> RunOrExplain(
    const std::string& path, const std::string& name,
    const std::function<std::unique_ptr<P>()>& make, const Options& options) {
  return RunOrExplain<P>(Opener([&path] { return io::OpenInput(path); }), name,
                         make, options);
}

}  // namespace pstate::engine

#endif  // PSTATE_ENGINE_EXECUTOR_H_
