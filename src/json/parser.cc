#include "json/parser.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <unordered_set>

#include "base/ascii.h"
#include "base/utf8.h"
#include "json/string_codec.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pstate::json {
namespace {

// Value::size is 32 bits: a longer string or number (or a container with
// more elements) cannot be represented, and truncating it would change the
// data silently. Such a value is refused with a located error instead.
constexpr std::uint64_t kMaxValueSize = 0xFFFFFFFFu;

std::string TooLarge(std::string_view what, std::uint64_t size,
                     std::string_view unit) {
  return std::string(what) + " of " + std::to_string(size) + " " +
         std::string(unit) + " is more than the " +
         std::to_string(kMaxValueSize) + " " + std::string(unit) +
         " one JSON value can hold";
}

using ascii::IsDigit;
using ascii::IsHexDigit;

#if defined(__SSE2__)
/// Bit i set when byte p[i] (0 <= i < 32) ends a plain run inside a
/// string: a quote, a backslash, a control character or a non-ASCII byte.
/// Reads 32 bytes: the padding after the window's end covers them.
inline std::uint64_t SpecialMask32(const char* p) {
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  // Signed compare: bytes >= 0x80 are negative, so they count as < 0x20.
  auto special = [&](const char* at) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote),
                                  _mm_cmpeq_epi8(v, backslash)),
                     _mm_cmplt_epi8(v, space)))));
  };
  return special(p) | (special(p + 16) << 16);
}
#endif

}  // namespace

std::string DescribeByte(unsigned char c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  if (c >= 0x21 && c < 0x7F)
    return std::string("'") + static_cast<char>(c) + "'";
  std::string s = c < 0x80 ? "U+00" : "byte 0x";
  s.push_back(kHex[c >> 4]);
  s.push_back(kHex[c & 0xF]);
  if (c == ' ') s = "a space";
  return s;
}

const char* Parser::SkipWhitespace(const char* p) const {
  while (p < end_) {
    char c = *p;
    if (c == ' ') {
#if defined(__SSE2__)
      // Indentation comes in long runs of spaces in pretty-printed state.
      while (end_ - p >= 16) {
        __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
        if (mask == 0xFFFF) {
          p += 16;
          continue;
        }
        p += __builtin_ctz(static_cast<unsigned>(~mask));
        break;
      }
      if (p < end_ && *p == ' ') ++p;
#else
      ++p;
#endif
      continue;
    }
    if (c == '\n' || c == '\r' || c == '\t') {
      ++p;
      continue;
    }
    return p;
  }
  return end_;
}

bool Parser::Fail(const char* at, SyntaxCode code, std::string message) {
  error_.code = code;
  error_.message = std::move(message);
  error_.offset = OffsetOf(at);
  return false;
}

bool Parser::NeedMore(const char* at, std::string_view what) {
  if (!at_eof_) {
    incomplete_ = true;
    return false;
  }
  return Fail(at, SyntaxCode::kSyntax,
              "unexpected end of input " + std::string(what));
}

ParseStatus Parser::Parse(const char* begin, const char* end, bool at_eof,
                          std::uint64_t base_offset, Arena& arena, Value* out,
                          const char** stop) {
  begin_ = begin;
  end_ = end;
  at_eof_ = at_eof;
  base_ = base_offset;
  arena_ = &arena;
  incomplete_ = false;
  duplicates_.clear();
  element_stack_.clear();
  member_stack_.clear();
  const char* p = begin;
  bool ok = ParseValue(p, out, 0);
  if (stop) *stop = p;
  if (ok) return ParseStatus::kOk;
  return incomplete_ ? ParseStatus::kIncomplete : ParseStatus::kError;
}

ParseStatus Parser::ParseDocument(std::string_view text,
                                  std::uint64_t base_offset, Arena& arena,
                                  Value* out) {
  // Copy with padding so the scanners may read past the end.
  char* copy = arena.Allocate<char>(text.size() + kParserPadding);
  if (!text.empty()) std::memcpy(copy, text.data(), text.size());
  std::memset(copy + text.size(), 0, kParserPadding);
  const char* stop = nullptr;
  ParseStatus status = Parse(copy, copy + text.size(), /*at_eof=*/true,
                             base_offset, arena, out, &stop);
  if (status != ParseStatus::kOk) return status;
  stop = SkipWhitespace(stop);
  if (stop != copy + text.size()) {
    Fail(stop, SyntaxCode::kSyntax,
         "unexpected " + DescribeByte(static_cast<unsigned char>(*stop)) +
             " after the JSON value");
    return ParseStatus::kError;
  }
  return ParseStatus::kOk;
}

