// Where state bytes come from: a file or standard input, decompressed when
// the first bytes say gzip or zstd (never guessed from the file name).
#ifndef PSTATE_IO_INPUT_H_
#define PSTATE_IO_INPUT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "pstate/base/result.h"

namespace pstate::io {

enum class Compression { kNone, kGzip, kZstd };

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

  /// The whole input as one read-only mapping, followed by at least one
  /// page of readable zero bytes; only for uncompressed regular files, and
  /// only before the first Read. Parsing straight from the page cache saves
  /// the copy into a buffer. nullopt when not possible: use Read.
  struct Mapping {
    const char* data = nullptr;
    std::size_t size = 0;
  };
  virtual std::optional<Mapping> Map() { return std::nullopt; }
  /// With a mapping: the caller is done with bytes [0, upto); their pages
  /// are dropped from this process's memory (they stay in the page cache),
  /// so resident memory does not grow with the file.
  virtual void Release(std::uint64_t upto) { (void)upto; }

 protected:
  std::string name_;
  Compression compression_ = Compression::kNone;
  std::optional<std::uint64_t> source_size_;
};

/// Opens `path` ("-" for standard input). Fails with kNotFound, kIo or
/// kInvalidArgument (a directory) and a message naming the file.
Result<std::unique_ptr<InputStream>> OpenInput(const std::string& path);

/// An in-memory input (tests, fuzzing, decrypted text). Decompresses too.
std::unique_ptr<InputStream> MemoryInput(std::string bytes,
                                         std::string name = "<memory>");

}  // namespace pstate::io

#endif  // PSTATE_IO_INPUT_H_
