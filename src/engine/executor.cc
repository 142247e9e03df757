#include "engine/executor.h"

#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
// The AVX2 and AVX-512 block loops, chosen at run time (the build targets
// SSE4.2).
#define PSTATE_EXECUTOR_AVX2 1
#include <immintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "diag/failure.h"
#include "io/window.h"

namespace pstate::engine {

Status Explain(const diag::Report& report, const Status& status) {
  if (!report.fatal()) return status;  // Ok, or a handler's own failure
  diag::Failure failure = diag::FailureOf(report, status);
  if (status.ok()) failure.errc = Errc::kFormat;
  return failure.ToStatus();
}

Status ReadOrExplain(
    io::InputStream& input, const std::string& name, state::Handler& handler,
    const std::function<void(std::uint64_t, std::uint64_t)>& on_progress) {
  diag::Report report(name);
  state::ReadOptions options;
  options.on_progress = on_progress;
  Status status = state::Read(input, handler, report, options);
  return Explain(report, status);
}

bool CanSplit(const io::InputStream& input) {
  return input.compression() == io::Compression::kNone &&
         input.plain_file_fd() >= 0;
}

io::LineColumn ResourceContext::Locate(std::uint64_t offset) {
  std::uint64_t at =
      std::clamp<std::uint64_t>(offset, offset_, offset_ + bytes_.size());
  auto bytes_at = [&](std::uint64_t o) {
    return bytes_.data() + static_cast<std::size_t>(o - offset_);
  };
  if (at >= far_offset_) {
    // Onward: count from the furthest place, leaving marks on the way.
    while (marked_ < kMarks) {
      std::uint64_t mark = offset_ + (marked_ + 1) * stride_;
      if (mark > at) break;
      far_at_ = io::Advance(far_at_, bytes_at(far_offset_),
                            static_cast<std::size_t>(mark - far_offset_));
      far_offset_ = mark;
      marks_[marked_++] = far_at_;
    }
    far_at_ = io::Advance(far_at_, bytes_at(far_offset_),
                          static_cast<std::size_t>(at - far_offset_));
    far_offset_ = at;
    last_offset_ = at;
    last_at_ = far_at_;
    return far_at_;
  }
  // Behind the furthest place: from the nearest mark or answer before it.
  std::uint64_t from = offset_;
  io::LineColumn lc = at_;
  std::size_t k = std::min<std::size_t>(
      static_cast<std::size_t>((at - offset_) / stride_), marked_);
  if (k > 0) {
    from = offset_ + k * stride_;
    lc = marks_[k - 1];
  }
  if (last_offset_ <= at && last_offset_ > from) {
    from = last_offset_;
    lc = last_at_;
  }
  lc = io::Advance(lc, bytes_at(from), static_cast<std::size_t>(at - from));
  last_offset_ = at;
  last_at_ = lc;
  return lc;
}

void ResourceContext::Report(diag::Finding finding, std::uint64_t offset) {
  io::LineColumn lc = Locate(offset);
  finding.line = lc.line;
  finding.column = lc.column;
  finding.char_column = lc.char_column;
  findings_->push_back(std::move(finding));
}

void FoldContext::Report(diag::Finding finding, std::uint64_t offset) {
  io::LineColumn lc = Locate(offset);
  finding.line = lc.line;
  finding.column = lc.column;
  finding.char_column = lc.char_column;
  inner_.ReportUnlocated(std::move(finding));
}

namespace internal {
namespace {

/// JSON's whitespace.
bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/// The longest indentation an element line may have: beyond it the file is
/// not laid out as pstate expects and the sequential reader reads it.
constexpr std::size_t kMaxIndent = 256;
constexpr std::size_t kChunk = std::size_t{1} << 20;

/// Reads [from, to) of the file by chunks and calls fn(offset, data, n,
/// readable): `n` bytes of the range at `offset`, then up to `tail` more
/// bytes of the file after them (`readable` in all), so a pattern that
/// starts in the range can be matched whole. Chunks start at `first` bytes
/// and double up to kChunk (a search that ends early reads little). The
/// buffer is the thread's own, kept between calls. False when the file
/// cannot be read or fn returned false.
template <typename F>
bool ReadChunks(int fd, std::uint64_t from, std::uint64_t to, std::size_t tail,
                std::size_t first, F&& fn) {
  // Not a vector: growing it would zero bytes that pread overwrites.
  thread_local std::unique_ptr<char[]> buffer;
  thread_local std::size_t capacity = 0;
  std::size_t chunk = std::max<std::size_t>(first, 1);
  while (from < to) {
    std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(to - from, chunk));
    if (capacity < want + tail) {
      capacity = std::max(want + tail, kChunk + kMaxIndent + 1);
      buffer.reset(new char[capacity]);
    }
    std::size_t got = 0;
    while (got < want + tail) {
      ssize_t n = ::pread(fd, buffer.get() + got, want + tail - got,
                          static_cast<off_t>(from + got));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return false;
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
    }
    if (got < want) return false;  // the file ended early: it shrank
    if (!fn(from, buffer.get(), want, got)) return false;
    from += want;
    chunk = std::min(chunk * 2, kChunk);
  }
  return true;
}

/// Whether the bytes after the newline at `data[q]` are `indent` then '{'
/// (`readable` bytes at `data`).
bool ElementLineAt(const char* data, std::size_t q, std::size_t readable,
                   std::string_view indent) {
  std::size_t brace = q + 1 + indent.size();
  return brace < readable && data[brace] == '{' &&
         std::memcmp(data + q + 1, indent.data(), indent.size()) == 0;
}

/// Calls fn(q) for every '\n' at data[q], q < n, in order; fn returns
/// false to stop. 16 bytes at a time: a mask of the newlines, then each.
template <typename F>
void ForEachNewline(const char* data, std::size_t n, F&& fn) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n');
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
    auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)));
    while (mask != 0) {
      if (!fn(i + static_cast<std::size_t>(__builtin_ctz(mask)))) return;
      mask &= mask - 1;
    }
  }
