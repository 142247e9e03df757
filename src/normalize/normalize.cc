#include "normalize/normalize.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

#include "diag/report.h"
#include "io/output.h"
#include "io/rewrite_guard.h"
#include "normalize/pass.h"
#include "state/reader.h"
#include "state/rewrite.h"

namespace pstate::normalize {
namespace {

/// Forwards to another output and remembers whether anything reached it,
/// so a pass that must start over knows whether it still can.
class TrackingOutput : public io::Output {
 public:
  explicit TrackingOutput(io::Output& inner) : inner_(inner) {
    name_ = inner.name();
  }
  Status Commit() override {
    Flush();
    return inner_.Commit();
  }
  void Abandon() override {
    DiscardBuffer();
    inner_.Abandon();
  }
  /// True when something reached the inner output (a pass that must
  /// start over cannot when that output is a stream).
  bool forwarded() const { return forwarded_ > 0; }

 private:
  void WriteOut(std::string_view bytes) override {
    forwarded_ += bytes.size();
    inner_.Write(bytes);
  }
  io::Output& inner_;
  std::uint64_t forwarded_ = 0;
};

/// Compares what is written with the decoded bytes of the input, and
/// remembers the first byte that differs.
class ComparingOutput : public io::Output {
 public:
  explicit ComparingOutput(std::unique_ptr<io::InputStream> input)
      : input_(std::move(input)) {
    name_ = "<check>";
  }
  Status Commit() override {
    Flush();
    if (!differs_) {
      // The input must end where the normalized form ends.
      char c = 0;
      Result<std::size_t> n = Next(&c);
      if (n.ok() && *n > 0) differs_ = true;
    }
    return Status::Ok();
  }
  void Abandon() override { DiscardBuffer(); }
  bool differs() const { return differs_; }
  std::uint64_t offset() const { return offset_; }
  std::uint64_t line() const { return line_; }
  std::uint64_t column() const { return column_; }

 private:
  Result<std::size_t> Next(char* c) {
    if (pos_ == have_) {
      Result<std::size_t> n = input_->Read(buf_, sizeof buf_);
      if (!n.ok()) return n;
      have_ = *n;
      pos_ = 0;
      if (have_ == 0) return std::size_t{0};
    }
    *c = buf_[pos_++];
    return std::size_t{1};
  }
  void WriteOut(std::string_view bytes) override {
    // Chunk by chunk: memcmp finds equality fast; only the chunk holding
    // the first difference is walked byte by byte.
    while (!bytes.empty() && !differs_) {
      if (pos_ == have_) {
        Result<std::size_t> n = input_->Read(buf_, sizeof buf_);
        if (!n.ok() || *n == 0) {
          differs_ = true;
          return;
        }
        have_ = *n;
        pos_ = 0;
      }
      std::size_t n = std::min(bytes.size(), have_ - pos_);
      std::size_t same = n;
      if (std::memcmp(bytes.data(), buf_ + pos_, n) != 0) {
        same = 0;
        while (bytes[same] == buf_[pos_ + same]) ++same;
        differs_ = true;
      }
      const char* p = bytes.data();
      const char* end = p + same;
      const char* last_newline = nullptr;
      while (const void* q =
                 std::memchr(p, '\n', static_cast<std::size_t>(end - p))) {
        ++line_;
        last_newline = static_cast<const char*>(q);
        p = last_newline + 1;
      }
      column_ = last_newline ? static_cast<std::uint64_t>(end - last_newline)
                             : column_ + same;
      offset_ += same;
      pos_ += same;
      bytes.remove_prefix(same);
    }
  }

  std::unique_ptr<io::InputStream> input_;
  char buf_[1 << 16];
  std::size_t have_ = 0;
  std::size_t pos_ = 0;
  bool differs_ = false;
  std::uint64_t offset_ = 0;
  std::uint64_t line_ = 1;
  std::uint64_t column_ = 1;
};

/// Finds the innermost value holding an offset.
class PointerFinder : public state::Handler {
 public:
  explicit PointerFinder(std::uint64_t offset) : offset_(offset) {}
  Result<state::Flow> OnLeaf(state::Leaf& leaf, state::Context&) override {
    if (leaf.value.offset > offset_) {
      return state::Flow::kStop;
    }
    pointer_ = std::string(leaf.pointer);
    after_ = offset_ >= leaf.end_offset;
    if (after_) return state::Flow::kContinue;
    const json::Value* v = &leaf.value;
    for (;;) {
      const json::Value* next = nullptr;
      std::string token;
      bool is_index = false;
      std::size_t index = 0;
      if (v->is_object()) {
        for (const json::Member& m : v->object()) {
          if (m.key.offset > offset_) break;
          next = &m.value;
          token = m.key.Str();
        }
      } else if (v->is_array()) {
        for (std::size_t i = 0; i < v->size; ++i) {
          if (v->elements[i].offset > offset_) break;
          next = &v->elements[i];
          index = i;
          is_index = true;
        }
      }
      if (!next) break;
      if (is_index) {
        pointer_.append("/").append(std::to_string(index));
      } else {
        std::string t;
        for (char c : token) {
          if (c == '~')
            t += "~0";
          else if (c == '/')
            t += "~1";
          else
            t += c;
        }
        pointer_ += "/" + t;
      }
      v = next;
    }
    return state::Flow::kStop;
  }
  const std::string& pointer() const { return pointer_; }
  /// The offset lies after the value `pointer` names (between values).
  bool after() const { return after_; }

