// The one engine that reads a state for a pass: it opens the input, owns
// progress, stopping and the one fatal failure (a located finding in the
// report, diag::IsFatal), and chooses the executor.
//
//  - Sequential streaming (pipes, standard input, gzip/zstd, --jobs 1, or a
//    pass that cannot be split): one forward pass through state::Read,
//    exactly as every command read before.
//  - Parallel (a plain regular file and --jobs N > 1): state::Read still
//    walks the envelope, so every envelope rule holds, but the elements of
//    "resources" are only delimited on the reader's thread by a structural
//    scan (boundary.h) and copied into batches; N worker threads parse and
//    check them (Worker::PerResource), and the reader's thread folds the
//    partials strictly in file order (Pass::Fold). Batches grow from one
//    resource to `batch_bytes`, and at most `max_batches_in_flight` are
//    queued or running, so memory holds a few MiB of resources whatever
//    the size of the file. Before any other event of the read (an envelope
//    member, a leaf, the end) every resource before it is folded.
//
// Output is identical either way. Where the parallel read cannot promise
// that, it gives up and the input is read again sequentially, by a fresh
// pass, into the report as it was before: when the read meets a fatal
// finding (a syntax error inside a resource or the envelope, an unreadable
// input, an unsupported version; the first error in file order must win
// and nothing after it may be reported), or when a worker's parse of a
// delimited resource fails or does not end where the scan did. Duplicate
// "resources" members need no fallback: each one is folded before the
// reader announces the next.
#ifndef PSTATE_ENGINE_EXECUTOR_H_
#define PSTATE_ENGINE_EXECUTOR_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "base/thread_pool.h"
#include "diag/report.h"
#include "engine/boundary.h"
#include "engine/pass.h"
#include "io/input.h"
#include "json/parser.h"
#include "state/reader.h"

namespace pstate::engine {

struct Options {
  /// Threads for the per-resource work (1: the sequential executor).
  int jobs = 1;
  /// Called every few MiB with (bytes consumed, size or 0). A parallel
  /// read that falls back starts counting again.
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
  /// A batch of resources is handed to a worker at this size.
  std::size_t batch_bytes = std::size_t{1} << 20;
  /// Batches queued or running at once (0: 2 × jobs).
  std::size_t max_batches_in_flight = 0;
};

enum class Executor { kSequential, kParallel };

/// Whether `input` can be read in parallel: a plain (uncompressed) regular
/// file, which can also be opened again for a fallback.
bool CanSplit(const io::InputStream& input);

/// A resource as a worker sees it: located by its first byte's line:column,
/// reporting into a list. The parallel executor's state::Context.
class ResourceContext final : public state::Context {
 public:
  ResourceContext(const state::RawResource& raw,
                  const state::Envelope& envelope,
                  std::vector<diag::Finding>* findings)
      : raw_(raw), envelope_(envelope), findings_(findings) {}
  void Report(diag::Finding finding, std::uint64_t offset) override;
  void ReportUnlocated(diag::Finding finding) override {
    findings_->push_back(std::move(finding));
  }
  io::LineColumn Locate(std::uint64_t offset) override;
  const state::Envelope& envelope() const override { return envelope_; }

 private:
  const state::RawResource& raw_;
  const state::Envelope& envelope_;
  std::vector<diag::Finding>* findings_;
};

namespace internal {

/// A worker's parse of one delimited resource: the same json::Parser the
/// reader uses, over exactly the resource's bytes. False when it fails or
/// stops elsewhere (the executor then falls back).
bool ParseResource(const state::RawResource& raw, json::Parser& parser,
                   json::Arena& arena, state::Leaf* leaf);

/// The parallel read of one pass; see the file comment.
template <typename P>
class ParallelRead final : public state::Handler {
 public:
  using Partial = typename P::Partial;