#endif
  for (; i < n; ++i) {
    if (data[i] == '\n' && !fn(i)) return;
  }
}

}  // namespace

FirstElement FindFirstElement(const io::InputStream& file,
                              const state::ResourcesSpan& span) {
  FirstElement first;
  int fd = file.plain_file_fd();
  if (fd < 0 || !file.source_size()) return first;
  std::uint64_t size = *file.source_size();
  std::uint64_t lines = 0;
  std::size_t column_bytes = 0;  // bytes since the last newline, or since span
  std::string indent;
  bool found = false;
  char byte = 0;
  std::uint64_t at = span.offset;
  bool read = ReadChunks(
      fd, span.offset, size, 0, std::size_t{4} << 10,
      [&](std::uint64_t offset, const char* data, std::size_t n, std::size_t) {
        for (std::size_t i = 0; i < n; ++i) {
          char c = data[i];
          if (!IsSpace(c)) {
            found = true;
            byte = c;
            at = offset + i;
            return false;
          }
          if (c == '\n') {
            ++lines;
            column_bytes = 0;
            indent.clear();
          } else {
            ++column_bytes;
            if (lines > 0) {
              if (indent.size() >= kMaxIndent) return false;
              indent.push_back(c);
            }
          }
        }
        return true;
      });
  (void)read;  // the sequential reader says what is wrong with the file
  if (!found) return first;
  first.offset = at;
  first.at = span.at;
  if (lines > 0) {
    first.at.line += lines;
    first.at.column = column_bytes + 1;
    first.at.char_column = column_bytes + 1;
  } else {
    first.at.column += column_bytes;
    first.at.char_column += column_bytes;
  }
  if (byte == ']') {
    first.kind = FirstElement::Kind::kEmpty;
  } else if (byte == '{' && lines > 0) {
    first.kind = FirstElement::Kind::kAtLineStart;
    first.indent = std::move(indent);
  }
  return first;
}

std::optional<std::uint64_t> FindElementLine(const io::InputStream& file,
                                             std::string_view indent,
                                             std::uint64_t from) {
  int fd = file.plain_file_fd();
  if (fd < 0 || !file.source_size()) return std::nullopt;
  std::uint64_t lead = indent.size() + 1;
  std::uint64_t start = from >= lead ? from - lead : 0;
  std::optional<std::uint64_t> hit;
  ReadChunks(
      fd, start, *file.source_size(), lead, std::size_t{4} << 10,
      [&](std::uint64_t offset, const char* data, std::size_t n,
          std::size_t readable) {
        ForEachNewline(data, n, [&](std::size_t q) {
          std::uint64_t brace = offset + q + lead;
          if (brace >= from && ElementLineAt(data, q, readable, indent)) {
            hit = brace;
          }
          return !hit;
        });
        return !hit;
      });
  return hit;
}

