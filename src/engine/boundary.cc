#include "engine/boundary.h"

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pstate::engine {
namespace {

using state::ScanStatus;

/// The first '"' or '\\' in [p, end), or end.
const char* NextQuoteOrEscape(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  while (p < end) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    auto mask = static_cast<unsigned>(_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash))));
    if (mask != 0) {
      const char* at = p + __builtin_ctz(mask);
      return at < end ? at : end;
    }
    p += 16;
  }
  return end;
#else
  while (p < end && *p != '"' && *p != '\\') ++p;
  return p;
#endif
}

/// Past the closing quote of a string whose opening quote is before `p`;
/// null when the bytes end first.
const char* SkipString(const char* p, const char* end) {
  for (;;) {
    p = NextQuoteOrEscape(p, end);
    if (p == end) return nullptr;
    if (*p == '"') return p + 1;
    p += 2;  // '\\' and the byte it escapes (a 'u' escape's digits are plain)
    if (p > end) return nullptr;
  }
}

#if defined(__SSE2__)
/// Bit i set where p[i] == c, for the 64 bytes at p.
struct Block {
  std::uint64_t quote = 0, backslash = 0, open = 0, close = 0;
};

Block Classify(const char* p) {
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  // '[' | 0x20 is '{' and ']' | 0x20 is '}'; no other byte maps to them.
  const __m128i open = _mm_set1_epi8('{');
  const __m128i close = _mm_set1_epi8('}');
  const __m128i fold = _mm_set1_epi8(0x20);
  Block b;
  for (int i = 0; i < 4; ++i) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    __m128i folded = _mm_or_si128(v, fold);
    auto bits = [&](__m128i m) {
      return static_cast<std::uint64_t>(
                 static_cast<unsigned>(_mm_movemask_epi8(m)))
             << (16 * i);
    };
    b.quote |= bits(_mm_cmpeq_epi8(v, quote));
    b.backslash |= bits(_mm_cmpeq_epi8(v, backslash));
    b.open |= bits(_mm_cmpeq_epi8(folded, open));
    b.close |= bits(_mm_cmpeq_epi8(folded, close));
  }
  return b;
}

/// Bit i = XOR of bits 0..i.
std::uint64_t PrefixXor(std::uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

/// The bytes a backslash escapes, given the backslashes of a block and
/// whether its first byte is escaped (simdjson's odd-run rule:
/// json_escape_scanner in simdjson's generic/stage1).
std::uint64_t Escaped(std::uint64_t backslash, std::uint64_t* carry) {
  if (backslash == 0 && *carry == 0) return 0;
  constexpr std::uint64_t kOdd = 0xAAAAAAAAAAAAAAAAull;
  std::uint64_t potential = backslash & ~*carry;
  std::uint64_t maybe_escaped = potential << 1;
  std::uint64_t code = ((maybe_escaped | kOdd) - potential) ^ kOdd;
  std::uint64_t escaped = code ^ (backslash | *carry);
  *carry = (code & backslash) >> 63;
  return escaped;
}

/// The end of the object or array at `begin` by 64-byte blocks: strings
/// found by their unescaped quotes, brackets outside them counted.
ScanStatus FindContainerEnd(const char* begin, const char* end, bool at_eof,
                            const char** stop) {
  std::uint64_t escape_carry = 0;
  std::uint64_t in_string_carry = 0;  // all ones inside a string
  std::uint64_t depth = 0;
  for (const char* p = begin; p < end; p += 64) {
    Block b = Classify(p);
    auto n = static_cast<std::size_t>(end - p);
    std::uint64_t valid =
        n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
    std::uint64_t quotes = b.quote & ~Escaped(b.backslash, &escape_carry);
    std::uint64_t in_string = PrefixXor(quotes) ^ in_string_carry;
    in_string_carry =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(in_string) >> 63);
    std::uint64_t opens = b.open & ~in_string & valid;
    std::uint64_t closes = b.close & ~in_string & valid;
    auto close_count = static_cast<std::uint64_t>(__builtin_popcountll(closes));
    if (depth > close_count) {
      depth = depth + static_cast<std::uint64_t>(__builtin_popcountll(opens)) -
              close_count;
      continue;
    }
    for (std::uint64_t brackets = opens | closes; brackets != 0;
         brackets &= brackets - 1) {
      std::uint64_t bit = brackets & (~brackets + 1);
      if (opens & bit) {
        ++depth;
      } else if (--depth == 0) {
        *stop = p + __builtin_ctzll(brackets) + 1;
        return ScanStatus::kOk;
      }
    }
  }
  return at_eof ? ScanStatus::kError : ScanStatus::kIncomplete;
}
#else
/// The first '"', '[', ']', '{' or '}' in [p, end), or end.
const char* NextStructural(const char* p, const char* end) {
  while (p < end && *p != '"' && *p != '[' && *p != ']' && *p != '{' &&
         *p != '}') {
    ++p;
  }
  return p;
}

/// FindContainerEnd a byte at a time.
ScanStatus FindContainerEnd(const char* begin, const char* end, bool at_eof,
                            const char** stop) {
  const ScanStatus ran_out =
      at_eof ? ScanStatus::kError : ScanStatus::kIncomplete;
  const char* p = begin;
  std::uint64_t depth = 0;
  for (;;) {
    p = NextStructural(p, end);
    if (p == end) return ran_out;
    char c = *p;
    if (c == '"') {
      p = SkipString(p + 1, end);
      if (p == nullptr) return ran_out;
      continue;
    }
    if (c == '{' || c == '[') {
      ++depth;
    } else if (--depth == 0) {
      *stop = p + 1;
      return ScanStatus::kOk;
    }
    ++p;
  }
}
#endif

bool EndsScalar(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ',' ||
         c == ']' || c == '}';
}

}  // namespace

ScanStatus FindValueEnd(const char* begin, const char* end, bool at_eof,
                        const char** stop) {
  const ScanStatus ran_out =
      at_eof ? ScanStatus::kError : ScanStatus::kIncomplete;
  if (begin >= end) return ran_out;
  const char* p = begin;
  char c = *p;
  if (c == '"') {
    p = SkipString(p + 1, end);
    if (p == nullptr) return ran_out;
    *stop = p;
    return ScanStatus::kOk;
  }
  if (c == '{' || c == '[') return FindContainerEnd(begin, end, at_eof, stop);
  if (EndsScalar(c) || c == ':') return ScanStatus::kError;
  while (p < end && !EndsScalar(*p)) ++p;
  if (p == end && !at_eof) return ScanStatus::kIncomplete;
  *stop = p;
  return ScanStatus::kOk;
}

}  // namespace pstate::engine