  ParallelRead(P& pass, const Options& options)
      : pass_(pass),
        options_(options),
        jobs_(options.jobs),
        pool_(options.jobs, options.max_batches_in_flight == 0
                                ? 2 * static_cast<std::size_t>(options.jobs)
                                : options.max_batches_in_flight) {}

  ~ParallelRead() override {
    // Running work refers to the slots: wait for it before they go. The
    // reader (and its context) is gone: nothing more is folded.
    abandoned_ = true;
    try {
      pool_.Finish();
    } catch (...) {  // NOLINT(bugprone-empty-catch): the read failed already
    }
  }

  /// True when the read cannot stand for the sequential one.
  bool gave_up() const { return gave_up_; }

  Result<state::Flow> OnRawResource(const state::RawResource& raw,
                                    state::Context& context) {
    if (gave_up_) return GiveUp();
    if (slots_.empty()) {
      for (int i = 0; i < jobs_; ++i) {
        auto slot = std::make_unique<Slot>();
        slot->worker = pass_.NewWorker();
        slots_.push_back(std::move(slot));
      }
      for (auto& slot : slots_) idle_.push_back(slot.get());
    }
    if (!batch_) {
      batch_ = std::make_shared<Batch>();
      batch_->envelope = context.envelope();
      batch_->first_offset = raw.offset;
    }
    Item item;
    item.begin = batch_->bytes.size();
    item.raw.index = raw.index;
    item.raw.offset = raw.offset;
    item.raw.at = raw.at;
    item.pointer = std::string(raw.pointer);
    batch_->bytes.append(raw.bytes);
    item.size = raw.bytes.size();
    batch_->items.push_back(std::move(item));
    if (batch_->items.size() >= items_per_batch_ ||
        batch_->bytes.size() >= options_.batch_bytes) {
      Submit(context);
    }
    if (gave_up_) return GiveUp();
    return state::Flow::kContinue;
  }

  // Every other event: fold what came before it, then the pass's turn.
  void BeginObject() override {
    Drain();
    pass_.BeginObject();
  }
  void Key(std::string_view raw_key) override {
    Drain();
    pass_.Key(raw_key);
  }
  void EndObject() override {
    Drain();
    pass_.EndObject();
  }
  void BeginArray() override {
    Drain();
    pass_.BeginArray();
  }
  void EndArray() override {
    Drain();
    pass_.EndArray();
  }
  void OnEnvelopeMember(const state::EnvelopeMember& member,
                        state::Context& context) override {
    Drain();
    pass_.OnEnvelopeMember(member, context);
  }
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override {
    Drain();
    if (gave_up_) return GiveUp();
    // A resource the scan could not delimit reaches the pass as a leaf;
    // the read ends with a fatal finding almost surely, and falls back.
    return pass_.OnLeaf(leaf, context);
  }
  Status OnFinish(const state::Envelope& envelope,
                  state::Context& context) override {
    Drain();
    if (gave_up_) return GiveUp().status();
    return pass_.OnFinish(envelope, context);
  }

 private:
  struct Item {
    std::size_t begin = 0;
    std::size_t size = 0;
    std::string pointer;
    state::RawResource raw;
    Partial partial{};
    std::vector<diag::Finding> findings;
    bool failed = false;
  };
  struct Batch {
    std::string bytes;
    std::vector<Item> items;
    state::Envelope envelope;
    std::uint64_t first_offset = 0;
  };
  struct Slot {
    std::unique_ptr<Worker<Partial>> worker;
    json::Parser parser;
    json::Arena arena;
  };