bool Parser::ParseValue(const char*& p, Value* out, int depth) {
  p = SkipWhitespace(p);
  if (p >= end_) return NeedMore(p, "where a value was expected");
  out->offset = OffsetOf(p);
  switch (*p) {
    case '"': return ParseString(p, out);
    case '{': return ParseObject(p, out, depth + 1);
    case '[': return ParseArray(p, out, depth + 1);
    case 't': return ParseLiteral(p, "true", Type::kTrue, out);
    case 'f': return ParseLiteral(p, "false", Type::kFalse, out);
    case 'n': return ParseLiteral(p, "null", Type::kNull, out);
    default:
      if (*p == '-' || IsDigit(*p)) return ParseNumber(p, out);
      return Fail(p, SyntaxCode::kSyntax,
                  "unexpected " + DescribeByte(static_cast<unsigned char>(*p)) +
                      " where a value was expected");
  }
}

bool Parser::ParseLiteral(const char*& p, std::string_view word, Type type,
                          Value* out) {
  std::size_t avail = static_cast<std::size_t>(end_ - p);
  std::size_t n = std::min(avail, word.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] != word[i]) {
      return Fail(p + i, SyntaxCode::kSyntax,
                  "invalid literal: expected '" + std::string(word) + "'");
    }
  }
  if (n < word.size()) return NeedMore(p + n, "inside a literal");
  out->type = type;
  p += word.size();
  return true;
}

bool Parser::ParseNumber(const char*& p, Value* out) {
  const char* start = p;
  const char* q = p;
  auto need = [&](const char* at) { return NeedMore(at, "inside a number"); };
  if (*q == '-') {
    ++q;
    if (q >= end_) return need(q);
  }
  if (*q == '0') {
    ++q;
    if (q < end_ && IsDigit(*q)) {
      return Fail(q, SyntaxCode::kSyntax, "invalid number: leading zero");
    }
  } else if (IsDigit(*q)) {
    while (q < end_ && IsDigit(*q)) ++q;
  } else {
    return Fail(q, SyntaxCode::kSyntax, "invalid number: expected a digit");
  }
  if (q < end_ && *q == '.') {
    ++q;
    if (q >= end_) return need(q);
    if (!IsDigit(*q)) {
      return Fail(q, SyntaxCode::kSyntax,
                  "invalid number: expected a digit after '.'");
    }
    while (q < end_ && IsDigit(*q)) ++q;
  }
  if (q < end_ && (*q == 'e' || *q == 'E')) {
    ++q;
    if (q < end_ && (*q == '+' || *q == '-')) ++q;
    if (q >= end_) return need(q);
    if (!IsDigit(*q)) {
      return Fail(q, SyntaxCode::kSyntax,
                  "invalid number: expected a digit in the exponent");
    }
    while (q < end_ && IsDigit(*q)) ++q;
  }
  // A number touching the end of the window may continue in the next one.
  if (q >= end_ && !at_eof_) return need(q);
  if (static_cast<std::uint64_t>(q - start) > kMaxValueSize) {
    return Fail(
        start, SyntaxCode::kSyntax,
        TooLarge("a number", static_cast<std::uint64_t>(q - start), "bytes"));
  }
  out->type = Type::kNumber;
  out->text = start;
  out->size = static_cast<std::uint32_t>(q - start);
  p = q;
  return true;
}