namespace {

/// What CountChunk counts in a chunk, and how an element line is told.
struct ChunkCounter {
  const char* data;
  std::size_t readable;
  std::size_t pattern_to;
  std::string_view indent;
  RangeCounts counts;
  /// Where element lines go (or nowhere), with the file offset of data[0]
  /// and the newlines of the range before data[0] (less those before the
  /// range's first byte, which data may hold).
  std::vector<ElementLine>* lines;
  std::uint64_t offset;
  std::int64_t line_base;

  /// The candidates of the block at data[i] (rare: one element line in
  /// thousands of bytes): bit b of `starts` is a newline at data[i + b]
  /// with '{' one indentation later, bit b of `newlines` a newline there;
  /// `through_block` counts the newlines of data[0..] to the block's end.
  void Candidates(std::size_t i, std::uint64_t starts, std::uint64_t newlines,
                  std::uint64_t through_block) {
    while (starts != 0) {
      int b = __builtin_ctzll(starts);
      std::uint64_t after = b == 63 ? 0 : newlines >> (b + 1);
      Candidate(i + static_cast<std::size_t>(b),
                through_block -
                    static_cast<std::uint64_t>(__builtin_popcountll(after)));
      starts &= starts - 1;
    }
  }

  /// For a newline at data[q] followed, one indentation later, by '{';
  /// `through`: the newlines of data[0..q], this one included.
  void Candidate(std::size_t q, std::uint64_t through) {
    if (q < pattern_to && ElementLineAt(data, q, readable, indent)) {
      ++counts.element_lines;
      if (lines != nullptr) {
        lines->push_back({offset + q + 1 + indent.size(),
                          static_cast<std::uint64_t>(
                              line_base + static_cast<std::int64_t>(through))});
      }
    }
  }
};

#if defined(__SSE2__)
/// The sum of a per-lane counter's 16 bytes.
std::uint64_t Sum16(__m128i per_lane) {
  __m128i sums = _mm_sad_epu8(per_lane, _mm_setzero_si128());  // two halves
  return static_cast<std::uint64_t>(_mm_cvtsi128_si32(sums)) +
         static_cast<std::uint64_t>(_mm_cvtsi128_si32(_mm_srli_si128(sums, 8)));
}

std::size_t CountBlocks16(ChunkCounter& c, std::size_t i,
                          std::size_t blocks_end, std::size_t lead) {
  const char* data = c.data;
  const __m128i nl = _mm_set1_epi8('\n');
  const __m128i brace = _mm_set1_epi8('{');
  const __m128i zero = _mm_setzero_si128();
  while (i + 16 <= blocks_end) {
    __m128i per_lane = zero;
    std::size_t stop = std::min(blocks_end, i + 255 * 16);
    for (; i + 16 <= stop; i += 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
      __m128i lines = _mm_cmpeq_epi8(v, nl);
      per_lane = _mm_sub_epi8(per_lane, lines);
      __m128i w =
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i + lead));
      auto starts = static_cast<unsigned>(
          _mm_movemask_epi8(_mm_and_si128(lines, _mm_cmpeq_epi8(w, brace))));
      if (starts != 0) {
        c.Candidates(i, starts, static_cast<unsigned>(_mm_movemask_epi8(lines)),
                     c.counts.newlines + Sum16(per_lane));
      }
    }
    c.counts.newlines += Sum16(per_lane);
  }
  return i;
}
#endif

#if defined(PSTATE_EXECUTOR_AVX2)
// Compiled for AVX2 whatever the build's -march, and called only on a
// processor that has it (HasAvx2): half the instructions of CountBlocks16.
__attribute__((target("avx2"))) std::uint64_t Sum32(__m256i per_lane) {
  __m256i sums = _mm256_sad_epu8(per_lane, _mm256_setzero_si256());  // four
  return static_cast<std::uint64_t>(
      _mm256_extract_epi64(sums, 0) + _mm256_extract_epi64(sums, 1) +
      _mm256_extract_epi64(sums, 2) + _mm256_extract_epi64(sums, 3));
}

