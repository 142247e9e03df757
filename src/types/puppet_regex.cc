// Puppet patterns through Oniguruma (see puppet_regex.h). Onigmo's rules
// cited below are from its regparse.c (OnigSyntaxRuby, fetch_token,
// parse_enclose), Oniguruma's from its 6.9 regparse.c.
#include "types/puppet_regex.h"

#include <oniguruma.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "base/utf8.h"

namespace pstate::types::puppet {
namespace {

// Nesting limits of the parser (Oniguruma's default is 4096): bounded so a
// deeply nested pattern cannot exhaust a thread's stack in the recursive
// compiler.
constexpr unsigned int kParseDepthLimit = 1000;
constexpr unsigned long kSubexpCallLimit = 100000;

void InitializeOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    OnigEncoding encodings[] = {ONIG_ENCODING_UTF8};
    onig_initialize(encodings, 1);
    onig_set_parse_depth_limit(kParseDepthLimit);
    onig_set_subexp_call_limit_in_search(kSubexpCallLimit);
  });
}

std::string OnigMessage(int code, OnigErrorInfo* info) {
  OnigUChar text[ONIG_MAX_ERROR_MESSAGE_LEN] = {};
  int n = info != nullptr ? onig_error_code_to_str(text, code, info)
                          : onig_error_code_to_str(text, code);
  if (n < 0) n = 0;
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<std::size_t>(n));
}

class Translator {
 public:
  explicit Translator(std::string_view in) : in_(in) {}

  /// The pattern has a backreference (known after Run).
  bool backreferences() const { return backreferences_; }

  bool Run(std::string* out, std::string* error, std::size_t* at) {
    frames_.push_back({});
    while (ok_ && i_ < in_.size()) {
      if (depth_ > 0) {
        InClass();
      } else {
        Outside();
      }
    }
    if (!ok_) {
      *error = error_;
      *at = error_at_;
      return false;
    }
    *out = std::move(out_);
    return true;
  }

 private:
  // The options that change the translation, scoped like Onigmo's: a
  // group's options end at its ')'; an isolated (?x) lasts to the end of
  // the enclosing group (alternatives included).
  struct Frame {
    bool extended = false;  // (?x): '#' starts a comment
    bool unicode = false;   // (?u): \d \w \s are Unicode, as Oniguruma's
  };

  bool Fail(std::size_t at, std::string message) {
    if (ok_) {
      ok_ = false;
      error_ = std::move(message);
      error_at_ = at;
    }
    return false;
  }
  bool At(std::size_t k, std::string_view s) const {
    return in_.substr(k, s.size()) == s;
  }
  void Copy(std::size_t n) {
    out_.append(in_.substr(i_, n));
    i_ += n;
  }

  void Outside() {
    char c = in_[i_];
    if (c == '\\') {
      Escape(false);
    } else if (c == '[') {
      Copy(1);
      OpenClass();
    } else if (c == '(') {
      Group();
    } else if (c == ')') {
      if (frames_.size() > 1) frames_.pop_back();
      Copy(1);
    } else if (c == '#' && frames_.back().extended) {
      // (?x) comment: to the end of the line, escapes included (Onigmo).
      std::size_t nl = in_.find('\n', i_);
      Copy(nl == std::string_view::npos ? in_.size() - i_ : nl + 1 - i_);
    } else {
      Copy(1);
    }
  }

