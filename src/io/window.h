// A sliding window over an InputStream: the state reader's only buffer.
//
// The window holds the bytes from the reader's current piece (a resource
// being parsed) to the end of what has been read. Fill() discards what lies
// before the kept position, reads more, and grows the buffer only when one
// piece is larger than the window, up to a cap (kDefaultMaxWindowSize).
// Memory therefore follows the largest piece, never the file, and a piece
// that would need more than the cap (a decompression bomb inflating one
// string to gigabytes) is a located kLimit error instead. Line numbers of
// discarded bytes are counted as they go, so any offset still inside the window
// can be turned into line:column.
#ifndef PSTATE_IO_WINDOW_H_
#define PSTATE_IO_WINDOW_H_

#include <cstdint>
#include <memory>

#include "base/result.h"
#include "io/input.h"

namespace pstate::io {

/// The largest piece the window holds by default: kDefaultMaxPieceBytes
/// (512 MiB; see input.h), so the buffer peaks at 768 MiB while it grows to
/// the cap. --max-resource-bytes changes it (InputStream::max_piece_bytes).
inline constexpr std::size_t kDefaultMaxWindowSize =
    static_cast<std::size_t>(kDefaultMaxPieceBytes);

struct LineColumn {
  std::uint64_t line = 0;    ///< 1-based
  std::uint64_t column = 0;  ///< 1-based, in bytes
  /// 1-based, in Unicode code points (UTF-8 continuation bytes not
  /// counted): SARIF's columnKind "unicodeCodePoints".
  std::uint64_t char_column = 0;
};

class Window {
 public:
  /// Bytes kept readable (and zeroed) after end(), for the JSON scanners.
  static constexpr std::size_t kPadding = 64;

  /// Reads the input through a buffer of `initial_size` bytes that grows to
  /// at most `max_size` bytes (0: the input's max_piece_bytes(), or for a
  /// plain file of known size, that size when it is larger).
  ///
  /// The window never maps the input, even where InputStream::Map could:
  /// parsing from a mapping exposes the parser to the latency of cold
  /// page-cache memory, while read(2) into a small reused buffer hands it
  /// warm bytes. Measured on the 1 GB state, `verify` takes about 40% less
  /// CPU time this way (docs/performance.md, "Reading through a buffer").
  /// Mappings remain for random access (edit's splice, Replayable::bytes).
  explicit Window(InputStream& input, std::size_t initial_size = 4u << 20,
                  std::size_t max_size = 0);
  /// A window over `size` bytes of `input` already in memory at `data`
  /// (its bytes from offset `base` on), with kPadding writable bytes after
  /// them: they are parsed where they are, nothing is copied or read, and
  /// the input ends after them (eof()). For a range the parallel executor
  /// read once to count it, warm in the cache (engine/executor.h). `data`
  /// must outlive the window.
  Window(InputStream& input, char* data, std::size_t size, std::uint64_t base);

  const char* begin() const { return data_; }
  const char* end() const { return data_ + size_; }
  bool eof() const { return eof_; }
  std::uint64_t OffsetOf(const char* p) const {
    return base_ + static_cast<std::uint64_t>(p - data_);
  }
  /// Total decoded bytes read so far.
  std::uint64_t bytes_read() const { return base_ + size_; }

  /// Reads more input. Bytes before `keep` are discarded (and counted for
  /// line numbers); pointers into the window are invalidated, so callers
  /// keep offsets across calls. Sets eof() at the end of input. Fails with
  /// kLimit when the bytes from `keep` on already fill a window of
  /// max_size bytes (one piece larger than the cap).
  Status Fill(const char* keep);

  /// Line and column of an absolute offset that is still in the window (or
  /// at its end). Cheap for offsets that increase between calls.
  LineColumn Locate(std::uint64_t offset);

  /// Moves the window to `offset` (at or after OffsetOf(begin())), whose
  /// line:column is `at`, without reading the bytes in between: the bytes
  /// already held past it stay, otherwise the input is repositioned
  /// (InputStream::SeekTo). For a part of the input read elsewhere (the
  /// elements of "resources" parsed on other threads, engine/executor.h)
  /// and for a window that starts in the middle of a file. Pointers into
  /// the window are invalidated.
  Status SkipTo(std::uint64_t offset, LineColumn at);

  InputStream& input() { return input_; }
  const InputStream& input() const { return input_; }

 private:
  InputStream& input_;
  std::unique_ptr<char[]> buffer_;
  std::size_t capacity_ = 0;
  std::size_t max_size_ = kDefaultMaxWindowSize;
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::uint64_t base_ = 0;  ///< absolute offset of data_[0]
  bool eof_ = false;
  /// Over the caller's bytes (the second constructor): never filled.
  bool borrowed_ = false;

  // Line bookkeeping for the discarded prefix [0, base_).
  std::uint64_t base_line_ = 1;        ///< line containing offset base_
  std::uint64_t base_line_start_ = 0;  ///< offset where that line starts
  /// UTF-8 continuation bytes in [base_line_start_, base_).
  std::uint64_t base_line_cont_ = 0;
  // Cache of the last Locate answer (valid while >= base_).
  std::uint64_t cache_offset_ = 0;
  std::uint64_t cache_line_ = 1;
  std::uint64_t cache_line_start_ = 0;
  std::uint64_t cache_cont_ = 0;  ///< continuation bytes in its line before it

  /// Line bookkeeping for `n` bytes at data_ about to be discarded.
  void CountDiscarded(std::size_t n);
};

/// Counts '\n' bytes in [p, p + n) and reports the offset (relative to p)
/// just past the last one, or `npos` when there is none.
std::uint64_t CountNewlines(const char* p, std::size_t n,
                            std::size_t* after_last);

/// Counts UTF-8 continuation bytes (10xxxxxx) in [p, p + n): the bytes a
/// code-point column does not count.
std::uint64_t CountContinuationBytes(const char* p, std::size_t n);

/// The line and column `n` bytes after a position at `from`, given the
/// bytes [p, p + n) in between. Window::Locate answers through it; a range
/// of the input handled apart from the window (one resource parsed on
/// another thread) is located from the line:column of its first byte.
LineColumn Advance(LineColumn from, const char* p, std::size_t n);

}  // namespace pstate::io

#endif  // PSTATE_IO_WINDOW_H_