__attribute__((target("avx2"))) std::size_t CountBlocks32(
    ChunkCounter& c, std::size_t i, std::size_t blocks_end, std::size_t lead) {
  const char* data = c.data;
  const __m256i nl = _mm256_set1_epi8('\n');
  const __m256i brace = _mm256_set1_epi8('{');
  const __m256i zero = _mm256_setzero_si256();
  while (i + 32 <= blocks_end) {
    __m256i per_lane = zero;
    std::size_t stop = std::min(blocks_end, i + 255 * 32);
    for (; i + 32 <= stop; i += 32) {
      __m256i v =
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + i));
      __m256i lines = _mm256_cmpeq_epi8(v, nl);
      per_lane = _mm256_sub_epi8(per_lane, lines);
      __m256i w =
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + i + lead));
      auto starts = static_cast<unsigned>(_mm256_movemask_epi8(
          _mm256_and_si256(lines, _mm256_cmpeq_epi8(w, brace))));
      if (starts != 0) {
        c.Candidates(i, starts,
                     static_cast<unsigned>(_mm256_movemask_epi8(lines)),
                     c.counts.newlines + Sum32(per_lane));
      }
    }
    c.counts.newlines += Sum32(per_lane);
  }
  return i;
}

bool HasAvx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}

// The 64-byte loop for a processor with AVX-512BW (HasAvx512): a byte
// comparison gives a 64-bit mask, so the newlines are counted by popcount
// and the candidate test is one masked comparison, about 0.17
// instructions a byte against CountBlocks32's 0.38.
__attribute__((target("avx512f,avx512bw,popcnt"))) std::size_t CountBlocks64(
    ChunkCounter& c, std::size_t i, std::size_t blocks_end, std::size_t lead) {
  const char* data = c.data;
  const __m512i nl = _mm512_set1_epi8('\n');
  const __m512i brace = _mm512_set1_epi8('{');
  std::uint64_t newlines = c.counts.newlines;
  for (; i + 64 <= blocks_end; i += 64) {
    __m512i v = _mm512_loadu_si512(data + i);
    __mmask64 lines = _mm512_cmpeq_epi8_mask(v, nl);
    __m512i w = _mm512_loadu_si512(data + i + lead);
    std::uint64_t starts = _mm512_mask_cmpeq_epi8_mask(lines, w, brace);
    std::uint64_t through_block =
        newlines + static_cast<std::uint64_t>(__builtin_popcountll(lines));
    if (starts != 0) c.Candidates(i, starts, lines, through_block);
    newlines = through_block;
  }
  c.counts.newlines = newlines;
  return i;
}

bool HasAvx512() {
  static const bool has =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  return has;
}
#endif

std::atomic<int> widest_loop{64};  // CountWithLoopsUpTo

/// CountRange's work on one chunk (at file offset `offset`): newlines at
/// data[q] for q in [count_from, n), and element lines (ElementLineAt) for
/// q < pattern_to, each added to `lines` (when given) with the newlines
/// before it: `line_base` plus those of data[count_from..q].
RangeCounts CountChunk(const char* data, std::size_t n, std::size_t readable,
                       std::size_t count_from, std::size_t pattern_to,
                       std::string_view indent, std::vector<ElementLine>* lines,
                       std::uint64_t offset, std::uint64_t line_base) {
  // Newlines before count_from are counted by the loops, then taken off.
  std::uint64_t before = 0;
  for (std::size_t q = 0; q < std::min(count_from, n); ++q) {
    if (data[q] == '\n') ++before;
  }
  ChunkCounter c{
      data,
      readable,
      pattern_to,
      indent,
      {},
      lines,
      offset,
      static_cast<std::int64_t>(line_base) - static_cast<std::int64_t>(before)};
  std::size_t lead = indent.size() + 1;
  // Where a block's '{' test block still ends inside the readable bytes.
  std::size_t blocks_end = readable >= lead ? std::min(n, readable - lead) : 0;
  std::size_t i = 0;
#if defined(PSTATE_EXECUTOR_AVX2)
  int widest = widest_loop.load(std::memory_order_relaxed);
  if (widest >= 64 && HasAvx512()) i = CountBlocks64(c, i, blocks_end, lead);
  if (widest >= 32 && HasAvx2()) i = CountBlocks32(c, i, blocks_end, lead);
#endif
#if defined(__SSE2__)
  i = CountBlocks16(c, i, blocks_end, lead);
#endif
  for (; i < n; ++i) {
    if (data[i] != '\n') continue;
    ++c.counts.newlines;
    c.Candidate(i, c.counts.newlines);
  }
  c.counts.newlines -= before;
  return c.counts;
}