  void Group() {
    std::size_t start = i_;
    if (At(i_, "(?#")) {
      // A comment: to the first unescaped ')' (Onigmo fetch_token).
      std::size_t k = i_ + 3;
      while (k < in_.size() && in_[k] != ')') {
        k += in_[k] == '\\' ? std::size_t{2} : std::size_t{1};
      }
      Copy(std::min(k + 1, in_.size()) - i_);
      return;
    }
    if (At(i_, "(?~|")) {
      Fail(start, "the absent forms (?~|...) are not Ruby's");
      return;
    }
    Frame frame = frames_.back();
    if (At(i_, "(?(")) {
      // A conditional: the condition (a group number or name) is copied.
      std::size_t close = in_.find(')', i_ + 3);
      frames_.push_back(frame);
      Copy(close == std::string_view::npos ? in_.size() - i_ : close + 1 - i_);
      return;
    }
    if (!At(i_, "(?")) {
      frames_.push_back(frame);
      Copy(1);
      return;
    }
    // Options, (?imxdau-imx) or (?imxdau-imx:...). Oniguruma's Ruby syntax
    // knows i, m and x: Ruby's character-set options are translated here.
    std::size_t k = i_ + 2;
    std::string kept;
    bool neg = false;
    while (k < in_.size() &&
           std::string_view("imxdau-").find(in_[k]) != std::string_view::npos) {
      char f = in_[k];
      if (f == '-') {
        neg = true;
        kept.push_back(f);
      } else if (f == 'i' || f == 'm' || f == 'x') {
        if (f == 'x') frame.extended = !neg;
        kept.push_back(f);
      } else if (neg) {
        // Onigmo: the character-set options cannot be turned off.
        Fail(k, "undefined group option");
        return;
      } else if (f == 'a') {
        Fail(k,
             "the (?a) option (ASCII \\b and POSIX brackets) is not "
             "supported");
        return;
      } else {
        frame.unicode = f == 'u';
      }
      ++k;
    }
    if (k == i_ + 2 || k >= in_.size() || (in_[k] != ')' && in_[k] != ':')) {
      // Not an option group: (?:, (?=, (?<name>, (?>, ...
      frames_.push_back(frames_.back());
      Copy(2);
      return;
    }
    bool isolated = in_[k] == ')';
    if (kept.empty()) {
      out_ += isolated ? "(?:)" : "(?:";
    } else {
      out_ += "(?" + kept + in_[k];
    }
    i_ = k + 1;
    if (isolated) {
      frames_.back() = frame;
    } else {
      frames_.push_back(frame);
    }
  }

  // After a '[' (at any depth): a leading '^', then a leading ']' that is a
  // literal (Onigmo: "allow []...]").
  void OpenClass() {
    ++depth_;
    if (i_ < in_.size() && in_[i_] == '^') Copy(1);
    if (i_ < in_.size() && in_[i_] == ']') Copy(1);
  }

  void InClass() {
    char c = in_[i_];
    if (c == '\\') {
      Escape(true);
    } else if (c == '[') {
      // A POSIX bracket [:name:] when ":]" closes it before any ']'
      // (Onigmo fetch_token_in_cc), else a nested class.
      std::size_t close = in_.find(']', i_ + 1);
      if (At(i_, "[:") && close != std::string_view::npos && close > i_ + 2 &&
          in_[close - 1] == ':') {
        Copy(close + 1 - i_);
      } else {
        Copy(1);
        OpenClass();
      }
    } else if (c == ']') {
      --depth_;
      Copy(1);
    } else {
      Copy(1);
    }
  }

