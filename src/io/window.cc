#include "io/window.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "base/utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pstate::io {

std::uint64_t CountContinuationBytes(const char* p, std::size_t n) {
  std::uint64_t count = 0;
  std::size_t i = 0;
#if defined(__SSE2__)
  // As signed bytes, 0x80..0xBF are exactly the values below -64.
  const __m128i limit = _mm_set1_epi8(-64);
  while (i + 16 <= n) {
    __m128i acc = _mm_setzero_si128();
    std::size_t blocks = std::min<std::size_t>((n - i) / 16, 255);
    for (std::size_t b = 0; b < blocks; ++b, i += 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      acc = _mm_sub_epi8(acc, _mm_cmplt_epi8(v, limit));
    }
    __m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());
    count +=
        static_cast<std::uint64_t>(_mm_cvtsi128_si32(sums)) +
        static_cast<std::uint64_t>(_mm_cvtsi128_si32(_mm_srli_si128(sums, 8)));
  }
#endif
  for (; i < n; ++i) {
    if (utf8::IsContinuation(p[i])) ++count;
  }
  return count;
}

std::uint64_t CountNewlines(const char* p, std::size_t n,
                            std::size_t* after_last) {
  std::uint64_t count = 0;
  std::size_t last = static_cast<std::size_t>(-1);
  std::size_t i = 0;
#if defined(__SSE2__)
  // Byte-wise counters (each compare adds 1 via subtracting -1), summed
  // every 255 blocks with SAD; no popcount instruction needed.
  const __m128i nl = _mm_set1_epi8('\n');
  while (i + 16 <= n) {
    __m128i acc = _mm_setzero_si128();
    std::size_t blocks = std::min<std::size_t>((n - i) / 16, 255);
    std::size_t b = 0;
    for (; b + 4 <= blocks; b += 4, i += 64) {
      const auto* q = reinterpret_cast<const __m128i*>(p + i);
      __m128i c0 = _mm_cmpeq_epi8(_mm_loadu_si128(q), nl);
      __m128i c1 = _mm_cmpeq_epi8(_mm_loadu_si128(q + 1), nl);
      __m128i c2 = _mm_cmpeq_epi8(_mm_loadu_si128(q + 2), nl);
      __m128i c3 = _mm_cmpeq_epi8(_mm_loadu_si128(q + 3), nl);
      acc = _mm_sub_epi8(
          acc, _mm_add_epi8(_mm_add_epi8(c0, c1), _mm_add_epi8(c2, c3)));
    }
    for (; b < blocks; ++b, i += 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, nl));
    }
    __m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());
    count +=
        static_cast<std::uint64_t>(_mm_cvtsi128_si32(sums)) +
        static_cast<std::uint64_t>(_mm_cvtsi128_si32(_mm_srli_si128(sums, 8)));
  }
#endif
  for (; i < n; ++i) count += p[i] == '\n' ? 1 : 0;
  if (after_last) {
    // The last newline is found separately: tracking it in the counting
    // loop costs more than one backwards search.
    const void* hit = count > 0 ? ::memrchr(p, '\n', n) : nullptr;
    *after_last =
        hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - p) + 1
            : last;
  }
  return count;
}

namespace {

/// The cap a Window over `input` uses: `max_size` when given, else the
/// input's max_piece_bytes(), raised for a plain file of known size to one
/// byte more than the file (a piece cannot be larger than the file, plus
/// room to find its end; the --max-resource-bytes cap is for input whose
/// size is unknown or compressed, where a bomb could inflate one piece
/// without bound). At least 1 byte, no more than fits in memory's
/// addresses. Memory still follows the largest piece.
std::size_t EffectiveMax(const InputStream& input, std::size_t max_size) {
  std::uint64_t max = max_size != 0 ? max_size : input.max_piece_bytes();
  if (max_size == 0 && input.compression() == Compression::kNone &&
      input.source_size()) {
    max = std::max<std::uint64_t>(max, *input.source_size() + 1);
  }
  max = std::max<std::uint64_t>(max, 1);
  constexpr std::uint64_t kAddressable = SIZE_MAX / 4;
  return static_cast<std::size_t>(std::min(max, kAddressable));
}

}  // namespace

Window::Window(InputStream& input, std::size_t initial_size,
               std::size_t max_size)
    : input_(input),
      capacity_(std::min(initial_size, EffectiveMax(input, max_size))),
      max_size_(EffectiveMax(input, max_size)) {
  buffer_.reset(new char[capacity_ + kPadding]);
  data_ = buffer_.get();
  std::memset(data_, 0, kPadding);
}

Window::Window(InputStream& input, char* data, std::size_t size,
               std::uint64_t base)
    : input_(input),
      capacity_(size),
      max_size_(size),
      data_(data),
      size_(size),
      base_(base),
      eof_(true),
      borrowed_(true) {
  std::memset(data_ + size_, 0, kPadding);
}

