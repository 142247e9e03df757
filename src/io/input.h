// Where state bytes come from: a file or standard input, decompressed when
// the first bytes say gzip or zstd (never guessed from the file name).
#ifndef PSTATE_IO_INPUT_H_
#define PSTATE_IO_INPUT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace pstate::io {

/// The API's (pstate/pstate.h).
using Compression = ::pstate::Compression;

/// The input limits of one run, and their defaults (the API's
/// pstate::InputLimits says why they are what they are).
using InputLimits = ::pstate::InputLimits;
inline constexpr std::uint64_t kDefaultMaxDecodedBytes =
    InputLimits{}.max_decoded_bytes;
inline constexpr std::uint64_t kDefaultMaxPieceBytes =
    InputLimits{}.max_piece_bytes;

/// The limits every InputOptions (and every InputStream) starts from. The
/// command line sets them once, from --max-decompressed-bytes and
/// --max-resource-bytes, before any input is opened, so that every
/// command's every read (first and second passes, diff's two states,
/// edit's verification) obeys them without each core carrying them; a
/// caller may still set an InputOptions field for one input. Not
/// synchronized: set before any thread reads an input.
void SetDefaultInputLimits(const InputLimits& limits);
const InputLimits& DefaultInputLimits();

struct InputOptions {
  /// A compressed input that decompresses to more than this fails with
  /// kLimit ("decompression bomb?"). Plain inputs are not affected: their
  /// size is what is on disk.
  std::uint64_t max_decoded_bytes = DefaultInputLimits().max_decoded_bytes;
  /// The largest top-level piece a window over the stream may hold
  /// (InputStream::max_piece_bytes).
  std::uint64_t max_piece_bytes = DefaultInputLimits().max_piece_bytes;
};

/// "none", "gzip" or "zstd".
std::string_view CompressionName(Compression c);

/// Recognizes gzip (1f 8b 08) and zstd (28 b5 2f fd) by their magic bytes,
/// exactly as Pulumi's DIY backend does.
Compression DetectCompression(std::string_view first_bytes);

/// A forward-only byte stream of decoded (decompressed) input.
class InputStream {
 public:
  virtual ~InputStream() = default;

  /// Reads up to `n` bytes into `buf`. 0 means end of input.
  virtual Result<std::size_t> Read(char* buf, std::size_t n) = 0;

  /// The name used in messages: the path, or "<stdin>".
  const std::string& name() const { return name_; }
  Compression compression() const { return compression_; }
  /// Size of the underlying file when known (compressed size for gzip and
  /// zstd), for progress reporting.
  std::optional<std::uint64_t> source_size() const { return source_size_; }
  /// Bytes consumed from the underlying file so far.
  virtual std::uint64_t source_consumed() const = 0;
  /// The most bytes one top-level piece of the state may take in a window
  /// over this stream (io::Window's cap when it reads through a buffer).
  std::uint64_t max_piece_bytes() const { return max_piece_bytes_; }
  /// For the code that opens the stream (InputOptions::max_piece_bytes).
  void set_max_piece_bytes(std::uint64_t n) { max_piece_bytes_ = n; }

  /// The whole input as one read-only mapping, followed by at least one
  /// page of readable zero bytes; only for uncompressed regular files, and
  /// only before the first Read. For random access by byte range (edit's
  /// splice, Replayable::bytes); io::Window reads through a buffer instead
  /// (window.h says why). nullopt when not possible: use Read.
  struct Mapping {
    const char* data = nullptr;
    std::size_t size = 0;
  };
  virtual std::optional<Mapping> Map() { return std::nullopt; }
  /// With a mapping: the caller is done with bytes [0, upto); their pages
  /// are dropped from this process's memory (they stay in the page cache),
  /// so resident memory does not grow with the file.
  virtual void Release(std::uint64_t upto) { (void)upto; }
  /// With a mapping: the caller is done with bytes [begin, end), wherever
  /// they are (a pass that reads the input out of order, such as an edit
  /// that reorders the resources); the whole pages inside go as Release's
  /// do. They come back from the page cache if read again.
  virtual void ReleaseRange(std::uint64_t begin, std::uint64_t end) {
    (void)begin;
    (void)end;
  }
  /// Positions the next Read at decoded offset `offset`. Only a plain file
  /// opened by path (plain_file_fd() >= 0) can: kUnsupported otherwise.
  virtual Status SeekTo(std::uint64_t offset);
  /// The descriptor of the regular file this stream reads unchanged (a
  /// plain file opened by path: decoded offset = file offset); -1 for
  /// anything else. For copying byte ranges in the kernel
  /// (Output::CopyRange) instead of through this process.
  virtual int plain_file_fd() const { return -1; }
  /// With a mapping: Ok, or the I/O error to report because the file
  /// shrank while it was mapped (someone rewrote it in place). Pages that
  /// vanished read as zero bytes instead of killing the process with
  /// SIGBUS, so a parse that ran into them stops at a NUL byte; the caller
  /// should then report this status instead of the syntax error.
  virtual Status mapping_status() const { return Status::Ok(); }

