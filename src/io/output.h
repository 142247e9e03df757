// Where rewritten states go: standard output, or a file written through a
// temporary file and renamed into place only when everything succeeded.
//
// The rule for `-o PATH` (docs/cli.md, "Output files"):
//  - "-" is standard output;
//  - a symbolic link is followed (every level) to its target, and the rules
//    below apply to the target: the link itself stays a link;
//  - a regular file, or a name that does not exist yet, is written to a
//    temporary file in the target's directory and renamed over the target by
//    Commit(): readers see the old file or the new one, never a mix;
//  - anything else that is not a directory (a character or block device, a
//    FIFO, a /proc/self/fd link such as /dev/stdout) is opened and written in
//    place, as `cat > PATH` would: replacing /dev/null with a regular file
//    is never right. There is no atomicity then;
//  - a directory is an error (kInvalidArgument).
#ifndef PSTATE_IO_OUTPUT_H_
#define PSTATE_IO_OUTPUT_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "io/input.h"
#include "io/rewrite_guard.h"

namespace pstate::io {

/// A buffered byte sink. Errors are sticky: after the first failed write
/// every call is a no-op and Commit() reports the failure.
class Output {
 public:
  virtual ~Output() = default;
  void Write(std::string_view bytes) {
    std::size_t n = bytes.size();
    if (n <= kBufferSize - used_ && n <= 32) [[likely]] {
      // Most writes are a few bytes (quotes, ": ", indentation, keys):
      // copied with at most two overlapping fixed-size moves, no call.
      CopySmall(buffer_.get() + used_, bytes.data(), n);
      used_ += n;
      return;
    }
    WriteLarge(bytes);
  }
  void Put(char c) {
    if (used_ == kBufferSize) Flush();
    buffer_[used_++] = c;
  }
  /// The largest Reserve().
  static constexpr std::size_t kMaxReserve = std::size_t{1} << 14;
  /// Room for `n` <= kMaxReserve bytes at the end of the buffer (flushing
  /// it first when it has less): the caller writes at most `n` bytes at
  /// the returned pointer, then calls Advance with how many it wrote,
  /// before any other call. For writers that produce bytes in place (a
  /// string rewritten into Go's form) instead of through a scratch copy.
  char* Reserve(std::size_t n) {
    if (n > kBufferSize - used_) Flush();
    return buffer_.get() + used_;
  }
  void Advance(std::size_t n) { used_ += n; }
  /// Appends bytes [offset, offset + length) of the regular file open as
  /// `fd`, as Write would. A plain file output copies them in the kernel
  /// (copy_file_range(2)), so they never pass through this process; other
  /// outputs, and file systems that cannot, read them with pread and Write
  /// them. Fails (kIo) only when the input cannot be read or ends early;
  /// write errors are sticky as for Write and reported by Commit().
  virtual Status CopyRange(int fd, std::uint64_t offset, std::uint64_t length);
  /// Flushes and makes the output final (renames the temporary file).
  virtual Status Commit() = 0;
  /// Throws the output away (removes the temporary file). Called by the
  /// destructor when Commit() was not.
  virtual void Abandon() = 0;
  const std::string& name() const { return name_; }

 protected:
  static constexpr std::size_t kBufferSize = 1 << 16;
  void Flush() {
    if (used_ > 0) WriteOut(std::string_view(buffer_.get(), used_));
    used_ = 0;
  }
  void WriteLarge(std::string_view bytes) {
    std::size_t n = bytes.size();
    if (n >= kBufferSize) {
      // A whole buffer's worth (a forwarding output passing its chunks
      // on): straight through, not copied into this buffer first.
      Flush();
      WriteOut(bytes);
      return;
    }
    if (n > kBufferSize - used_) Flush();
    std::memcpy(buffer_.get() + used_, bytes.data(), n);
    used_ += n;
  }
  /// Copies n <= 32 bytes: two overlapping moves of the largest power of
  /// two not above n (fixed sizes compile to plain loads and stores).
  static void CopySmall(char* d, const char* s, std::size_t n) {
    if (n >= 16) {
      CopyEnds<16>(d, s, n);
    } else if (n >= 8) {
      CopyEnds<8>(d, s, n);
    } else if (n >= 4) {
      CopyEnds<4>(d, s, n);
    } else if (n > 0) {
      d[0] = s[0];
      d[n / 2] = s[n / 2];
      d[n - 1] = s[n - 1];
    }
  }
  /// The first and the last N bytes of n (N <= n <= 2N).
  template <std::size_t N>
  static void CopyEnds(char* d, const char* s, std::size_t n) {
    char head[N];
    char tail[N];
    std::memcpy(head, s, N);
    std::memcpy(tail, s + n - N, N);
    std::memcpy(d, head, N);
    std::memcpy(d + n - N, tail, N);
  }
  /// Drops buffered bytes without writing them.
  void DiscardBuffer() { used_ = 0; }
  virtual void WriteOut(std::string_view bytes) = 0;

  std::string name_;
  std::unique_ptr<char[]> buffer_{new char[kBufferSize]};
  std::size_t used_ = 0;
};

struct OutputOptions {
  /// The output holds plaintext secrets (`pstate decrypt`). The temporary
  /// file is created 0600 before the first byte is written, and the final
  /// file keeps an existing target's mode only where it is stricter (the
  /// mode is the intersection of 0600 and the old mode). Without it, a
  /// replaced file keeps its mode and a new one gets 0666 & ~umask.
  bool holds_secrets = false;
  /// Compress the whole output, as Pulumi's DIY backend does with
  /// PULUMI_DIY_BACKEND_GZIP / _ZSTD (libarchive; the compressed bytes are
  /// not Go's, the decompressed ones are).
  Compression compression = Compression::kNone;
  /// Before the rename, copy an existing target to "<target>.bak", as the
  /// DIY backend keeps one backup generation (pkg/backend/diy/state.go).
  /// Only for regular files replaced through a temporary file.
  bool keep_backup = false;
  /// Rewriting a file the run read and locked (`--in-place`): Commit()
  /// refuses (kRefused, nothing replaced) unless the target is still the
  /// locked file, unchanged, and the `.bak` is copied from that locked file.
  /// The guard must outlive the Output.
  const RewriteGuard* guard = nullptr;
};

/// The compression an output file name asks for: ".gz" gzip, ".zst" zstd.
Compression CompressionForName(std::string_view path);

/// Opens `path` for writing (see the rule at the top of this file). A
/// regular file is written to a temporary file and renamed over its target
/// by Commit(); if the Output is destroyed without Commit(), no file
/// appears and an existing file is untouched. While the temporary file
/// exists, SIGINT, SIGTERM, SIGHUP and SIGPIPE (when their action is the
/// default) remove it before the process dies of the signal. Fails with
/// kNotFound (missing directory), kInvalidArgument (a directory) or kIo.
Result<std::unique_ptr<Output>> OpenOutput(const std::string& path,
                                           const OutputOptions& options = {});

/// Test hook: the temporary files the signal handler would remove now.
std::size_t LiveTempFilesForTesting();

/// An output collecting bytes in memory (tests).
class StringOutput : public Output {
 public:
  StringOutput() { name_ = "<memory>"; }
  Status Commit() override {
    Flush();
    return Status::Ok();
  }
  void Abandon() override {}
  const std::string& str() {
    Flush();
    return data_;
  }

 private:
  void WriteOut(std::string_view bytes) override { data_.append(bytes); }
  std::string data_;
};

}  // namespace pstate::io

#endif  // PSTATE_IO_OUTPUT_H_
