#include "base/glob.h"

#include "base/utf8.h"

namespace pstate {
namespace {

char32_t Fold(char32_t c, bool fold) {
  return fold && c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/// The end of the set that starts with the '[' at `open`, just past its
/// ']'; npos when the '[' has no ']' (and is then an ordinary character).
std::size_t SetEnd(std::string_view p, std::size_t open) {
  std::size_t i = open + 1;
  if (i < p.size() && (p[i] == '!' || p[i] == '^')) ++i;
  if (i < p.size() && p[i] == ']') ++i;  // a member, not the end
  while (i < p.size() && p[i] != ']') {
    i += p[i] == '\\' && i + 1 < p.size() ? 2u : 1u;
  }
  return i < p.size() ? i + 1 : std::string_view::npos;
}

/// One member character of a set at `*i` (an escape is the character after
/// the backslash); moves past it.
char32_t SetChar(std::string_view p, std::size_t* i) {
  if (p[*i] == '\\' && *i + 1 < p.size()) ++*i;
  utf8::Char c = utf8::Decode(p.substr(*i));
  *i += c.size;
  return c.code_point;
}

/// Whether `c` is in the set p[open, end), end just past the ']'.
bool InSet(std::string_view p, std::size_t open, std::size_t end, char32_t c,
           bool fold) {
  std::size_t i = open + 1;
  bool negated = p[i] == '!' || p[i] == '^';
  if (negated) ++i;
  const std::size_t close = end - 1;
  bool found = false;
  while (i < close) {
    char32_t lo = SetChar(p, &i);
    char32_t hi = lo;
    if (i + 1 < close && p[i] == '-') {
      ++i;
      hi = SetChar(p, &i);
    }
    if (fold) {
      // A range matches a letter when it holds either case of it.
      char32_t lower = Fold(c, true);
      char32_t upper = lower >= 'a' && lower <= 'z' ? lower - 'a' + 'A' : lower;
      found =
          found || (lo <= lower && lower <= hi) || (lo <= upper && upper <= hi);
    } else {
      found = found || (lo <= c && c <= hi);
    }
  }
  return found != negated;
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view text,
               ascii::Case letter_case) {
  const bool fold = letter_case == ascii::Case::kFold;
  std::size_t p = 0, t = 0;
  // The last '*' seen: where the pattern resumes, and where in the text
  // its run ends for the next try.
  std::size_t star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = ++p;
      mark = t;
      continue;
    }
    utf8::Char c = utf8::Decode(text.substr(t));
    bool matched = false;
    std::size_t next = p;
    if (p < pattern.size()) {
      if (pattern[p] == '?') {
        matched = true;
        next = p + 1;
      } else if (std::size_t end = pattern[p] == '[' ? SetEnd(pattern, p)
                                                     : std::string_view::npos;
                 end != std::string_view::npos) {
        matched = InSet(pattern, p, end, c.code_point, fold);
        next = end;
      } else {
        // A literal character (after a backslash, the next one): its
        // bytes, compared byte for byte.
        std::size_t from = p;
        if (pattern[from] == '\\' && from + 1 < pattern.size()) ++from;
        std::size_t size = utf8::Decode(pattern.substr(from)).size;
        next = from + size;
        matched = size == c.size;
        for (std::size_t k = 0; matched && k < size; ++k) {
          char a = pattern[from + k], b = text[t + k];
          matched = fold ? ascii::ToLower(a) == ascii::ToLower(b) : a == b;
        }
      }
    }
    if (matched) {
      p = next;
      t += c.size;
    } else if (star != std::string_view::npos) {
      // Let the last '*' take one more character and try again.
      p = star;
      mark += utf8::Decode(text.substr(mark)).size;
      t = mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace pstate
