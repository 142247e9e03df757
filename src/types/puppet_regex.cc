#include "types/puppet_regex.h"

#include <algorithm>
#include <string>
#include <utility>

namespace pstate::types::puppet {
namespace {

constexpr std::size_t kMaxProgram = 20000;
constexpr char32_t kMaxCodePoint = 0x10FFFF;

std::u32string DecodeUtf8(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    int len = c < 0x80         ? 1
              : (c >> 5) == 6  ? 2
              : (c >> 4) == 14 ? 3
              : (c >> 3) == 30 ? 4
                               : 0;
    if (len == 0 || i + static_cast<std::size_t>(len) > s.size()) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    char32_t cp = len == 1   ? c
                  : len == 2 ? (c & 0x1Fu)
                  : len == 3 ? (c & 0x0Fu)
                             : (c & 0x07u);
    bool ok = true;
    for (int k = 1; k < len; ++k) {
      auto cc = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
      if ((cc & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (cc & 0x3Fu);
    }
    if (!ok) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    out.push_back(cp);
    i += static_cast<std::size_t>(len);
  }
  return out;
}

bool IsWord(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

char32_t FoldAscii(char32_t c) {
  return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

using Ranges = std::vector<Regex::Range>;

Ranges Complement(Ranges r) {
  std::sort(
      r.begin(), r.end(),
      [](const Regex::Range& a, const Regex::Range& b) { return a.lo < b.lo; });
  Ranges out;
  char32_t next = 0;
  for (const Regex::Range& x : r) {
    if (x.lo > next) out.push_back({next, x.lo - 1});
    if (x.hi + 1 > next) next = x.hi + 1;
  }
  if (next <= kMaxCodePoint) out.push_back({next, kMaxCodePoint});
  return out;
}

// The AST the parser builds before code generation.
struct Node {
  enum Kind {
    kEmpty,
    kChar,
    kAny,
    kClass,
    kGroup,
    kConcat,
    kAlt,
    kRepeat,
    kAssert,
    kBackref,
    kLook
  } kind = kEmpty;
  char32_t ch = 0;
  std::uint32_t index = 0;  // class, group (0 = non-capturing), assert
  int min = 0;
  int max = -1;  // -1: unbounded
  bool greedy = true;
  bool negative = false;
  std::vector<Node> children;
};

}  // namespace

class RegexCompiler {
 public:
  RegexCompiler(Regex& re, std::string_view pattern, bool dot_all)
      : re_(re), pattern_(pattern), dot_all_(dot_all) {}

  bool Compile(std::string* error, std::size_t* offset) {
    Node root = ParseAlt(0);
    if (ok_ && pos_ < pattern_.size()) Fail("unmatched ')'");
    if (ok_) {
      Emit(root);
      Add({Regex::Op::kMatch});
      if (re_.program_.size() > kMaxProgram) {
        pos_ = 0;
        Fail("the pattern is too large");
      }
    }
    if (!ok_) {
      *error = error_;
      *offset = error_offset_;
    }
    return ok_;
  }

 private:
  void Fail(std::string message) {
    if (!ok_) return;
    ok_ = false;
    error_ = std::move(message);
    error_offset_ = pos_;
  }

  bool AtEnd() const { return pos_ >= pattern_.size(); }
  char Peek() const { return AtEnd() ? '\0' : pattern_[pos_]; }

  char32_t NextCodePoint() {
    auto c = static_cast<unsigned char>(pattern_[pos_]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    len = std::min(len, pattern_.size() - pos_);
    std::u32string cp = DecodeUtf8(pattern_.substr(pos_, len));
    pos_ += len;
    return cp.empty() ? 0xFFFD : cp[0];
  }

  Node ParseAlt(int depth) {
    if (depth > 100) {
      Fail("the pattern is nested too deeply");
      return {};
    }
    Node first = ParseConcat(depth);
    if (Peek() != '|') return first;
    Node alt;
    alt.kind = Node::kAlt;
    alt.children.push_back(std::move(first));
    while (ok_ && Peek() == '|') {
      ++pos_;
      alt.children.push_back(ParseConcat(depth));
    }
    return alt;
  }

  Node ParseConcat(int depth) {
    Node seq;
    seq.kind = Node::kConcat;
    while (ok_ && !AtEnd() && Peek() != '|' && Peek() != ')') {
      seq.children.push_back(ParseRepeat(depth));
    }
    return seq;
  }

  // {n}, {n,}, {n,m}, {,m}; anything else is a literal '{' in Ruby.
  bool ParseBraces(int* min, int* max) {
    std::size_t p = pos_ + 1;
    auto number = [&](int* out) {
      std::size_t start = p;
      long v = 0;
      while (p < pattern_.size() && pattern_[p] >= '0' && pattern_[p] <= '9') {
        v = std::min(v * 10 + (pattern_[p] - '0'), 100000L);
        ++p;
      }
      *out = static_cast<int>(v);
      return p > start;
    };
    int lo = 0;
    int hi = -1;
    bool has_lo = number(&lo);
    if (p < pattern_.size() && pattern_[p] == ',') {
      ++p;
      bool has_hi = number(&hi);
      if (!has_lo && !has_hi) return false;
      if (!has_hi) hi = -1;
    } else {
      if (!has_lo) return false;
      hi = lo;
    }
    if (p >= pattern_.size() || pattern_[p] != '}') return false;
    pos_ = p + 1;
    *min = lo;
    *max = hi;
    return true;
  }

  Node ParseRepeat(int depth) {
    Node atom = ParseAtom(depth);
    while (ok_ && !AtEnd()) {
      int min = 0;
      int max = -1;
      char c = Peek();
      if (c == '*') {
        ++pos_;
      } else if (c == '+') {
        ++pos_;
        min = 1;
      } else if (c == '?') {
        ++pos_;
        max = 1;
      } else if (c == '{' && ParseBraces(&min, &max)) {
        if (max >= 0 && max < min) {
          Fail("the repetition's maximum is below its minimum");
          return {};
        }
        if (min > 1000 || max > 1000) {
          Fail("the repetition count is too large");
          return {};
        }
      } else {
        break;
      }
      if (atom.kind == Node::kAssert || atom.kind == Node::kLook) {
        Fail("nothing to repeat");
        return {};
      }
      Node rep;
      rep.kind = Node::kRepeat;
      rep.min = min;
      rep.max = max;
      if (Peek() == '?') {
        rep.greedy = false;
        ++pos_;
      } else if (Peek() == '+') {
        ++pos_;  // possessive: treated as greedy
      }
      rep.children.push_back(std::move(atom));
      atom = std::move(rep);
    }
    return atom;
  }

  Node Assert(std::uint32_t kind) {
    Node n;
    n.kind = Node::kAssert;
    n.index = kind;
    return n;
  }
  Node Char(char32_t c) {
    Node n;
    n.kind = Node::kChar;
    n.ch = c;
    return n;
  }
  Node ClassNode(Ranges ranges, bool negated) {
    Regex::Class cls;
    cls.ranges = std::move(ranges);
    cls.negated = negated;
    AddFolded(&cls.ranges);
    re_.classes_.push_back(std::move(cls));
    Node n;
    n.kind = Node::kClass;
    n.index = static_cast<std::uint32_t>(re_.classes_.size() - 1);
    return n;
  }

  void AddFolded(Ranges* ranges) {
    if (!re_.ignore_case_) return;
    Ranges extra;
    for (const Regex::Range& r : *ranges) {
      char32_t lo = std::max<char32_t>(r.lo, 'a');
      char32_t hi = std::min<char32_t>(r.hi, 'z');
      if (lo <= hi) extra.push_back({lo - 'a' + 'A', hi - 'a' + 'A'});
      lo = std::max<char32_t>(r.lo, 'A');
      hi = std::min<char32_t>(r.hi, 'Z');
      if (lo <= hi) extra.push_back({lo - 'A' + 'a', hi - 'A' + 'a'});
    }
    ranges->insert(ranges->end(), extra.begin(), extra.end());
  }

  static Ranges Digits() { return {{'0', '9'}}; }
  static Ranges Words() {
    return {{'a', 'z'}, {'A', 'Z'}, {'0', '9'}, {'_', '_'}};
  }
  static Ranges Spaces() { return {{'\t', '\r'}, {' ', ' '}}; }
  static Ranges Hex() { return {{'0', '9'}, {'a', 'f'}, {'A', 'F'}}; }

  // A class escape (\d \w \s \h and their negations), or false.
  bool ClassEscape(char c, Ranges* out) {
    switch (c) {
      case 'd': *out = Digits(); return true;
      case 'D': *out = Complement(Digits()); return true;
      case 'w': *out = Words(); return true;
      case 'W': *out = Complement(Words()); return true;
      case 's': *out = Spaces(); return true;
      case 'S': *out = Complement(Spaces()); return true;
      case 'h': *out = Hex(); return true;
      case 'H': *out = Complement(Hex()); return true;
      default: return false;
    }
  }

  // A single-character escape after the backslash (pos_ at the letter).
  bool CharEscape(char32_t* out) {
    char c = Peek();
    auto hex_digits = [&](std::size_t count, bool braced) {
      char32_t v = 0;
      std::size_t n = 0;
      while (!AtEnd() && (braced || n < count)) {
        char h = Peek();
        int d = h >= '0' && h <= '9'   ? h - '0'
                : h >= 'a' && h <= 'f' ? h - 'a' + 10
                : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                       : -1;
        if (d < 0) break;
        v = v * 16 + static_cast<char32_t>(d);
        ++pos_;
        ++n;
        if (v > kMaxCodePoint) return false;
      }
      *out = v;
      return braced ? n > 0 : n == count;
    };
    switch (c) {
      case 'n':
        ++pos_;
        *out = '\n';
        return true;
      case 't':
        ++pos_;
        *out = '\t';
        return true;
      case 'r':
        ++pos_;
        *out = '\r';
        return true;
      case 'f':
        ++pos_;
        *out = '\f';
        return true;
      case 'v':
        ++pos_;
        *out = '\v';
        return true;
      case 'a':
        ++pos_;
        *out = 7;
        return true;
      case 'e':
        ++pos_;
        *out = 27;
        return true;
      case '0':
        ++pos_;
        *out = 0;
        return true;
      case 'x':
        ++pos_;
        if (Peek() == '{') {
          ++pos_;
          if (!hex_digits(0, true) || Peek() != '}') return false;
          ++pos_;
          return true;
        }
        return hex_digits(2, false);
      case 'u':
        ++pos_;
        if (Peek() == '{') {
          ++pos_;
          if (!hex_digits(0, true) || Peek() != '}') return false;
          ++pos_;
          return true;
        }
        return hex_digits(4, false);
      default:
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (c >= '1' && c <= '9')) {
          return false;  // an escape pstate does not support
        }
        *out = NextCodePoint();  // an escaped literal: \. \/ \\ ...
        return true;
    }
  }

  Node ParseClass() {
    ++pos_;  // '['
    bool negated = false;
    if (Peek() == '^') {
      negated = true;
      ++pos_;
    }
    Ranges ranges;
    bool first = true;
    while (ok_) {
      if (AtEnd()) {
        Fail("unterminated character class");
        return {};
      }
      char c = Peek();
      if (c == ']' && !first) {
        ++pos_;
        break;
      }
      first = false;
      if (c == '[') {
        static constexpr std::pair<std::string_view, int> kPosix[] = {
            {"[:alpha:]", 0}, {"[:digit:]", 1},  {"[:alnum:]", 2},
            {"[:space:]", 3}, {"[:upper:]", 4},  {"[:lower:]", 5},
            {"[:word:]", 6},  {"[:xdigit:]", 7}, {"[:punct:]", 8},
        };
        bool matched = false;
        for (const auto& [name, id] : kPosix) {
          if (pattern_.substr(pos_, name.size()) == name) {
            pos_ += name.size();
            matched = true;
            switch (id) {
              case 0:
                ranges.push_back({'a', 'z'});
                ranges.push_back({'A', 'Z'});
                break;
              case 1: ranges.push_back({'0', '9'}); break;
              case 2:
                ranges.push_back({'a', 'z'});
                ranges.push_back({'A', 'Z'});
                ranges.push_back({'0', '9'});
                break;
              case 3:
                for (auto r : Spaces()) ranges.push_back(r);
                break;
              case 4: ranges.push_back({'A', 'Z'}); break;
              case 5: ranges.push_back({'a', 'z'}); break;
              case 6:
                for (auto r : Words()) ranges.push_back(r);
                break;
              case 7:
                for (auto r : Hex()) ranges.push_back(r);
                break;
              case 8:
                ranges.push_back({'!', '/'});
                ranges.push_back({':', '@'});
                ranges.push_back({'[', '`'});
                ranges.push_back({'{', '~'});
                break;
            }
          }
        }
        if (!matched) {
          Fail("nested character classes are not supported");
          return {};
        }
        continue;
      }
      if (c == '&' && pattern_.substr(pos_, 2) == "&&") {
        Fail("character class intersection is not supported");
        return {};
      }
      char32_t lo;
      if (c == '\\') {
        ++pos_;
        if (AtEnd()) {
          Fail("a pattern cannot end with a backslash");
          return {};
        }
        Ranges escaped;
        if (ClassEscape(Peek(), &escaped)) {
          ++pos_;
          ranges.insert(ranges.end(), escaped.begin(), escaped.end());
          continue;
        }
        if (Peek() == 'b') {
          ++pos_;
          lo = 8;
        } else if (!CharEscape(&lo)) {
          Fail("unsupported escape in a character class");
          return {};
        }
      } else {
        lo = NextCodePoint();
      }
      char32_t hi = lo;
      if (Peek() == '-' && pos_ + 1 < pattern_.size() &&
          pattern_[pos_ + 1] != ']') {
        ++pos_;
        if (Peek() == '\\') {
          ++pos_;
          if (AtEnd() || !CharEscape(&hi)) {
            Fail("unsupported escape in a character class");
            return {};
          }
        } else {
          hi = NextCodePoint();
        }
        if (hi < lo) {
          Fail("empty range in a character class");
          return {};
        }
      }
      ranges.push_back({lo, hi});
    }
    return ClassNode(std::move(ranges), negated);
  }

  Node ParseAtom(int depth) {
    char c = Peek();
    switch (c) {
      case '(': {
        ++pos_;
        Node group;
        group.kind = Node::kGroup;
        if (Peek() == '?') {
          ++pos_;
          char k = Peek();
          if (k == ':') {
            ++pos_;
          } else if (k == '=' || k == '!') {
            ++pos_;
            group.kind = Node::kLook;
            group.negative = k == '!';
          } else {
            --pos_;
            Fail("this group syntax is not supported");
            return {};
          }
        } else {
          group.index = static_cast<std::uint32_t>(++re_.groups_);
        }
        group.children.push_back(ParseAlt(depth + 1));
        if (!ok_) return {};
        if (Peek() != ')') {
          Fail("missing ')'");
          return {};
        }
        ++pos_;
        return group;
      }
      case '[': return ParseClass();
      case '.': {
        ++pos_;
        Node n;
        n.kind = Node::kAny;
        return n;
      }
      case '^': ++pos_; return Assert(Regex::kLineStart);
      case '$': ++pos_; return Assert(Regex::kLineEnd);
      case '*':
      case '+':
      case '?': Fail("nothing to repeat"); return {};
      case '\\': {
        ++pos_;
        if (AtEnd()) {
          Fail("a pattern cannot end with a backslash");
          return {};
        }
        char e = Peek();
        Ranges ranges;
        if (ClassEscape(e, &ranges)) {
          ++pos_;
          return ClassNode(std::move(ranges), false);
        }
        switch (e) {
          case 'A': ++pos_; return Assert(Regex::kStringStart);
          case 'z': ++pos_; return Assert(Regex::kStringEnd);
          case 'Z': ++pos_; return Assert(Regex::kStringEndNewline);
          case 'b': ++pos_; return Assert(Regex::kWordBoundary);
          case 'B': ++pos_; return Assert(Regex::kNotWordBoundary);
          default: break;
        }
        if (e >= '1' && e <= '9') {
          ++pos_;
          Node n;
          n.kind = Node::kBackref;
          n.index = static_cast<std::uint32_t>(e - '0');
          if (n.index > re_.groups_) {
            Fail("a back reference to a group that does not exist");
            return {};
          }
          return n;
        }
        char32_t ch;
        if (!CharEscape(&ch)) {
          Fail("this escape is not supported");
          return {};
        }
        return CharNode(ch);
      }
      default: return CharNode(NextCodePoint());
    }
  }

  Node CharNode(char32_t ch) {
    if (re_.ignore_case_ && FoldAscii(ch) >= 'a' && FoldAscii(ch) <= 'z') {
      return ClassNode({{ch, ch}}, false);
    }
    return Char(ch);
  }

  std::uint32_t Pc() const {
    return static_cast<std::uint32_t>(re_.program_.size());
  }
  std::uint32_t Add(Regex::Inst inst) {
    re_.program_.push_back(inst);
    return Pc() - 1;
  }

  void Emit(const Node& n) {
    if (re_.program_.size() > kMaxProgram) return;
    switch (n.kind) {
      case Node::kEmpty: return;
      case Node::kChar: Add({Regex::Op::kChar, n.ch}); return;
      case Node::kAny:
        Add({dot_all_ ? Regex::Op::kAnyNewline : Regex::Op::kAny});
        return;
      case Node::kClass: Add({Regex::Op::kClass, n.index}); return;
      case Node::kAssert: Add({Regex::Op::kAssert, n.index}); return;
      case Node::kBackref: Add({Regex::Op::kBackref, n.index}); return;
      case Node::kConcat:
        for (const Node& c : n.children) Emit(c);
        return;
      case Node::kGroup:
        if (n.index > 0) Add({Regex::Op::kSave, 2 * n.index});
        Emit(n.children[0]);
        if (n.index > 0) Add({Regex::Op::kSave, 2 * n.index + 1});
        return;
      case Node::kLook: {
        std::uint32_t look = Add({Regex::Op::kLook, 0, n.negative ? 1u : 0u});
        std::uint32_t jump = Add({Regex::Op::kJmp});
        re_.program_[look].a = Pc();
        Emit(n.children[0]);
        Add({Regex::Op::kMatch});
        re_.program_[jump].a = Pc();
        return;
      }
      case Node::kAlt: {
        std::vector<std::uint32_t> exits;
        for (std::size_t i = 0; i < n.children.size(); ++i) {
          if (i + 1 < n.children.size()) {
            std::uint32_t split = Add({Regex::Op::kSplit});
            re_.program_[split].a = Pc();
            Emit(n.children[i]);
            exits.push_back(Add({Regex::Op::kJmp}));
            re_.program_[split].b = Pc();
          } else {
            Emit(n.children[i]);
          }
        }
        for (std::uint32_t e : exits) re_.program_[e].a = Pc();
        return;
      }
      case Node::kRepeat: {
        const Node& body = n.children[0];
        for (int i = 0; i < n.min; ++i) Emit(body);
        if (n.max < 0) {
          // loop: split(body, exit); mark; body; progress; jmp loop
          std::uint32_t mark = static_cast<std::uint32_t>(re_.marks_++);
          std::uint32_t loop = Add({Regex::Op::kSplit});
          std::uint32_t body_pc = Pc();
          Add({Regex::Op::kMark, mark});
          Emit(body);
          Add({Regex::Op::kProgress, mark});
          Add({Regex::Op::kJmp, loop});
          SetSplit(loop, body_pc, Pc(), n.greedy);
          return;
        }
        std::vector<std::uint32_t> splits;
        for (int i = n.min; i < n.max; ++i) {
          splits.push_back(Add({Regex::Op::kSplit}));
          re_.program_[splits.back()].a = Pc();
          Emit(body);
        }
        for (std::uint32_t s : splits) {
          SetSplit(s, s + 1, Pc(), n.greedy);
        }
        return;
      }
    }
  }

  void SetSplit(std::uint32_t split, std::uint32_t body, std::uint32_t exit,
                bool greedy) {
    re_.program_[split].a = greedy ? body : exit;
    re_.program_[split].b = greedy ? exit : body;
  }

  Regex& re_;
  std::string_view pattern_;
  bool dot_all_;
  std::size_t pos_ = 0;
  bool ok_ = true;
  std::string error_;
  std::size_t error_offset_ = 0;
};

bool Regex::Compile(std::string_view pattern, std::string_view flags,
                    std::string* error, std::size_t* error_offset) {
  program_.clear();
  classes_.clear();
  groups_ = 0;
  marks_ = 0;
  ignore_case_ = false;
  bool dot_all = false;
  // Puppet's regexp literals take no trailing flags; options are written
  // inline at the start, as in /(?i)abc/ or /(?mi)x/.
  std::string all_flags(flags);
  std::size_t skip = 0;
  if (pattern.substr(0, 2) == "(?") {
    std::size_t k = 2;
    while (k < pattern.size() &&
           (pattern[k] == 'i' || pattern[k] == 'm' || pattern[k] == 'x')) {
      ++k;
    }
    if (k > 2 && k < pattern.size() && pattern[k] == ')') {
      all_flags.append(pattern.substr(2, k - 2));
      skip = k + 1;
    }
  }
  for (char f : all_flags) {
    if (f == 'i') {
      ignore_case_ = true;
    } else if (f == 'm') {
      dot_all = true;
    } else {
      *error = std::string("the regular expression flag '") + f +
               "' is not supported";
      *error_offset = 0;
      return false;
    }
  }
  RegexCompiler compiler(*this, pattern.substr(skip), dot_all);
  if (compiler.Compile(error, error_offset)) return true;
  *error_offset += skip;
  return false;
}

bool Regex::ClassHas(const Class& c, char32_t ch) const {
  bool in = false;
  for (const Range& r : c.ranges) {
    if (ch >= r.lo && ch <= r.hi) {
      in = true;
      break;
    }
  }
  return in != c.negated;
}

bool Regex::Run(const std::u32string& s, std::size_t start, std::size_t pc,
                std::size_t* steps, std::size_t* end, Scratch* scratch) const {
  constexpr std::size_t kUnset = static_cast<std::size_t>(-1);
  std::vector<std::size_t>& caps = scratch->caps;
  std::vector<std::size_t>& marks = scratch->marks;
  std::vector<Frame>& stack = scratch->stack;
  caps.assign(2 * (groups_ + 1), kUnset);
  marks.assign(marks_, kUnset);
  stack.clear();
  std::size_t sp = start;
  const std::size_t n = s.size();
  auto budget = kStepBudget + 64 * n;
  for (;;) {
    bool fail = false;
    if (++*steps > budget) return false;
    const Inst& inst = program_[pc];
    switch (inst.op) {
      case Op::kChar:
        if (sp < n && s[sp] == inst.a) {
          ++sp;
          ++pc;
        } else {
          fail = true;
        }
        break;
      case Op::kAny:
      case Op::kAnyNewline:
        if (sp < n && (inst.op == Op::kAnyNewline || s[sp] != '\n')) {
          ++sp;
          ++pc;
        } else {
          fail = true;
        }
        break;
      case Op::kClass:
        if (sp < n && ClassHas(classes_[inst.a], s[sp])) {
          ++sp;
          ++pc;
        } else {
          fail = true;
        }
        break;
      case Op::kSplit:
        stack.push_back({inst.b, sp, -1, 0});
        pc = inst.a;
        break;
      case Op::kJmp: pc = inst.a; break;
      case Op::kSave:
        stack.push_back({0, 0, static_cast<int>(inst.a), caps[inst.a]});
        caps[inst.a] = sp;
        ++pc;
        break;
      case Op::kMark:
        stack.push_back({0, 0, -static_cast<int>(inst.a) - 2, marks[inst.a]});
        marks[inst.a] = sp;
        ++pc;
        break;
      case Op::kProgress:
        if (sp == marks[inst.a]) {
          fail = true;
        } else {
          ++pc;
        }
        break;
      case Op::kAssert: {
        bool ok = false;
        bool before = sp > 0 && IsWord(s[sp - 1]);
        bool after = sp < n && IsWord(s[sp]);
        switch (inst.a) {
          case kLineStart: ok = sp == 0 || s[sp - 1] == '\n'; break;
          case kLineEnd: ok = sp == n || s[sp] == '\n'; break;
          case kStringStart: ok = sp == 0; break;
          case kStringEnd: ok = sp == n; break;
          case kStringEndNewline:
            ok = sp == n || (sp + 1 == n && s[sp] == '\n');
            break;
          case kWordBoundary: ok = before != after; break;
          case kNotWordBoundary: ok = before == after; break;
          default: break;
        }
        if (ok) {
          ++pc;
        } else {
          fail = true;
        }
        break;
      }
      case Op::kBackref: {
        std::size_t b = caps[2 * std::size_t{inst.a}];
        std::size_t e = caps[2 * std::size_t{inst.a} + 1];
        if (b == kUnset || e == kUnset || e < b) {
          fail = true;
          break;
        }
        std::size_t len = e - b;
        bool ok = sp + len <= n;
        for (std::size_t k = 0; ok && k < len; ++k) {
          char32_t x = s[b + k];
          char32_t y = s[sp + k];
          ok = ignore_case_ ? FoldAscii(x) == FoldAscii(y) : x == y;
        }
        if (ok) {
          sp += len;
          ++pc;
        } else {
          fail = true;
        }
        break;
      }
      case Op::kLook: {
        std::size_t ignored;
        Scratch inner;  // lookahead runs on its own state
        bool matched = Run(s, sp, inst.a, steps, &ignored, &inner);
        if (*steps > budget) return false;
        if (matched != (inst.b == 1)) {
          ++pc;
        } else {
          fail = true;
        }
        break;
      }
      case Op::kMatch: *end = sp; return true;
    }
    if (!fail) continue;
    // Backtrack: undo saves and marks until a branch is found.
    for (;;) {
      if (stack.empty()) return false;
      Frame f = stack.back();
      stack.pop_back();
      if (f.restore == -1) {
        pc = f.pc;
        sp = f.sp;
        break;
      }
      if (f.restore >= 0) {
        caps[static_cast<std::size_t>(f.restore)] = f.old;
      } else {
        marks[static_cast<std::size_t>(-f.restore - 2)] = f.old;
      }
    }
  }
}

Regex::Match Regex::Search(std::string_view subject) const {
  std::u32string s = DecodeUtf8(subject);
  std::size_t steps = 0;
  const std::size_t budget = kStepBudget + 64 * s.size();
  bool anchored = !program_.empty() && program_[0].op == Op::kAssert &&
                  program_[0].a == kStringStart;
  Scratch scratch;
  for (std::size_t start = 0; start <= s.size(); ++start) {
    std::size_t end;
    if (Run(s, start, 0, &steps, &end, &scratch)) return Match::kYes;
    if (steps > budget) return Match::kTooComplex;
    if (anchored) break;
  }
  return Match::kNo;
}

}  // namespace pstate::types::puppet
