// Puppet's Pattern and Regexp types match with Ruby's Regexp (Onigmo),
// unanchored (`Regexp#match`, lib/puppet/pops/types/types.rb
// PPatternType#instance?). pstate matches with Oniguruma, Onigmo's parent,
// in its Ruby syntax (ONIG_SYNTAX_RUBY, UTF-8), after a small translation of
// the few places where the two differ (TranslateRubyPattern). Private to
// src/types/puppet*.cc and the regex fuzz target.
#ifndef PSTATE_TYPES_PUPPET_REGEX_H_
#define PSTATE_TYPES_PUPPET_REGEX_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>

struct re_pattern_buffer;  // Oniguruma's regex_t

namespace pstate::types::puppet {

/// Rewrites a Ruby (Onigmo, Ruby's default options) pattern into one that
/// Oniguruma's Ruby syntax reads with the same meaning:
///   * `\d \D \w \W \s \S` become explicit ASCII classes: in Ruby they are
///     ASCII for UTF-8 strings, in Oniguruma Unicode. `\b`, POSIX brackets
///     and `\p{...}` stay Unicode, as in Ruby. `(?u)` (Unicode classes) and
///     `(?d)` (Ruby's default) are honoured; `(?a)` is refused;
///   * `\y`, `\Y` and `\o` are plain letters in Ruby (unknown escapes), not
///     Oniguruma's text-segment boundaries and octal escape;
///   * `\u{H H}` (Ruby's literal escape) becomes `\x{H}\x{H}`;
///   * the absent-repeater forms `(?~|...)` exist only in Oniguruma: refused.
/// Returns false with `*error` and `*error_offset` (into `pattern`) when the
/// pattern uses what Ruby does not accept or pstate cannot express.
bool TranslateRubyPattern(std::string_view pattern, std::string* out,
                          std::string* error, std::size_t* error_offset);

/// The matching work of one type check, shared by every Search the check
/// makes: a Variant of many Patterns over an array of many strings draws on
/// one budget, so the work of a check is bounded by the size of its value,
/// not by values × patterns. The unit is one Oniguruma retry (a backtrack),
/// and a retry of a pattern with backreferences costs the subject's length
/// in bytes (comparing a capture is linear in it). `spent()` is the work
/// done (an upper bound of it): what tests bound instead of timing.
class RegexBudget {
 public:
  /// What any check may spend, however small its value.
  static constexpr std::uint64_t kBase = 1000000;
  /// What each string a check searches adds to it, per byte (once per
  /// string, whichever patterns search it).
  static constexpr std::uint64_t kPerByte = 64;

  RegexBudget() = default;
  explicit RegexBudget(std::uint64_t total) : left_(total) {}

  /// Adds the allowance of the subject `id` (the string value searched),
  /// `bytes` long, unless it was credited already.
  void Credit(const void* id, std::size_t bytes);
  std::uint64_t spent() const { return spent_; }
  std::uint64_t left() const { return left_; }
  /// What the budget granted in all (its start plus every credit).
  std::uint64_t granted() const { return spent_ + left_; }

 private:
  friend class Regex;
  void Charge(std::uint64_t work) {
    spent_ += work;
    left_ -= work;
  }
  std::uint64_t left_ = kBase;
  std::uint64_t spent_ = 0;
  std::unordered_set<const void*> credited_;
};

/// A compiled pattern. Immutable after Compile: Search may run on many
/// threads at once.
class Regex {
 public:
  enum class Match {
    kNo,
    kYes,
    kTooComplex,     ///< the work limit was reached: no verdict
    kInvalidSubject  ///< the subject is not UTF-8 (Ruby raises ArgumentError)
  };
  /// The work one Search may do. `retries` bounds the backtracks over all
  /// start positions (Oniguruma's retry limits in match and in search), and
  /// `stack` the backtrack stack (entries): together they bound time and
  /// memory, whatever the pattern and the subject.
  struct Limits {
    unsigned long retries = 1000000;
    unsigned int stack = 500000;
  };

  /// Compiles `pattern` (the text between the slashes, or a string's
  /// content; options are written inline, as in /(?i)abc/ or /(?mx)a . c/).
  /// On failure returns null and sets `*error` and `*error_offset` (an
  /// offset into `pattern`; 0 when Oniguruma gives no position).
  static std::shared_ptr<const Regex> Compile(std::string_view pattern,
                                              std::string* error,
                                              std::size_t* error_offset);

  /// Does the pattern match somewhere in `subject`? kTooComplex when the
  /// limits are reached: the same pattern, subject and limits always give
  /// the same answer.
  Match Search(std::string_view subject, const Limits& limits) const;
  Match Search(std::string_view subject) const { return Search(subject, {}); }
  /// The same, drawing on a check's budget: kTooComplex when the search
  /// would need more than is left (then the whole of it is spent, and
  /// every later search of the check is kTooComplex at once). The retry
  /// limit starts at 1 and doubles while it is reached, so what is charged
  /// is at most about twice the work done, plus one per search.
  Match Search(std::string_view subject, RegexBudget& budget) const;

  /// Has backreferences (\1 ... \9, \k<name>): each retry compares a
  /// capture, linear in the subject.
  bool backreferences() const { return backreferences_; }

 private:
  struct Free {
    void operator()(re_pattern_buffer* re) const;
  };
  enum class Run { kYes, kNo, kRetryLimit, kTooComplex };
  Run RunSearch(std::string_view subject, unsigned long retries,
                unsigned int stack) const;

  std::unique_ptr<re_pattern_buffer, Free> re_;
  bool backreferences_ = false;
};

}  // namespace pstate::types::puppet

#endif  // PSTATE_TYPES_PUPPET_REGEX_H_