Status Window::Fill(const char* keep) {
  if (eof_) return Status::Ok();
  if (keep < data_ || keep > data_ + size_) keep = data_ + size_;
  auto discard = static_cast<std::size_t>(keep - data_);
  if (discard > 0) {
    CountDiscarded(discard);
    std::memmove(data_, keep, size_ - discard);
    size_ -= discard;
    base_ += discard;
  }
  if (size_ == capacity_) {
    // One piece fills the whole window: grow it, up to the cap.
    if (capacity_ >= max_size_) {
      return Status(Errc::kLimit,
                    "one value needs more than " + FormatByteLimit(max_size_) +
                        " of memory (the limit for a single resource or "
                        "other top-level piece of a state, "
                        "--max-resource-bytes)");
    }
    std::size_t grown = std::min(capacity_ * 2, max_size_);
    std::unique_ptr<char[]> bigger(new char[grown + kPadding]);
    std::memcpy(bigger.get(), data_, size_);
    buffer_ = std::move(bigger);
    data_ = buffer_.get();
    capacity_ = grown;
  }
  // Read until the window is full or the input ends: fewer, larger pieces.
  while (size_ < capacity_) {
    auto got = input_.Read(data_ + size_, capacity_ - size_);
    if (!got.ok()) return got.status();
    if (*got == 0) {
      eof_ = true;
      break;
    }
    size_ += *got;
  }
  std::memset(data_ + size_, 0, kPadding);
  return Status::Ok();
}

void Window::CountDiscarded(std::size_t n) {
  if (cache_offset_ > base_ && cache_offset_ <= base_ + n) {
    // Locate counted up to its last answer already: go on from there.
    auto done = static_cast<std::size_t>(cache_offset_ - base_);
    LineColumn at =
        Advance({cache_line_, cache_offset_ - cache_line_start_ + 1,
                 cache_offset_ - cache_line_start_ - cache_cont_ + 1},
                data_ + done, n - done);
    base_line_ = at.line;
    base_line_start_ = base_ + n - (at.column - 1);
    base_line_cont_ = at.column - at.char_column;
    return;
  }
  std::size_t after_last = 0;
  std::uint64_t lines = CountNewlines(data_, n, &after_last);
  if (lines > 0) {
    base_line_ += lines;
    base_line_start_ = base_ + after_last;
    base_line_cont_ =
        CountContinuationBytes(data_ + after_last, n - after_last);
  } else {
    base_line_cont_ += CountContinuationBytes(data_, n);
  }
}

LineColumn Advance(LineColumn from, const char* p, std::size_t n) {
  std::size_t after_last = 0;
  std::uint64_t lines = CountNewlines(p, n, &after_last);
  if (lines == 0) {
    return {from.line, from.column + n,
            from.char_column + n - CountContinuationBytes(p, n)};
  }
  std::size_t rest = n - after_last;
  return {from.line + lines, rest + 1,
          rest + 1 - CountContinuationBytes(p + after_last, rest)};
}

Status Window::SkipTo(std::uint64_t offset, LineColumn at) {
  if (offset < base_ || at.line == 0 || at.column == 0 || at.char_column == 0 ||
      at.char_column > at.column || at.column - 1 > offset) {
    return Status(Errc::kInvalidArgument,
                  input_.name() +
                      ": cannot move the read back or to an "
                      "unknown line");
  }
  if (offset <= base_ + size_) {
    auto discard = static_cast<std::size_t>(offset - base_);
    if (borrowed_) {
      data_ += discard;  // the caller's bytes stay where they are
    } else {
      std::memmove(data_, data_ + discard, size_ - discard);
    }
    size_ -= discard;
  } else if (borrowed_) {
    return Status(Errc::kInvalidArgument,
                  input_.name() + ": cannot move past the bytes in memory");
  } else {
    Status s = input_.SeekTo(offset);
    if (!s.ok()) return s;
    size_ = 0;
    eof_ = false;
  }
  std::memset(data_ + size_, 0, kPadding);
  base_ = offset;
  base_line_ = at.line;
  base_line_start_ = offset - (at.column - 1);
  base_line_cont_ = at.column - at.char_column;
  cache_offset_ = base_;
  cache_line_ = base_line_;
  cache_line_start_ = base_line_start_;
  cache_cont_ = base_line_cont_;
  return Status::Ok();
}

LineColumn Window::Locate(std::uint64_t offset) {
  if (offset < base_) offset = base_;
  if (offset > base_ + size_) offset = base_ + size_;
  std::uint64_t from = base_;
  std::uint64_t line = base_line_;
  std::uint64_t line_start = base_line_start_;
  std::uint64_t cont = base_line_cont_;
  if (cache_offset_ >= base_ && cache_offset_ <= offset) {
    from = cache_offset_;
    line = cache_line_;
    line_start = cache_line_start_;
    cont = cache_cont_;
  }
  LineColumn at =
      Advance({line, from - line_start + 1, from - line_start - cont + 1},
              data_ + (from - base_), static_cast<std::size_t>(offset - from));
  cache_offset_ = offset;
  cache_line_ = at.line;
  cache_line_start_ = offset - (at.column - 1);
  cache_cont_ = at.column - at.char_column;
  return at;
}

}  // namespace pstate::io
