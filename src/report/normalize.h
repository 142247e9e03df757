// What `normalize` and `convert` print besides the state: the notes on
// what normalizing changed, and `normalize --check`'s verdict.
#ifndef PSTATE_REPORT_NORMALIZE_H_
#define PSTATE_REPORT_NORMALIZE_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "normalize/normalize.h"
#include "normalize/normalizer.h"

namespace pstate::report {

/// Duplicates and dropped data as warnings, the rest as notes (not with
/// `quiet`): "pstate: note: FILE:LINE:COL: POINTER: message", then how
/// many more of each kind there were.
void RenderNormalizeNotes(const std::string& file,
                          const std::vector<normalize::Note>& notes,
                          const std::uint64_t counts[kNoteKinds], bool quiet,
                          std::ostream& out);

/// `normalize --check`'s verdict on an input that is not in normalized
/// The one line a rewriting command without per-string notes (redact,
/// decrypt, encrypt) prints when it wrote `count` > 0 strings as U+FFFD
/// because they held a lone UTF-16 surrogate escape; nothing for 0.
void RenderInexactStrings(std::uint64_t count, std::ostream& out);

/// form: "pstate: FILE:LINE:COL: POINTER: not in normalized form (layout
/// L); this is the first place that differs".
void RenderNormalizeCheck(const std::string& file,
                          const normalize::Outcome& outcome, std::ostream& out);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_NORMALIZE_H_
