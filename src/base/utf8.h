// UTF-8: decoding one code point with its validity, encoding, validation,
// and cutting text without splitting a character. Well-formed means RFC
// 3629 (Unicode's table 3-7): no overlong forms, no surrogates, nothing
// above U+10FFFF. Ill-formed bytes decode as Go's unicode/utf8 decodes them:
// U+FFFD, one byte at a time.
#ifndef PSTATE_BASE_UTF8_H_
#define PSTATE_BASE_UTF8_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace pstate::utf8 {

inline constexpr char32_t kReplacement = 0xFFFD;

/// True for a continuation byte (top two bits 1 and 0): it continues a
/// sequence, never starts one.
constexpr bool IsContinuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

/// Length of the well-formed UTF-8 sequence starting at `p` (1 to 4), or 0
/// when it is not one. `avail` (at least 1) bytes are readable at `p`.
inline int SequenceLength(const unsigned char* p, std::size_t avail) {
  unsigned char c = p[0];
  if (c < 0x80) return 1;
  auto cont = [&](std::size_t i) { return i < avail && (p[i] & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (avail < 3 || !cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && p[1] < 0xA0) return 0;   // overlong
    if (c == 0xED && p[1] >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (avail < 4 || !cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && p[1] < 0x90) return 0;   // overlong
    if (c == 0xF4 && p[1] >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

/// One decoded character.
struct Char {
  char32_t code_point = kReplacement;
  std::size_t size = 1;  ///< bytes it took (1 for an ill-formed byte)
  bool valid = false;    ///< false: an ill-formed byte, read as U+FFFD
};

/// The character at the start of `s` (which must not be empty), as Go's
/// utf8.DecodeRuneInString reads it.
Char Decode(std::string_view s);

/// The character at the end of `s` (which must not be empty), as Go's
/// utf8.DecodeLastRuneInString reads it.
Char DecodeLast(std::string_view s);

/// True when `bytes` is well-formed UTF-8.
bool IsValid(std::string_view bytes);

/// Writes the UTF-8 encoding of `cp` (at most U+10FFFF; 1 to 4 bytes) at
/// `out` and returns the end of what it wrote.
inline char* Write(char32_t cp, char* out) {
  if (cp < 0x80) {
    *out++ = static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out++ = static_cast<char>(0xC0 | (cp >> 6));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out++ = static_cast<char>(0xE0 | (cp >> 12));
    *out++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out++ = static_cast<char>(0xF0 | (cp >> 18));
    *out++ = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

/// Appends the UTF-8 encoding of `cp` to `out`.
inline void Append(char32_t cp, std::string* out) {
  char buf[4];
  out->append(buf, static_cast<std::size_t>(Write(cp, buf) - buf));
}

/// The largest n <= max (and <= s.size()) at which `s` can be cut without
/// splitting a character: s[n] does not continue a sequence.
std::size_t CutPoint(std::string_view s, std::size_t max);

}  // namespace pstate::utf8

#endif  // PSTATE_BASE_UTF8_H_