bool Parser::ParseString(const char*& p, Value* out) {
  const char* start = p + 1;
  const char* q = start;
  bool escapes = false;
  bool ascii = true;
  // Each block's special bytes (quote, backslash, control, non-ASCII) are
  // found at once and handled in order from one bit mask: an escape or a
  // UTF-8 sequence clears the bits it covers, so the scan does not restart
  // after each one (escaped JSON inside strings has one every few bytes).
  for (;;) {
    std::uint64_t mask = 0;
    std::size_t block = 0;
#if defined(__SSE2__)
    block = 32;
    mask = SpecialMask32(q);
#else
    block = 1;
    {
      auto c = static_cast<unsigned char>(*q);
      mask = (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) ? 1 : 0;
    }
#endif
    if (mask == 0) {
      q += block;
      if (q >= end_) return NeedMore(end_, "inside a string");
      continue;
    }
    std::size_t done = block;  // where the next block starts
    while (mask != 0) {
      const char* at = q + __builtin_ctzll(mask);
      if (at >= end_) return NeedMore(end_, "inside a string");
      auto c = static_cast<unsigned char>(*at);
      std::size_t len = 0;  // the bytes `at` starts: an escape or a sequence
      if (c == '"') {
        q = at;
        goto closed;
      }
      if (c == '\\') {
        escapes = true;
        if (end_ - at < 2) return NeedMore(at, "inside a string");
        char e = at[1];
        if (e == 'u') {
          if (end_ - at < 6) {
            for (const char* h = at + 2; h < end_; ++h) {
              if (!IsHexDigit(*h)) {
                return Fail(h, SyntaxCode::kSyntax,
                            "invalid \\u escape: expected 4 hex digits");
              }
            }
            return NeedMore(at, "inside a string");
          }
          for (int i = 2; i < 6; ++i) {
            if (!IsHexDigit(at[i])) {
              return Fail(at + i, SyntaxCode::kSyntax,
                          "invalid \\u escape: expected 4 hex digits");
            }
          }
          len = 6;
        } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' ||
                   e == 'n' || e == 'r' || e == 't') {
          len = 2;
        } else {
          return Fail(at, SyntaxCode::kSyntax,
                      "invalid escape '\\" +
                          std::string(1, static_cast<char>(e)) + "' in string");
        }
      } else if (c < 0x20) {
        return Fail(at, SyntaxCode::kSyntax,
                    "control character " + DescribeByte(c) +
                        " in string must be escaped");
      } else {
        // Non-ASCII: validate one UTF-8 sequence.
        auto avail = static_cast<std::size_t>(end_ - at);
        int n = utf8::SequenceLength(reinterpret_cast<const unsigned char*>(at),
                                     avail);
        if (n == 0) {
          // A sequence cut by the window end may be completed by more input.
          if (avail < 4 && !at_eof_) return NeedMore(at, "inside a string");
          return Fail(at, SyntaxCode::kInvalidUtf8,
                      "invalid UTF-8 " + DescribeByte(c) + " in string");
        }
        ascii = false;
        len = static_cast<std::size_t>(n);
      }
      auto next = static_cast<std::size_t>(at - q) + len;
      if (next >= block) {
        done = next;  // the escape or sequence ends past this block
        break;
      }
      mask &= ~((std::uint64_t{1} << next) - 1);
    }
    q += done;
    if (q >= end_) return NeedMore(end_, "inside a string");
  }
closed:
  if (static_cast<std::uint64_t>(q - start) > kMaxValueSize) {
    return Fail(
        start - 1, SyntaxCode::kSyntax,
        TooLarge("a string", static_cast<std::uint64_t>(q - start), "bytes"));
  }
  out->type = Type::kString;
  out->has_escapes = escapes;
  out->ascii = ascii;
  out->text = start;
  out->size = static_cast<std::uint32_t>(q - start);
  p = q + 1;
  return true;
}

bool Parser::ParseArray(const char*& p, Value* out, int depth) {
  if (depth > max_depth_) {
    return Fail(
        p, SyntaxCode::kTooDeep,
        "nesting deeper than " + std::to_string(max_depth_) + " levels");
  }
  ++p;  // '['
  std::size_t first = element_stack_.size();
  p = SkipWhitespace(p);
  if (p >= end_) return NeedMore(p, "inside an array");
  if (*p != ']') {
    for (;;) {
      Value v;
      if (!ParseValue(p, &v, depth)) return false;
      element_stack_.push_back(v);
      p = SkipWhitespace(p);
      if (p >= end_) return NeedMore(p, "inside an array");
      if (*p == ',') {
        ++p;
        continue;
      }
      if (*p == ']') break;
      return Fail(p, SyntaxCode::kSyntax,
                  "expected ',' or ']' in array, found " +
                      DescribeByte(static_cast<unsigned char>(*p)));
    }
  }
  ++p;  // ']'
  std::size_t count = element_stack_.size() - first;
  if (count > kMaxValueSize) {
    return Fail(p - 1, SyntaxCode::kSyntax,
                TooLarge("an array", count, "elements"));
  }
  Value* elements = arena_->Allocate<Value>(count);
  std::copy(element_stack_.begin() + static_cast<std::ptrdiff_t>(first),
            element_stack_.end(), elements);
  element_stack_.resize(first);
  out->type = Type::kArray;
  out->elements = elements;
  out->size = static_cast<std::uint32_t>(count);
  return true;
}