  void Escape(bool in_class) {
    std::size_t start = i_;
    if (i_ + 1 >= in_.size()) {
      Copy(1);  // Oniguruma reports the trailing backslash
      return;
    }
    char e = in_[i_ + 1];
    std::string_view ascii;
    switch (e) {
      case 'd': ascii = "[0-9]"; break;
      case 'D': ascii = "[^0-9]"; break;
      case 'w': ascii = in_class ? "[a-zA-Z0-9_]" : "(?-i:[a-zA-Z0-9_])"; break;
      case 'W':
        ascii = in_class ? "[^a-zA-Z0-9_]" : "(?-i:[^a-zA-Z0-9_])";
        break;
      case 's': ascii = "[\\t\\n\\v\\f\\r\\x20]"; break;
      case 'S': ascii = "[^\\t\\n\\v\\f\\r\\x20]"; break;
      case 'y':
      case 'Y':
      case 'o':
        // Unknown escapes in Ruby: the letter itself.
        out_.push_back(e);
        i_ += 2;
        return;
      case 'u':
        if (At(i_ + 2, "{")) {
          UnicodeBraces();
          return;
        }
        Copy(2);
        return;
      case 'c':
      case 'C':
      case 'M':
        // \cX, \C-X, \M-X: an escaped X is part of the same character.
        Copy(e == 'c' ? 2 : std::min<std::size_t>(3, in_.size() - i_));
        if (i_ + 1 < in_.size() && in_[i_] == '\\' && in_[i_ + 1] != 'C' &&
            in_[i_ + 1] != 'M' && in_[i_ + 1] != 'c') {
          Copy(2);
        }
        return;
      default:
        if (!in_class && ((e >= '1' && e <= '9') || e == 'k')) {
          backreferences_ = true;
        }
        Copy(2);
        return;
    }
    if (frames_.back().unicode) {
      Copy(2);
      return;
    }
    if (in_class) {
      // Onigmo refuses a class escape as a range end or start. A '-' is a
      // range operator unless it opens the class, is escaped, or follows a
      // complete range ([a-z-\d] is allowed).
      if (RangeDashBefore()) {
        Fail(start, "char-class value at end of range");
        return;
      }
      if (At(i_ + 2, "-") && !At(i_ + 3, "]")) {
        Fail(start + 2, "unmatched range specifier in char-class");
        return;
      }
    }
    out_ += ascii;
    i_ += 2;
  }

  bool RangeDashBefore() const {
    std::size_t n = out_.size();
    auto is = [&](std::size_t back, char c) {
      return n >= back && out_[n - back] == c;
    };
    if (!is(1, '-') || n < 2 || is(2, '[') || is(2, '\\')) return false;
    if (is(2, '^') && is(3, '[')) return false;
    // "x-y-": the dash after a complete range is a literal.
    return !(is(3, '-') && n >= 4 && !is(4, '[') && !is(4, '\\'));
  }

  // Ruby's \u{H H ...}: one code point per hex group.
  void UnicodeBraces() {
    std::size_t start = i_;
    std::size_t close = in_.find('}', i_ + 3);
    if (close == std::string_view::npos) {
      Fail(start, "invalid Unicode escape");
      return;
    }
    std::string_view body = in_.substr(i_ + 3, close - (i_ + 3));
    std::size_t k = 0;
    bool any = false;
    while (k < body.size()) {
      if (body[k] == ' ') {
        ++k;
        continue;
      }
      std::size_t end = k;
      while (end < body.size() && body[end] != ' ') {
        char h = body[end];
        bool hex = (h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') ||
                   (h >= 'A' && h <= 'F');
        if (!hex || end - k >= 6) {
          Fail(start, "invalid Unicode escape");
          return;
        }
        ++end;
      }
      out_ += "\\x{";
      out_.append(body.substr(k, end - k));
      out_ += "}";
      any = true;
      k = end;
    }
    if (!any) {
      Fail(start, "invalid Unicode escape");
      return;
    }
    i_ = close + 1;
  }

  std::string_view in_;
  std::size_t i_ = 0;
  std::string out_;
  std::vector<Frame> frames_;
  int depth_ = 0;  // character-class nesting
  bool backreferences_ = false;
  bool ok_ = true;
  std::string error_;
  std::size_t error_at_ = 0;
};

struct MatchParamFree {
  void operator()(OnigMatchParam* p) const { onig_free_match_param(p); }
};

}  // namespace

bool TranslateRubyPattern(std::string_view pattern, std::string* out,
                          std::string* error, std::size_t* error_offset) {
  return Translator(pattern).Run(out, error, error_offset);
}

void Regex::Free::operator()(re_pattern_buffer* re) const { onig_free(re); }

