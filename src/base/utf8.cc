#include "base/utf8.h"

namespace pstate::utf8 {

Char Decode(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  int len = SequenceLength(p, s.size());
  if (len == 0) return Char{};
  char32_t cp = 0;
  switch (len) {
    case 1: cp = p[0]; break;
    case 2: cp = (char32_t{p[0] & 0x1Fu} << 6) | (p[1] & 0x3Fu); break;
    case 3:
      cp = (char32_t{p[0] & 0x0Fu} << 12) | (char32_t{p[1] & 0x3Fu} << 6) |
           (p[2] & 0x3Fu);
      break;
    default:
      cp = (char32_t{p[0] & 0x07u} << 18) | (char32_t{p[1] & 0x3Fu} << 12) |
           (char32_t{p[2] & 0x3Fu} << 6) | (p[3] & 0x3Fu);
      break;
  }
  return Char{cp, static_cast<std::size_t>(len), true};
}

Char DecodeLast(std::string_view s) {
  // As Go: back up over at most 3 continuation bytes to a start byte; the
  // character is what decodes from there only if it ends exactly at the end.
  std::size_t start = s.size() - 1;
  std::size_t limit = s.size() >= 4 ? s.size() - 4 : 0;
  while (start > limit && IsContinuation(s[start])) --start;
  Char c = Decode(s.substr(start));
  if (start + c.size != s.size()) return Char{};
  return c;
}

bool IsValid(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t n = bytes.size();
  std::size_t i = 0;
  while (i < n) {
    if (p[i] < 0x80) {
      ++i;
      continue;
    }
    int len = SequenceLength(p + i, n - i);
    if (len == 0) return false;
    i += static_cast<std::size_t>(len);
  }
  return true;
}

std::size_t CutPoint(std::string_view s, std::size_t max) {
  if (max >= s.size()) return s.size();
  std::size_t n = max;
  // A character is at most 4 bytes: at most 3 continuation bytes to skip.
  for (int i = 0; i < 3 && n > 0 && IsContinuation(s[n]); ++i) --n;
  return n;
}

}  // namespace pstate::utf8
