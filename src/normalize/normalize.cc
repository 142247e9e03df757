#include "pstate/normalize/normalize.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <utility>

#include "pstate/diag/report.h"
#include "pstate/io/output.h"
#include "pstate/state/reader.h"

namespace pstate::normalize {
namespace {

bool SameFile(const std::string& a, const std::string& b) {
  if (a == "-" || b == "-") return false;
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/// The first fatal finding as "file:line:column: message".
std::string Located(const diag::Report& report, const Status& status) {
  for (const diag::Finding& f : report.findings()) {
    if (!diag::IsFatal(f.code)) continue;
    std::string out = report.file();
    if (f.line > 0) {
      out.append(":").append(std::to_string(f.line));
      out.append(":").append(std::to_string(f.column));
    }
    if (!f.pointer.empty()) out += ": " + f.pointer;
    return out + ": " + f.message;
  }
  return report.file() + ": " + status.message();
}

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
  /// Drops what is buffered here; true when nothing was forwarded yet.
  bool Rewind() {
    DiscardBuffer();
    return forwarded_ == 0;
  }

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

/// Copies standard input to a temporary file that is removed at exit of
/// scope, so it can be read more than once.
class StdinCopy {
 public:
  ~StdinCopy() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  Status Make() {
    // $TMPDIR, as every other temporary file (io/spool.cc).
    std::string tmpl =
        (std::filesystem::temp_directory_path() / "pstate-stdin-XXXXXX")
            .string();
    int fd = ::mkstemp(tmpl.data());
    if (fd < 0) return Status(Errc::kIo, "cannot create a temporary file");
    path_ = tmpl;
    char buf[1 << 16];
    for (;;) {
      ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
      if (n == 0) break;
      if (n < 0) {
        ::close(fd);
        return Status(Errc::kIo, "<stdin>: cannot read");
      }
      if (::write(fd, buf, static_cast<std::size_t>(n)) != n) {
        ::close(fd);
        return Status(Errc::kIo, "cannot write a temporary file");
      }
    }
    ::close(fd);
    return Status::Ok();
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

std::string PointerAtOffset(const std::string& path, std::uint64_t offset) {
  auto input = io::OpenInput(path);
  if (!input.ok()) return {};
  PointerFinder finder(offset);
  diag::Report scratch(path);
  (void)state::Read(**input, finder, scratch);
  if (finder.after() && !finder.pointer().empty()) {
    return "after " + finder.pointer();
  }
  return finder.pointer();
}

Result<Outcome> Run(const Config& config) {
  std::string input_path = config.input;
  std::string shown = config.input == "-" ? "<stdin>" : config.input;
  StdinCopy stdin_copy;
  if (config.input == "-" && config.check) {
    Status s = stdin_copy.Make();
    if (!s.ok()) return s;
    input_path = stdin_copy.path();
  }
  std::string output = config.in_place ? config.input : config.output;
  if (config.in_place && config.input == "-") {
    return Status(Errc::kInvalidArgument,
                  "--in-place needs a file, not standard input");
  }
  if (!config.in_place && !config.check &&
      SameFile(config.input, config.output)) {
    return Status(Errc::kInvalidArgument,
                  config.output +
                      ": the output is the input; use --in-place to replace "
                      "it (a .bak copy is kept)");
  }

  Outcome outcome;
  // Standard input cannot be read twice: spool its arrays from the start.
  Mode mode = input_path == "-" ? Mode::kSpool : Mode::kStream;
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto input = io::OpenInput(input_path);
    if (!input.ok()) return input.status();
    io::OutputOptions out_options;
    out_options.keep_backup = config.in_place;
    if (config.compression) {
      out_options.compression = *config.compression;
    } else if (config.in_place) {
      out_options.compression = (*input)->compression();
    } else {
      out_options.compression = io::CompressionForName(output);
    }
    std::unique_ptr<io::Output> target;
    std::unique_ptr<ComparingOutput> comparing;
    if (config.check) {
      auto again = io::OpenInput(input_path);
      if (!again.ok()) return again.status();
      comparing = std::make_unique<ComparingOutput>(std::move(*again));
    } else {
      auto opened = io::OpenOutput(output, out_options);
      if (!opened.ok()) return opened.status();
      target = std::move(*opened);
    }
    io::Output& sink =
        comparing ? static_cast<io::Output&>(*comparing) : *target;
    TrackingOutput tracked(sink);
    Normalizer normalizer(tracked, config.options, mode);
    diag::Report report(shown);
    state::ReadOptions read_options;
    read_options.on_progress = config.on_progress;
    Status status = state::Read(**input, normalizer, report, read_options);
    if (!status.ok()) {
      if (normalizer.needs_reorder() && attempt == 0) {
        if (!tracked.Rewind() && output == "-" && !config.check) {
          tracked.Abandon();
          return Status(Errc::kUnsupported,
                        shown +
                            ": its members are not in Pulumi's order and "
                            "part of the output was already written; "
                            "write to a file with -o instead");
        }
        tracked.Abandon();
        mode = Mode::kSpool;
        continue;
      }
      tracked.Abandon();
      if (report.fatal()) return Status(status.code(), Located(report, status));
      // The normalizer's own failures start with "line:column: ".
      const std::string& m = status.message();
      bool located = !m.empty() && m[0] >= '0' && m[0] <= '9';
      return Status(status.code(), shown + (located ? ":" : ": ") + m);
    }
    Status committed = tracked.Commit();
    if (!committed.ok()) return committed;
    outcome.layout = normalizer.layout();
    outcome.notes = normalizer.notes();
    for (int k = 0; k < 4; ++k) {
      outcome.counts[k] = normalizer.note_count(static_cast<NoteKind>(k));
    }
    if (comparing && comparing->differs()) {
      outcome.normalized = false;
      outcome.line = comparing->line();
      outcome.column = comparing->column();
      outcome.pointer = PointerAtOffset(input_path, comparing->offset());
    }
    return outcome;
  }
  return Status(Errc::kUnsupported, shown + ": cannot be normalized");
}

}  // namespace pstate::normalize