  Result<state::Flow> GiveUp() {
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

  void Work(Batch& batch) {
    // The parser may read up to kParserPadding bytes past a value.
    Slot* slot = TakeSlot();
    for (Item& item : batch.items) {
      item.raw.pointer = item.pointer;
      item.raw.bytes =
          std::string_view(batch.bytes.data() + item.begin, item.size);
      state::Leaf leaf;
      if (!ParseResource(item.raw, slot->parser, slot->arena, &leaf)) {
        item.failed = true;
        slot->arena.Reset();
        break;  // nothing after a failure is folded
      }
      ResourceContext context(item.raw, batch.envelope, &item.findings);
      slot->worker->PerResource(leaf, context, item.partial);
      slot->arena.Reset();
    }
    ReturnSlot(slot);
  }

  void Deliver(Batch& batch, state::Context& context) {
    for (Item& item : batch.items) {
      if (gave_up_ || abandoned_) return;
      if (item.failed) {
        gave_up_ = true;
        return;
      }
      for (diag::Finding& f : item.findings) {
        context.ReportUnlocated(std::move(f));
      }
      pass_.Fold(std::move(item.partial), context);
    }
  }

  void Submit(state::Context& context) {
    std::shared_ptr<Batch> batch = std::move(batch_);
    batch_.reset();
    batch->bytes.append(json::kParserPadding, '\0');
    if (items_per_batch_ < options_.batch_bytes) items_per_batch_ *= 2;
    pool_.Submit([this, batch] { Work(*batch); },
                 [this, batch, &context] { Deliver(*batch, context); });
  }

  /// Folds every resource read so far.
  void Drain() {
    if (batch_ && context_for_drain_) Submit(*context_for_drain_);
    pool_.Finish();
    slots_.clear();  // the next run of resources starts from the pass anew
    idle_.clear();
  }

 public:
  /// The reader's context, for folding at events that do not carry one.
  void set_context(state::Context* context) { context_for_drain_ = context; }

 private:
  P& pass_;
  const Options& options_;
  int jobs_;
  std::shared_ptr<Batch> batch_;
  std::size_t items_per_batch_ = 1;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<Slot*> idle_;
  state::Context* context_for_drain_ = nullptr;
  bool gave_up_ = false;
  bool abandoned_ = false;
  ThreadPool pool_;  // last: destroyed (joined) first
};

}  // namespace internal

/// Reads `path` ("-": standard input) once through a pass from `make`, and
/// returns which executor produced the report. An input that cannot be
/// opened is a fatal kIoError finding (nothing is read). Findings and the
/// fatal failure go to `report`; `make` is called again (after the
/// previous pass is destroyed) when a parallel read falls back.
template <typename P>
Executor Run(const std::string& path,
             const std::function<std::unique_ptr<P>()>& make,
             diag::Report& report, const Options& options) {
  auto input = io::OpenInput(path);
  if (!input.ok()) {
    report.Add(
        diag::MakeFinding(diag::Code::kIoError, input.status().message()));
    return Executor::kSequential;
  }
  state::ReadOptions read;
  read.on_progress = options.on_progress;
  std::unique_ptr<P> pass = make();
  if (options.jobs > 1 && pass->splittable() && CanSplit(**input)) {
    // The parallel read gets its own stream of the same file; the first
    // stays unread for the fallback.
    auto again = io::OpenInput(path);
    if (again.ok() && CanSplit(**again)) {
      diag::Report before = report;
      Status status;
      bool gave_up = false;
      {
        internal::ParallelRead<P> parallel(*pass, options);
        read.resource_scanner = &FindValueEnd;
        read.on_raw_resource = [&parallel](const state::RawResource& raw,
                                           state::Context& context) {
          parallel.set_context(&context);
          return parallel.OnRawResource(raw, context);
        };
        status = state::Read(**again, parallel, report, read);
        gave_up = parallel.gave_up();
      }
      if (!gave_up && !report.fatal()) return Executor::kParallel;
      (void)status;  // the report holds the located reason, if any
      report = std::move(before);
      pass.reset();
      pass = make();
      read.resource_scanner = nullptr;
      read.on_raw_resource = nullptr;
    }
  }
  Status status = state::Read(**input, *pass, report, read);
  (void)status;  // the report holds the located reason
  return Executor::kSequential;
}

}  // namespace pstate::engine

#endif  // PSTATE_ENGINE_EXECUTOR_H_
