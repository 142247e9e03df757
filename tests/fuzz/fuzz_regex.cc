// Fuzz target: Puppet patterns (types::puppet::Regex, the Ruby-to-Oniguruma
// translation and Oniguruma itself). The input is a pattern and a subject
// separated by the first NUL byte; without one, the input is both.
//
// Invariants beyond "no crash, no sanitizer report":
//  - compiling the same pattern twice gives the same verdict (the same
//    error message and offset, or two regexes that answer alike);
//  - an error offset lies inside the pattern;
//  - a subject that is not UTF-8 is kInvalidSubject, whatever the pattern,
//    and a UTF-8 one never is;
//  - the work is bounded by the limits, not by time: the same search gives
//    the same answer every time, and a definite answer (match or not)
//    found under a small retry and stack budget is the answer under the
//    default budget, while a search that exhausts the default budget also
//    exhausts the small one;
//  - the engine reports its work: a search drawing on a check's budget
//    spends no more than the budget granted (a retry of a pattern with
//    backreferences counted as the subject's length), a spent budget
//    answers at once without spending more, and a definite answer under
//    a budget agrees with the one under the fixed limits.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/utf8.h"
#include "fuzz/fuzz_check.h"
#include "types/puppet_regex.h"

namespace {

using pstate::types::puppet::Regex;

// Keeps each input fast: Oniguruma compiles in linear time in practice,
// and a search costs at most the retry budget per subject.
constexpr std::size_t kMaxPattern = 4096;
constexpr std::size_t kMaxSubject = 16384;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string_view pattern = input;
  std::string_view subject = input;
  std::size_t nul = input.find('\0');
  if (nul != std::string_view::npos) {
    pattern = input.substr(0, nul);
    subject = input.substr(nul + 1);
  }
  if (pattern.size() > kMaxPattern || subject.size() > kMaxSubject) return 0;

  std::string error1;
  std::string error2;
  std::size_t at1 = 0;
  std::size_t at2 = 0;
  std::shared_ptr<const Regex> re1 = Regex::Compile(pattern, &error1, &at1);
  std::shared_ptr<const Regex> re2 = Regex::Compile(pattern, &error2, &at2);
  PSTATE_FUZZ_CHECK((re1 == nullptr) == (re2 == nullptr));
  if (!re1) {
    PSTATE_FUZZ_CHECK(error1 == error2 && at1 == at2);
    PSTATE_FUZZ_CHECK(!error1.empty());
    PSTATE_FUZZ_CHECK(at1 <= pattern.size());
    return 0;
  }

  const Regex::Limits full;
  Regex::Limits small;
  small.retries = 2000;
  small.stack = 2000;
  Regex::Match answer = re1->Search(subject, full);
  PSTATE_FUZZ_CHECK(re1->Search(subject, full) == answer);
  PSTATE_FUZZ_CHECK(re2->Search(subject, full) == answer);
  bool utf8 = pstate::utf8::IsValid(subject);
  PSTATE_FUZZ_CHECK((answer == Regex::Match::kInvalidSubject) == !utf8);

  Regex::Match bounded = re1->Search(subject, small);
  if (bounded == Regex::Match::kYes || bounded == Regex::Match::kNo) {
    PSTATE_FUZZ_CHECK(answer == bounded);
  }
  if (answer == Regex::Match::kTooComplex) {
    PSTATE_FUZZ_CHECK(bounded == Regex::Match::kTooComplex);
  }

  pstate::types::puppet::RegexBudget budget;
  budget.Credit(&subject, subject.size());
  const std::uint64_t granted = budget.granted();
  Regex::Match budgeted = re1->Search(subject, budget);
  PSTATE_FUZZ_CHECK(budget.spent() <= granted);
  PSTATE_FUZZ_CHECK(budget.granted() == granted);
  PSTATE_FUZZ_CHECK((budgeted == Regex::Match::kInvalidSubject) == !utf8);
  if (utf8) PSTATE_FUZZ_CHECK(budget.spent() >= 1);
  if ((budgeted == Regex::Match::kYes || budgeted == Regex::Match::kNo) &&
      (answer == Regex::Match::kYes || answer == Regex::Match::kNo)) {
    PSTATE_FUZZ_CHECK(budgeted == answer);
  }
  pstate::types::puppet::RegexBudget spent(1);
  if (utf8) {
    (void)re1->Search(subject, spent);
    const std::uint64_t after = spent.spent();
    PSTATE_FUZZ_CHECK(after <= 1);
    Regex::Match again = re1->Search(subject, spent);
    PSTATE_FUZZ_CHECK(spent.left() > 0 || again == Regex::Match::kTooComplex);
    PSTATE_FUZZ_CHECK(spent.spent() <= 1);
  }
  return 0;
}