/// Reads [from, to) of the file and up to `tail` bytes after it into
/// `held` (grown to fit). False when the file cannot be read or ended
/// before `to`.
bool ReadHeld(int fd, std::uint64_t from, std::uint64_t to, std::size_t tail,
              HeldBytes& held) {
  std::size_t want = static_cast<std::size_t>(to - from) + tail;
  if (held.capacity < want) {
    held.capacity = std::max(want, held.capacity * 2);
    // The parse's window borrows the bytes and its padding.
    held.buffer.reset(new char[held.capacity + io::Window::kPadding]);
  }
  std::size_t got = 0;
  while (got < want) {
    ssize_t n = ::pread(fd, held.buffer.get() + got, want - got,
                        static_cast<off_t>(from + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got < to - from) return false;  // the file ended early: it shrank
  held.bytes = std::string_view(held.buffer.get(), got);
  held.at = from;
  return true;
}

}  // namespace

void CountWithLoopsUpTo(int width) { widest_loop = width; }

std::optional<RangeCounts> CountRange(const io::InputStream& file,
                                      std::string_view indent,
                                      std::uint64_t begin, std::uint64_t end,
                                      HeldBytes* held,
                                      std::vector<ElementLine>* lines) {
  int fd = file.plain_file_fd();
  if (fd < 0) return std::nullopt;
  std::uint64_t lead = indent.size() + 1;
  std::uint64_t start = begin >= lead ? begin - lead : 0;
  // Newlines of [begin, end); element lines whose '{' is in it, for a
  // chunk of n bytes at `offset` (`readable` with what follows).
  RangeCounts counts;
  auto count = [&](std::uint64_t offset, const char* data, std::size_t n,
                   std::size_t readable) {
    std::size_t count_from =
        offset < begin ? static_cast<std::size_t>(begin - offset) : 0;
    std::size_t pattern_to =
        end >= offset + lead ? static_cast<std::size_t>(std::min<std::uint64_t>(
                                   end - offset - lead, n))
                             : 0;
    RangeCounts chunk = CountChunk(data, n, readable, count_from, pattern_to,
                                   indent, lines, offset, counts.newlines);
    counts.newlines += chunk.newlines;
    counts.element_lines += chunk.element_lines;
    return true;
  };
  if (lines != nullptr) lines->clear();
  if (held != nullptr) held->bytes = {};
  if (held != nullptr && end - start <= HeldBytes::kMaxHeld) {
    if (!ReadHeld(fd, start, end, static_cast<std::size_t>(lead), *held)) {
      held->bytes = {};
      return std::nullopt;
    }
    count(start, held->bytes.data(), static_cast<std::size_t>(end - start),
          held->bytes.size());
    return counts;
  }
  if (!ReadChunks(fd, start, end, lead, kChunk, count)) return std::nullopt;
  return counts;
}

void RangePrefix::Post(std::size_t i, std::optional<RangeCounts> counts) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (counts_.size() <= i) counts_.resize(i + 1);
  counts_[i] = counts;
  posted_.notify_all();
}

std::optional<RangePrefix::Base> RangePrefix::Wait(std::size_t i) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto all_posted = [&] {
    if (counts_.size() < i) return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (!counts_[j].has_value()) return false;
    }
    return true;
  };
  posted_.wait(lock, all_posted);
  Base base;
  for (std::size_t j = 0; j < i; ++j) {
    const std::optional<RangeCounts>& c = *counts_[j];
    if (!c) return std::nullopt;
    base.newlines += c->newlines;
    base.elements += c->element_lines;
  }
  return base;
}

