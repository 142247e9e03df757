// What `normalize` and `convert` print on stderr besides errors.
#ifndef PSTATE_CLI_NORMALIZE_OUTPUT_H_
#define PSTATE_CLI_NORMALIZE_OUTPUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "pstate/normalize/normalizer.h"

namespace pstate::cli {

/// Duplicates and dropped data as warnings, the rest as notes (not with
/// `quiet`): "pstate: note: FILE:LINE:COL: POINTER: message", then how
/// many more of each kind there were.
void PrintNormalizeNotes(const std::string& file,
                         const std::vector<normalize::Note>& notes,
                         const std::uint64_t counts[4], bool quiet);

}  // namespace pstate::cli

#endif  // PSTATE_CLI_NORMALIZE_OUTPUT_H_
