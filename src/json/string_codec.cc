#include "pstate/json/string_codec.h"

#include <cstdint>
#include <cstring>

namespace pstate::json {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::uint32_t ReadHex4(const char* p) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    v = (v << 4) | static_cast<std::uint32_t>(HexDigit(p[i]));
  }
  return v;
}

void AppendUtf8(std::uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

constexpr std::uint32_t kReplacement = 0xFFFD;

/// Decodes the escape at `p` (a backslash the parser accepted) and moves
/// `p` past it, joining a \uD8xx\uDCxx surrogate pair. A lone surrogate
/// becomes U+FFFD, as Go's encoding/json decodes it.
std::uint32_t DecodeEscape(const char*& p, const char* end) {
  char e = p[1];
  p += 2;
  switch (e) {
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'u': break;
    default: return static_cast<unsigned char>(e);  // " \ /
  }
  std::uint32_t cp = ReadHex4(p);
  p += 4;
  if (cp >= 0xDC00 && cp < 0xE000) return kReplacement;
  if (cp < 0xD800 || cp >= 0xDC00) return cp;
  if (end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
    std::uint32_t lo = ReadHex4(p + 2);
    if (lo >= 0xDC00 && lo < 0xE000) {
      p += 6;
      return 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
  }
  return kReplacement;
}

}  // namespace

void AppendUnescaped(std::string_view escaped, std::string* out) {
  const char* p = escaped.data();
  const char* end = p + escaped.size();
  while (p < end) {
    const char* run = p;
    while (p < end && *p != '\\') ++p;
    out->append(run, static_cast<std::size_t>(p - run));
    if (p >= end) break;
    // The parser guarantees a complete, valid escape here.
    AppendUtf8(DecodeEscape(p, end), out);
  }
}

std::string Unescape(std::string_view escaped) {
  std::string out;
  out.reserve(escaped.size());
  AppendUnescaped(escaped, &out);
  return out;
}

void AppendCanonical(std::string_view escaped, std::string* out,
                     EscapeStyle style) {
  static constexpr char kHex[] = "0123456789abcdef";
  const char* p = escaped.data();
  const char* end = p + escaped.size();
  const char* run = p;
  auto flush = [&](const char* upto) {
    out->append(run, static_cast<std::size_t>(upto - run));
  };
  auto unicode = [&](std::uint32_t v) {
    out->append("\\u");
    out->push_back(kHex[(v >> 12) & 0xF]);
    out->push_back(kHex[(v >> 8) & 0xF]);
    out->push_back(kHex[(v >> 4) & 0xF]);
    out->push_back(kHex[v & 0xF]);
  };
  // Writes one decoded code point the way AppendEscaped would.
  auto emit = [&](std::uint32_t cp) {
    switch (cp) {
      case '"': out->append("\\\""); return;
      case '\\': out->append("\\\\"); return;
      case '\n': out->append("\\n"); return;
      case '\r': out->append("\\r"); return;
      case '\t': out->append("\\t"); return;
      case '\b': out->append("\\b"); return;
      case '\f': out->append("\\f"); return;
      default: break;
    }
    if (cp < 0x20 || cp == 0x2028 || cp == 0x2029 ||
        (style == EscapeStyle::kHtmlSafe &&
         (cp == '<' || cp == '>' || cp == '&'))) {
      unicode(cp);
      return;
    }
    AppendUtf8(cp, out);
  };
  while (p < end) {
    if (style == EscapeStyle::kExport) {
      // Jump to the next byte that can need work: a backslash or the first
      // byte of U+2028/U+2029. Plain runs are the common case.
      const void* bs = std::memchr(p, '\\', static_cast<std::size_t>(end - p));
      const char* stop = bs ? static_cast<const char*>(bs) : end;
      const void* e2 = std::memchr(p, 0xE2, static_cast<std::size_t>(stop - p));
      p = e2 ? static_cast<const char*>(e2) : stop;
      if (p >= end) break;
    }
    auto c = static_cast<unsigned char>(*p);
    if (c == '\\') {
      flush(p);
      emit(DecodeEscape(p, end));
      run = p;
      continue;
    }
    if (c == 0xE2 && end - p >= 3 && static_cast<unsigned char>(p[1]) == 0x80 &&
        (static_cast<unsigned char>(p[2]) == 0xA8 ||
         static_cast<unsigned char>(p[2]) == 0xA9)) {
      flush(p);
      unicode(static_cast<unsigned char>(p[2]) == 0xA8 ? 0x2028 : 0x2029);
      p += 3;
      run = p;
      continue;
    }
    if (style == EscapeStyle::kHtmlSafe && (c == '<' || c == '>' || c == '&')) {
      flush(p);
      unicode(c);
      ++p;
      run = p;
      continue;
    }
    ++p;
  }
  flush(end);
}

int Utf8SequenceLength(const unsigned char* p, std::size_t avail) {
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

bool IsValidUtf8(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t n = bytes.size();
  std::size_t i = 0;
  while (i < n) {
    if (p[i] < 0x80) {
      ++i;
      continue;
    }
    int len = Utf8SequenceLength(p + i, n - i);
    if (len == 0) return false;
    i += static_cast<std::size_t>(len);
  }
  return true;
}

void AppendEscaped(std::string_view decoded, std::string* out,
                   EscapeStyle style) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto* p = reinterpret_cast<const unsigned char*>(decoded.data());
  std::size_t n = decoded.size();
  std::size_t i = 0;
  std::size_t run = 0;
  auto flush = [&](std::size_t upto) {
    out->append(decoded.data() + run, upto - run);
  };
  auto unicode = [&](unsigned v) {
    out->append("\\u");
    out->push_back(kHex[(v >> 12) & 0xF]);
    out->push_back(kHex[(v >> 8) & 0xF]);
    out->push_back(kHex[(v >> 4) & 0xF]);
    out->push_back(kHex[v & 0xF]);
  };
  while (i < n) {
    unsigned char c = p[i];
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\' &&
        (style == EscapeStyle::kExport || (c != '<' && c != '>' && c != '&'))) {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      int len = Utf8SequenceLength(p + i, n - i);
      if (len == 0) {
        flush(i);
        out->append("\\ufffd");
        ++i;
        run = i;
        continue;
      }
      // U+2028 and U+2029 are E2 80 A8 / E2 80 A9.
      if (len == 3 && c == 0xE2 && p[i + 1] == 0x80 &&
          (p[i + 2] == 0xA8 || p[i + 2] == 0xA9)) {
        flush(i);
        unicode(p[i + 2] == 0xA8 ? 0x2028 : 0x2029);
        i += 3;
        run = i;
        continue;
      }
      i += static_cast<std::size_t>(len);
      continue;
    }
    flush(i);
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      // Go 1.22+ (what current Pulumi CLIs are built with) writes these two
      // short forms too.
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default: unicode(c); break;
    }
    ++i;
    run = i;
  }
  flush(n);
}

}  // namespace pstate::json