bool Parser::ParseObject(const char*& p, Value* out, int depth) {
  if (depth > max_depth_) {
    return Fail(
        p, SyntaxCode::kTooDeep,
        "nesting deeper than " + std::to_string(max_depth_) + " levels");
  }
  ++p;  // '{'
  std::size_t first = member_stack_.size();
  p = SkipWhitespace(p);
  if (p >= end_) return NeedMore(p, "inside an object");
  if (*p != '}') {
    for (;;) {
      if (*p != '"') {
        return Fail(p, SyntaxCode::kSyntax,
                    "expected a string key in object, found " +
                        DescribeByte(static_cast<unsigned char>(*p)));
      }
      Member m;
      m.key.offset = OffsetOf(p);
      if (!ParseString(p, &m.key)) return false;
      p = SkipWhitespace(p);
      if (p >= end_) return NeedMore(p, "inside an object");
      if (*p != ':') {
        return Fail(p, SyntaxCode::kSyntax,
                    "expected ':' after object key, found " +
                        DescribeByte(static_cast<unsigned char>(*p)));
      }
      ++p;
      if (!ParseValue(p, &m.value, depth)) return false;
      member_stack_.push_back(m);
      p = SkipWhitespace(p);
      if (p >= end_) return NeedMore(p, "inside an object");
      if (*p == ',') {
        ++p;
        p = SkipWhitespace(p);
        if (p >= end_) return NeedMore(p, "inside an object");
        continue;
      }
      if (*p == '}') break;
      return Fail(p, SyntaxCode::kSyntax,
                  "expected ',' or '}' in object, found " +
                      DescribeByte(static_cast<unsigned char>(*p)));
    }
  }
  ++p;  // '}'
  std::size_t count = member_stack_.size() - first;
  if (count > kMaxValueSize) {
    return Fail(p - 1, SyntaxCode::kSyntax,
                TooLarge("an object", count, "members"));
  }
  if (count > 1) CheckDuplicates(first, count);
  Member* members = arena_->Allocate<Member>(count);
  std::copy(member_stack_.begin() + static_cast<std::ptrdiff_t>(first),
            member_stack_.end(), members);
  member_stack_.resize(first);
  out->type = Type::kObject;
  out->members = members;
  out->size = static_cast<std::uint32_t>(count);
  return true;
}

void Parser::CheckDuplicates(std::size_t first, std::size_t count) {
  const Member* m = member_stack_.data() + first;
  bool any_escapes = false;
  for (std::size_t i = 0; i < count; ++i) any_escapes |= m[i].key.has_escapes;
  if (count <= 16 && !any_escapes) {
    // A cheap signature (length and first bytes) rules out almost every
    // pair without touching memcmp.
    std::uint64_t sig[16];
    for (std::size_t i = 0; i < count; ++i) {
      // Always load 8 bytes (the buffer's padding makes that safe) and mask
      // off what lies past the key: no variable-length copy.
      std::uint64_t head = 0;
      std::memcpy(&head, m[i].key.text, 8);
      std::uint32_t n = m[i].key.size;
      if (n < 8) head &= (std::uint64_t{1} << (8 * n)) - 1;
      sig[i] = head ^ (static_cast<std::uint64_t>(n) << 56);
    }
    for (std::size_t i = 1; i < count; ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (sig[j] == sig[i] && m[j].key.raw() == m[i].key.raw()) {
          duplicates_.push_back({m[i].key.offset, std::string(m[i].key.raw())});
          break;
        }
      }
    }
    return;
  }
  // Larger objects: sort by signature and compare neighbours, no hashing
  // of whole keys and no allocation unless a key has escapes.
  dup_order_.clear();
  auto signature = [](std::string_view key) {
    std::uint64_t head = 0;
    std::memcpy(&head, key.data(), std::min<std::size_t>(key.size(), 8));
    return head ^ (static_cast<std::uint64_t>(key.size()) << 56);
  };
  for (std::size_t i = 0; i < count; ++i) {
    // Keys with escapes (rare) are signed by their decoded text, so "a"
    // and "\u0061" meet.
    std::uint64_t sig = m[i].key.has_escapes ? signature(m[i].key.Str())
                                             : signature(m[i].key.raw());
    dup_order_.push_back({sig, i});
  }
  std::sort(dup_order_.begin(), dup_order_.end());
  for (std::size_t a = 0; a < dup_order_.size();) {
    std::size_t b = a + 1;
    while (b < dup_order_.size() && dup_order_[b].first == dup_order_[a].first)
      ++b;
    if (b - a > 1) {
      // A run of equal signatures: compare its keys pairwise, decoded.
      for (std::size_t i = a + 1; i < b; ++i) {
        const Member& mi = m[dup_order_[i].second];
        std::string ki = mi.key.Str();
        for (std::size_t j = a; j < i; ++j) {
          const Member& mj = m[dup_order_[j].second];
          if (mj.key.Str() == ki) {
            // Report the later occurrence in document order.
            const Member& later =
                dup_order_[i].second > dup_order_[j].second ? mi : mj;
            duplicates_.push_back({later.key.offset, ki});
            break;
          }
        }
      }
    }
    a = b;
  }
  std::sort(duplicates_.begin(), duplicates_.end(),
            [](const DuplicateKey& x, const DuplicateKey& y) {
              return x.offset < y.offset;
            });
}

}  // namespace pstate::json