std::shared_ptr<const Regex> Regex::Compile(std::string_view pattern,
                                            std::string* error,
                                            std::size_t* error_offset) {
  InitializeOnce();
  // Oniguruma reads bytes it does not expect as single characters; Ruby
  // refuses a pattern or a subject that is not UTF-8.
  if (!utf8::IsValid(pattern)) {
    *error = "invalid multibyte character";  // Ruby's message
    *error_offset = 0;
    return nullptr;
  }
  std::string translated;
  Translator translator(pattern);
  if (!translator.Run(&translated, error, error_offset)) return nullptr;
  const auto* p = reinterpret_cast<const OnigUChar*>(translated.data());
  OnigRegex re = nullptr;
  OnigErrorInfo info{};
  int r = onig_new(&re, p, p + translated.size(), ONIG_OPTION_NONE,
                   ONIG_ENCODING_UTF8, ONIG_SYNTAX_RUBY, &info);
  if (r != ONIG_NORMAL) {
    *error = OnigMessage(r, &info);
    *error_offset = 0;
    return nullptr;
  }
  auto regex = std::make_shared<Regex>();
  regex->re_.reset(re);
  regex->backreferences_ = translator.backreferences();
  return regex;
}

Regex::Run Regex::RunSearch(std::string_view subject, unsigned long retries,
                            unsigned int stack) const {
  // One match parameter block per thread: Search is const and shared.
  thread_local std::unique_ptr<OnigMatchParam, MatchParamFree> param(
      onig_new_match_param());
  OnigMatchParam* mp = param.get();
  onig_initialize_match_param(mp);
  onig_set_retry_limit_in_match_of_match_param(mp, retries);
  onig_set_retry_limit_in_search_of_match_param(mp, retries);
  onig_set_match_stack_limit_size_of_match_param(mp, stack);
  const auto* s = reinterpret_cast<const OnigUChar*>(subject.data());
  const OnigUChar* end = s + subject.size();
  int r = onig_search_with_param(re_.get(), s, end, s, end, nullptr,
                                 ONIG_OPTION_NONE, mp);
  if (r >= 0) return Run::kYes;
  if (r == ONIG_MISMATCH) return Run::kNo;
  if (r == ONIGERR_RETRY_LIMIT_IN_MATCH_OVER ||
      r == ONIGERR_RETRY_LIMIT_IN_SEARCH_OVER) {
    return Run::kRetryLimit;
  }
  // The stack and subexpression-call limits (and running out of memory
  // for the stack): no verdict.
  return Run::kTooComplex;
}

Regex::Match Regex::Search(std::string_view subject,
                           const Limits& limits) const {
  if (!utf8::IsValid(subject)) return Match::kInvalidSubject;
  switch (RunSearch(subject, limits.retries, limits.stack)) {
    case Run::kYes: return Match::kYes;
    case Run::kNo: return Match::kNo;
    case Run::kRetryLimit:
    case Run::kTooComplex: break;
  }
  return Match::kTooComplex;
}

void RegexBudget::Credit(const void* id, std::size_t bytes) {
  if (credited_.insert(id).second) left_ += kPerByte * (bytes + 1);
}

Regex::Match Regex::Search(std::string_view subject,
                           RegexBudget& budget) const {
  if (!utf8::IsValid(subject)) return Match::kInvalidSubject;
  const Limits fixed;
  // Oniguruma says whether a limit was reached, not how much was used: the
  // limit doubles from 1, each attempt charged in full.
  const std::uint64_t cost =
      backreferences_ ? std::max<std::uint64_t>(1, subject.size()) : 1;
  std::uint64_t limit = 1;
  for (;;) {
    const std::uint64_t allowed = budget.left_ / cost;
    if (allowed == 0) {
      budget.Charge(budget.left_);
      return Match::kTooComplex;
    }
    const std::uint64_t retries = std::min(limit, allowed);
    Run run =
        RunSearch(subject, static_cast<unsigned long>(retries), fixed.stack);
    budget.Charge(retries * cost);
    switch (run) {
      case Run::kYes: return Match::kYes;
      case Run::kNo: return Match::kNo;
      case Run::kTooComplex: return Match::kTooComplex;
      case Run::kRetryLimit: break;
    }
    if (retries == allowed) {
      budget.Charge(budget.left_);
      return Match::kTooComplex;
    }
    limit = retries * 2;
  }
}

}  // namespace pstate::types::puppet
