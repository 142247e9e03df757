// A sliding window over an InputStream: the state reader's only buffer.
//
// The window holds the bytes from the reader's current piece (a resource
// being parsed) to the end of what has been read. Fill() discards what lies
// before the kept position, reads more, and grows the buffer only when one
// piece is larger than the window. Memory therefore follows the largest
// piece, never the file. Line numbers of discarded bytes are counted as they
// go, so any offset still inside the window can be turned into line:column.
#ifndef PSTATE_IO_WINDOW_H_
#define PSTATE_IO_WINDOW_H_

#include <cstdint>
#include <memory>

#include "pstate/base/result.h"
#include "pstate/io/input.h"

namespace pstate::io {

struct LineColumn {
  std::uint64_t line = 0;    ///< 1-based
  std::uint64_t column = 0;  ///< 1-based, in bytes
};

class Window {
 public:
  /// Bytes kept readable (and zeroed) after end(), for the JSON scanners.
  static constexpr std::size_t kPadding = 64;

  /// Maps the input when it can (see InputStream::Map), else reads it
  /// through a buffer of `initial_size` bytes.
  explicit Window(InputStream& input, std::size_t initial_size = 4u << 20);

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
  /// keep offsets across calls. Sets eof() at the end of input.
  Status Fill(const char* keep);

  /// Tells the window the bytes before `done` will not be looked at again.
  /// Reading through a mapping, this is where memory is given back (in
  /// steps of several MiB); reading through the buffer, Fill() does it.
  void Release(const char* done);
  /// True when the window is a mapping of the whole file.
  bool mapped() const { return mapped_; }

  /// Line and column of an absolute offset that is still in the window (or
  /// at its end). Cheap for offsets that increase between calls.
  LineColumn Locate(std::uint64_t offset);

  InputStream& input() { return input_; }

 private:
  InputStream& input_;
  std::unique_ptr<char[]> buffer_;
  std::size_t capacity_ = 0;
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::uint64_t base_ = 0;  ///< absolute offset of data_[0]
  bool eof_ = false;
  bool mapped_ = false;

  // Line bookkeeping for the discarded prefix [0, base_).
  std::uint64_t base_line_ = 1;        ///< line containing offset base_
  std::uint64_t base_line_start_ = 0;  ///< offset where that line starts
  // Cache of the last Locate answer (valid while >= base_).
  std::uint64_t cache_offset_ = 0;
  std::uint64_t cache_line_ = 1;
  std::uint64_t cache_line_start_ = 0;
};

/// Counts '\n' bytes in [p, p + n) and reports the offset (relative to p)
/// just past the last one, or `npos` when there is none.
std::uint64_t CountNewlines(const char* p, std::size_t n,
                            std::size_t* after_last);

}  // namespace pstate::io

#endif  // PSTATE_IO_WINDOW_H_
