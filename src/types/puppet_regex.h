// A bounded regular-expression matcher for Puppet's Pattern type. Private
// to src/types/puppet*.cc.
//
// Puppet matches Pattern values with Ruby's Regexp (Onigmo), unanchored
// (`Regexp#match`, lib/puppet/pops/types/types.rb PPatternType#instance?).
// std::regex cannot express Ruby's semantics (no \A, \z or \h, and `^`/`$`
// cannot be line anchors and string anchors at once in ECMAScript) and can
// exhaust the stack or run for an unbounded time, so pstate has its own
// backtracking matcher over code points with a step budget. It follows Ruby
// where it matters for state values:
//   * `^` and `$` are LINE anchors (`$` also matches before a final or any
//     "\n"); `\A`, `\z` and `\Z` anchor the whole string;
//   * `.` does not match "\n" unless the /m flag is given (Ruby's /m is
//     "dot matches newline", not ECMAScript's multiline);
//   * `\d`, `\w`, `\s`, `\h` (hex digit!) and `\b` are ASCII classes, as in
//     Ruby for UTF-8 strings without (?u);
//   * /i folds ASCII letters only (Ruby also folds other scripts);
//   * possessive quantifiers (`a*+`) and atomic groups are treated as
//     greedy ones, lookbehind, named groups, \p{...}, \g<...>, conditionals
//     and nested class operations (&&) are not supported: such a pattern
//     is a type error, never a silent mismatch.
// Matching stops with kTooComplex after a fixed number of steps.
#ifndef PSTATE_TYPES_PUPPET_REGEX_H_
#define PSTATE_TYPES_PUPPET_REGEX_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pstate::types::puppet {

class Regex {
 public:
  enum class Match { kNo, kYes, kTooComplex };

  /// Compiles `pattern` (the text between the slashes, or a string's
  /// content) with Ruby flags ("i", "m"). On failure returns false and sets
  /// `*error` and `*error_offset` (an offset into `pattern`).
  bool Compile(std::string_view pattern, std::string_view flags,
               std::string* error, std::size_t* error_offset);

  /// Does the pattern match somewhere in the UTF-8 string `subject`?
  Match Search(std::string_view subject) const;

  /// Work limit per Search, in VM steps.
  static constexpr std::size_t kStepBudget = 200000;

  enum class Op : std::uint8_t {
    kChar,        ///< a: code point
    kAny,         ///< any code point but "\n"
    kAnyNewline,  ///< any code point
    kClass,       ///< a: class index
    kSplit,       ///< try a first, then b
    kJmp,         ///< a
    kSave,        ///< a: capture slot
    kMark,        ///< a: progress register (loop entry position)
    kProgress,    ///< fail unless the position moved past register a
    kAssert,      ///< a: AssertKind
    kBackref,     ///< a: group number
    kLook,        ///< a: program start, b: 1 = negative lookahead
    kMatch,
  };
  enum AssertKind : std::uint32_t {
    kLineStart,
    kLineEnd,
    kStringStart,
    kStringEnd,
    kStringEndNewline,
    kWordBoundary,
    kNotWordBoundary,
  };
  struct Inst {
    Op op;
    std::uint32_t a = 0;
    std::uint32_t b = 0;
  };
  struct Range {
    char32_t lo;
    char32_t hi;
  };
  struct Class {
    std::vector<Range> ranges;
    bool negated = false;
  };

 private:
  friend class RegexCompiler;
  struct Frame {
    std::uint32_t pc;
    std::size_t sp;
    int restore;  // -1: a branch; >= 0: capture slot; < -1: mark -(r+2)
    std::size_t old;
  };
  /// Buffers a search reuses across start positions.
  struct Scratch {
    std::vector<std::size_t> caps;
    std::vector<std::size_t> marks;
    std::vector<Frame> stack;
  };
  bool Run(const std::u32string& s, std::size_t start, std::size_t pc,
           std::size_t* steps, std::size_t* end, Scratch* scratch) const;
  bool ClassHas(const Class& c, char32_t ch) const;

  std::vector<Inst> program_;
  std::vector<Class> classes_;
  std::size_t groups_ = 0;
  std::size_t marks_ = 0;
  bool ignore_case_ = false;
};

}  // namespace pstate::types::puppet

#endif  // PSTATE_TYPES_PUPPET_REGEX_H_
