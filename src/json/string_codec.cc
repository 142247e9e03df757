#include "json/string_codec.h"

#include <cstdint>
#include <cstring>

#include "base/ascii.h"
#include "base/utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pstate::json {
namespace {

using ascii::HexValue;

std::uint32_t ReadHex4(const char* p) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    v = (v << 4) | static_cast<std::uint32_t>(HexValue(p[i]));
  }
  return v;
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

bool HasLoneSurrogate(std::string_view escaped) {
  const char* p = escaped.data();
  const char* end = p + escaped.size();
  while (p < end) {
    p = static_cast<const char*>(
        std::memchr(p, '\\', static_cast<std::size_t>(end - p)));
    if (p == nullptr) return false;
    if (p[1] != 'u') {
      p += 2;  // the parser guarantees a complete escape
      continue;
    }
    std::uint32_t cp = ReadHex4(p + 2);
    if (cp < 0xD800 || cp >= 0xE000) {
      p += 6;
      continue;
    }
    const char* at = p;
    // DecodeEscape takes a valid pair as one code point, and gives
    // kReplacement exactly for a lone surrogate.
    if (DecodeEscape(at, end) == kReplacement) return true;
    p = at;
  }
  return false;
}

void AppendUnescaped(std::string_view escaped, std::string* out) {
  const char* p = escaped.data();
  const char* end = p + escaped.size();
  while (p < end) {
    const char* run = p;
    while (p < end && *p != '\\') ++p;
    out->append(run, static_cast<std::size_t>(p - run));
    if (p >= end) break;
    // The parser guarantees a complete, valid escape here.
    utf8::Append(DecodeEscape(p, end), out);
  }
}

std::string Unescape(std::string_view escaped) {
  std::string out;
  out.reserve(escaped.size());
  AppendUnescaped(escaped, &out);
  return out;
}

namespace {

/// Writes `\u` and four lowercase hex digits of `v` (Go's spelling).
char* WriteUnicodeEscape(std::uint32_t v, char* o) {
  static constexpr char kHex[] = "0123456789abcdef";
  o[0] = '\\';
  o[1] = 'u';
  o[2] = kHex[(v >> 12) & 0xF];
  o[3] = kHex[(v >> 8) & 0xF];
  o[4] = kHex[(v >> 4) & 0xF];
  o[5] = kHex[v & 0xF];
  return o + 6;
}

/// Writes one decoded code point the way AppendEscaped would.
char* WriteCodePoint(std::uint32_t cp, char* o, EscapeStyle style) {
  char short_form = 0;
  switch (cp) {
    case '"': short_form = '"'; break;
    case '\\': short_form = '\\'; break;
    case '\n': short_form = 'n'; break;
    case '\r': short_form = 'r'; break;
    case '\t': short_form = 't'; break;
    case '\b': short_form = 'b'; break;
    case '\f': short_form = 'f'; break;
    default: break;
  }
  if (short_form != 0) {
    o[0] = '\\';
    o[1] = short_form;
    return o + 2;
  }
  if (cp < 0x20 || cp == 0x2028 || cp == 0x2029 ||
      (style == EscapeStyle::kHtmlSafe &&
       (cp == '<' || cp == '>' || cp == '&'))) {
    return WriteUnicodeEscape(cp, o);
  }
  return utf8::Write(cp, o);
}

/// True for the bytes WriteCanonical must look at: a backslash, the first
/// byte of U+2028/U+2029 and, in the HTML-safe style, < > &.
bool IsSpecial(unsigned char c, EscapeStyle style) {
  return c == '\\' || c == 0xE2 ||
         (style == EscapeStyle::kHtmlSafe &&
          (c == '<' || c == '>' || c == '&'));
}

}  // namespace

std::size_t CanonicalBound(std::size_t escaped_size, EscapeStyle style) {
  // Escapes never grow (\/ and \u escapes shrink or stay); a raw U+2028
  // (3 bytes) becomes 6, a raw < > & in the HTML-safe style 6.
  return escaped_size * (style == EscapeStyle::kHtmlSafe ? 6 : 2) +
         kCanonicalSlack;
}

char* WriteCanonical(std::string_view escaped, char* o, EscapeStyle style) {
  const char* p = escaped.data();
  const char* end = p + escaped.size();
  for (;;) {
#if defined(__SSE2__)
    // Sixteen plain bytes a step: stored whole (the slack of CanonicalBound
    // covers the bytes past the first special one), then the output
    // advances only to that byte.
    {
      const __m128i backslash = _mm_set1_epi8('\\');
      const __m128i e2 = _mm_set1_epi8(static_cast<char>(0xE2));
      const __m128i lt = _mm_set1_epi8('<');
      const __m128i gt = _mm_set1_epi8('>');
      const __m128i amp = _mm_set1_epi8('&');
      const bool html = style == EscapeStyle::kHtmlSafe;
      while (end - p >= 16) {
        __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(o), v);
        __m128i hits =
            _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, e2));
        if (html) {
          hits = _mm_or_si128(hits,
                              _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, lt),
                                                        _mm_cmpeq_epi8(v, gt)),
                                           _mm_cmpeq_epi8(v, amp)));
        }
        auto mask = static_cast<unsigned>(_mm_movemask_epi8(hits));
        if (mask != 0) {
          int k = __builtin_ctz(mask);
          p += k;
          o += k;
          break;
        }
        p += 16;
        o += 16;
      }
    }
#endif
    while (p < end && !IsSpecial(static_cast<unsigned char>(*p), style)) {
      *o++ = *p++;
    }
    if (p >= end) return o;
    auto c = static_cast<unsigned char>(*p);
    if (c == '\\') {
      char e = p[1];
      switch (e) {
        case '"':
        case '\\':
        case 'n':
        case 'r':
        case 't':
        case 'b':
        case 'f':
          // Already the form Go writes.
          o[0] = '\\';
          o[1] = e;
          o += 2;
          p += 2;
          continue;
        case 'u': break;
        default:  // '/', which Go writes unescaped
          *o++ = e;
          p += 2;
          continue;
      }
      o = WriteCodePoint(DecodeEscape(p, end), o, style);
      continue;
    }
    if (c == 0xE2) {
      if (end - p >= 3 && static_cast<unsigned char>(p[1]) == 0x80 &&
          (static_cast<unsigned char>(p[2]) == 0xA8 ||
           static_cast<unsigned char>(p[2]) == 0xA9)) {
        o = WriteUnicodeEscape(
            static_cast<unsigned char>(p[2]) == 0xA8 ? 0x2028 : 0x2029, o);
        p += 3;
      } else {
        *o++ = *p++;
      }
      continue;
    }
    o = WriteUnicodeEscape(c, o);  // < > & in the HTML-safe style
    ++p;
  }
}

void AppendCanonical(std::string_view escaped, std::string* out,
                     EscapeStyle style) {
  std::size_t old = out->size();
  out->resize(old + CanonicalBound(escaped.size(), style));
  char* e = WriteCanonical(escaped, out->data() + old, style);
  out->resize(static_cast<std::size_t>(e - out->data()));
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
      int len = utf8::SequenceLength(p + i, n - i);
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
