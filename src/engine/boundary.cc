#include "pstate/engine/boundary.h"

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

/// The first '"', '[', ']', '{' or '}' in [p, end), or end.
const char* NextStructural(const char* p, const char* end) {
#if defined(__SSE2__)
  // '[' | 0x20 is '{' and ']' | 0x20 is '}'; no other byte maps to them.
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i open = _mm_set1_epi8('{');
  const __m128i close = _mm_set1_epi8('}');
  const __m128i fold = _mm_set1_epi8(0x20);
  while (p < end) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i folded = _mm_or_si128(v, fold);
    auto mask = static_cast<unsigned>(_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(v, quote),
                     _mm_or_si128(_mm_cmpeq_epi8(folded, open),
                                  _mm_cmpeq_epi8(folded, close)))));
    if (mask != 0) {
      const char* at = p + __builtin_ctz(mask);
      return at < end ? at : end;
    }
    p += 16;
  }
  return end;
#else
  while (p < end && *p != '"' && *p != '[' && *p != ']' && *p != '{' &&
         *p != '}') {
    ++p;
  }
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
  if (c == '{' || c == '[') {
    std::uint64_t depth = 0;
    for (;;) {
      p = NextStructural(p, end);
      if (p == end) return ran_out;
      c = *p;
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
  if (EndsScalar(c) || c == ':') return ScanStatus::kError;
  while (p < end && !EndsScalar(*p)) ++p;
  if (p == end && !at_eof) return ScanStatus::kIncomplete;
  *stop = p;
  return ScanStatus::kOk;
}

}  // namespace pstate::engine