 private:
  bool after_ = false;
  std::uint64_t offset_;
  std::string pointer_;
};

}  // namespace

std::string PointerAtOffset(const io::Replayable& input, std::uint64_t offset) {
  auto stream = input.Open();
  if (!stream.ok()) return {};
  PointerFinder finder(offset);
  diag::Report scratch(input.name());
  (void)state::Read(**stream, finder, scratch);
  if (finder.after() && !finder.pointer().empty()) {
    return "after " + finder.pointer();
  }
  return finder.pointer();
}

Result<Outcome> Run(const Config& config) {
  if (config.in_place && config.input == "-") {
    return Status(Errc::kInvalidArgument,
                  "--in-place needs a file, not standard input");
  }
  const std::string& output = config.in_place ? config.input : config.output;
  if (!config.in_place && !config.check &&
      !state::CheckOutputIsNotInput(config.input, config.output).ok()) {
    return Status(Errc::kInvalidArgument,
                  config.output +
                      ": the output is the input; use --in-place to replace "
                      "it (a .bak copy is kept)");
  }
  // In place: the file stays locked from the first read to the rename, and
  // the rename is refused if another writer changed it (io/rewrite_guard.h).
  io::RewriteGuard guard;
  if (config.in_place && !config.check) {
    auto locked = io::RewriteGuard::Acquire({config.input});
    if (!locked.ok()) return locked.status();
    guard = std::move(*locked);
  }
  // Replayable: --check reads the input twice, and a hand-edited file whose
  // members are out of Go's order is read again with its arrays spooled.
  // Standard input and compressed files are decoded once into a private
  // temporary file (io/spool.h).
  Result<io::Replayable> replay =
      io::OpenReplayable(config.input, config.spool);
  if (!replay.ok()) return replay.status();

  Mode mode = Mode::kStream;
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto input = replay->Open();
    if (!input.ok()) return input.status();
    std::unique_ptr<io::Output> target;
    std::unique_ptr<ComparingOutput> comparing;
    if (config.check) {
      auto again = replay->Open();
      if (!again.ok()) return again.status();
      comparing = std::make_unique<ComparingOutput>(std::move(*again));
    } else {
      // In place, a compressed input stays compressed the same way.
      std::optional<io::Compression> compression = config.compression;
      if (!compression && config.in_place) compression = replay->compression();
      io::OutputOptions out_options = OutputOptionsFor(output, compression);
      out_options.keep_backup = config.in_place;
      if (config.in_place) out_options.guard = &guard;
      auto opened = io::OpenOutput(output, out_options);
      if (!opened.ok()) return opened.status();
      target = std::move(*opened);
    }
    io::Output& sink =
        comparing ? static_cast<io::Output&>(*comparing) : *target;
    TrackingOutput tracked(sink);
    PassOptions pass;
    pass.options = config.options;
    pass.mode = mode;
    pass.shown = replay->name();
    pass.on_progress = config.on_progress;
    PassResult result = RunPass(**input, tracked, pass);
    if (!result.status.ok()) {
      if (result.needs_reorder && attempt == 0) {
        if (tracked.forwarded() && output == "-" && !config.check) {
          return Status(Errc::kUnsupported,
                        replay->name() +
                            ": its members are not in Pulumi's order and "
                            "part of the output was already written; "
                            "write to a file with -o instead");
        }
        mode = Mode::kSpool;
        continue;
      }
      return result.status;
    }
    Outcome outcome;
    outcome.layout = result.outcome.layout;
    outcome.notes = std::move(result.outcome.notes);
    std::copy(result.outcome.counts, result.outcome.counts + kNoteKinds,
              outcome.counts);
    if (comparing && comparing->differs()) {
      outcome.normalized = false;
      outcome.line = comparing->line();
      outcome.column = comparing->column();
      outcome.pointer = PointerAtOffset(*replay, comparing->offset());
    }
    return outcome;
  }
  return Status(Errc::kUnsupported, replay->name() + ": cannot be normalized");
}

}  // namespace pstate::normalize