RangeParser::RangeParser(const io::InputStream& file,
                         std::string_view array_pointer,
                         std::string_view indent, std::uint64_t begin,
                         io::LineColumn at, std::optional<std::uint64_t> bound,
                         std::size_t first_index, std::size_t window_size,
                         json::Parser& parser, json::Arena& arena,
                         HeldBytes* held)
    : input_(io::FileRange(file, begin)),
      window_(held != nullptr && !held->bytes.empty()
                  ? io::Window(*input_, held->buffer.get(), held->bytes.size(),
                               held->at)
                  : io::Window(*input_, window_size)),
      pointer_(array_pointer),
      indent_(indent),
      bound_(bound),
      index_(first_index),
      parser_(parser),
      arena_(arena) {
  pointer_ += '/';
  pointer_prefix_ = pointer_.size();
  ok_ = window_.SkipTo(begin, at).ok() && Fill();
}

bool RangeParser::Fill() {
  if (window_.eof()) {
    // A window over held bytes holds them all from the start.
    if (pos_ == nullptr) pos_ = window_.begin();
    return true;
  }
  Status s = window_.Fill(pos_ == nullptr ? window_.begin() : pos_);
  pos_ = window_.begin();
  return s.ok();
}

bool RangeParser::Peek(char* c, std::size_t* element_indent) {
  // element_indent: set to 1 when the whitespace ends with a newline and
  // exactly the indentation of an element line, else 0.
  bool newline = false;
  std::size_t since = 0;
  bool matches = false;
  for (;;) {
    const char* end = window_.end();
    while (pos_ < end && IsSpace(*pos_)) {
      if (*pos_ == '\n') {
        newline = true;
        since = 0;
        matches = true;
      } else if (matches) {
        matches = since < indent_.size() && *pos_ == indent_[since];
        ++since;
      }
      ++pos_;
    }
    if (pos_ < end || window_.eof()) {
      *c = pos_ < end ? *pos_ : '\0';
      if (element_indent != nullptr) {
        *element_indent = newline && matches && since == indent_.size() ? 1 : 0;
      }
      return true;
    }
    if (!Fill()) return false;
  }
}

RangeParser::Step RangeParser::Next(state::Leaf* leaf) {
  if (!ok_) return Step::kFailed;
  char c = 0;
  if (!first_) {
    if (!Peek(&c)) return Step::kFailed;
    if (c == ']') {
      ++pos_;
      end_ = window_.OffsetOf(pos_);
      at_end_ = window_.Locate(end_);
      return Step::kEnded;
    }
    if (c != ',') return Step::kFailed;
    ++pos_;
    std::size_t element_line = 0;
    if (!Peek(&c, &element_line)) return Step::kFailed;
    std::uint64_t next = window_.OffsetOf(pos_);
    if (bound_ && next == *bound_) return Step::kLanded;
    if (bound_ && next > *bound_) return Step::kFailed;
    if (c != '{' || element_line == 0) return Step::kFailed;
  }
  first_ = false;
  if (!Peek(&c)) return Step::kFailed;
  const char* stop = nullptr;
  for (;;) {
    json::ParseStatus st =
        parser_.Parse(pos_, window_.end(), window_.eof(),
                      window_.OffsetOf(pos_), arena_, &leaf->value, &stop);
    if (st == json::ParseStatus::kOk) break;
    arena_.Reset();
    if (st == json::ParseStatus::kError || window_.eof() || !Fill()) {
      return Step::kFailed;
    }
  }
  pointer_.resize(pointer_prefix_);
  pointer_ += std::to_string(index_);
  leaf->role = state::Role::kResource;
  leaf->pointer = pointer_;
  leaf->index = index_;
  leaf->arena = &arena_;
  leaf->end_offset = window_.OffsetOf(stop);
  leaf->bytes = std::string_view(pos_, static_cast<std::size_t>(stop - pos_));
  leaf->duplicates = parser_.duplicates();
  pos_ = stop;
  ++index_;
  ++elements_;
  return Step::kElement;
}

}  // namespace internal
io::LineColumn FoldContext::Locate(std::uint64_t offset) {
  std::uint64_t at =
      std::clamp<std::uint64_t>(offset, offset_, offset_ + size_);
  io::LineColumn lc = at_;
  int fd = file_.plain_file_fd();
  if (fd < 0) return lc;
  bool read = internal::ReadChunks(
      fd, offset_, at, 0, std::size_t{4} << 10,
      [&](std::uint64_t, const char* data, std::size_t n, std::size_t) {
        lc = io::Advance(lc, data, n);
        return true;
      });
  return read ? lc : at_;
}

}  // namespace pstate::engine