 protected:
  std::string name_;
  Compression compression_ = Compression::kNone;
  std::optional<std::uint64_t> source_size_;
  std::uint64_t max_piece_bytes_ = DefaultInputLimits().max_piece_bytes;
};

/// "512 MiB", "64 GiB", "1536 KiB", "1000 bytes": a limit as messages
/// print it (whole binary units when exact).
std::string FormatByteLimit(std::uint64_t bytes);

/// Turns an input path that names no file into the file to read, or
/// returns it unchanged. The command line installs
/// backend::ResolveInputPath, so that every command that reads a state
/// takes PATH@VERSION (a version of a DIY backend's stack); io knows
/// nothing of backends. Not synchronized: set before any input is opened.
using PathResolver = Result<std::string> (*)(const std::string& path);
void SetPathResolver(PathResolver resolver);

/// The name messages give standard input (the path "-").
inline constexpr std::string_view kStdinName = "<stdin>";
/// The name messages give the input at `path` (InputStream::name() of what
/// OpenInput opens): kStdinName for "-", else the path.
std::string InputName(const std::string& path);

/// `path` as OpenInput and OpenReplayable open it: unchanged when it is
/// "-", names a file (a real file whose name has an '@' wins), or no
/// resolver is set; else what the resolver makes of it.
Result<std::string> ResolveInputPath(const std::string& path);

/// Opens `path` ("-" for standard input), after ResolveInputPath. Fails with
/// kNotFound, kIo or kInvalidArgument (a directory) and a message naming the
/// file. A gzip or zstd stream that decompresses to nothing is an empty input,
/// like an empty plain file.
Result<std::unique_ptr<InputStream>> OpenInput(
    const std::string& path, const InputOptions& options = {});

/// A second reader of `file` (a plain file opened by path, plain_file_fd()
/// >= 0) from decoded offset `offset` on, by pread(2): it shares the
/// descriptor but not the position, so threads read parts of one file side
/// by side. Same name, size and limits as `file`, which must outlive it.
std::unique_ptr<InputStream> FileRange(const InputStream& file,
                                       std::uint64_t offset);

/// Reads byte ranges of a plain file (plain_file_fd() >= 0) again, after
/// a forward read has passed them: for a result made at the end from
/// places seen long before (verify's pending references keep offsets into
/// the input instead of copies of their texts). pread(2) through a buffer
/// of `chunk` bytes, so ranges asked in increasing order cost one system
/// call a chunk (through FileRange). `file` must outlive it.
class RangeReader {
 public:
  explicit RangeReader(const InputStream& file,
                       std::size_t chunk = std::size_t{256} << 10);
  /// Bytes [offset, offset + size): a view valid until the next call.
  /// Fails with kIo when the read fails or the file now ends before them
  /// (it was rewritten since).
  Result<std::string_view> Read(std::uint64_t offset, std::size_t size);

 private:
  std::unique_ptr<InputStream> range_;  ///< FileRange of the file
  std::size_t chunk_;
  std::string buffer_;
  std::uint64_t base_ = 0;  ///< file offset of buffer_[0]
};

/// An in-memory input (tests, fuzzing, decrypted text). Decompresses too.
std::unique_ptr<InputStream> MemoryInput(std::string bytes,
                                         const std::string& name = "<memory>",
                                         const InputOptions& options = {});

}  // namespace pstate::io

#endif  // PSTATE_IO_INPUT_H_
