// What an edit would change, for --dry-run: the input against the edited
// state, as `pstate diff` reports it (edit, and both files of edit move).
#ifndef PSTATE_EDIT_DRY_RUN_H_
#define PSTATE_EDIT_DRY_RUN_H_

#include <string>
#include <string_view>

#include "base/result.h"
#include "diff/differ.h"
#include "edit/splice.h"

namespace pstate::edit {

/// `input` (a path, or "-" when `bytes` came from standard input) against
/// `assembly` spliced from `bytes`, through diff's engine, which reads
/// files: the edited state goes to a temporary file, and so does the input
/// when it came from standard input.
Result<diff::DiffResult> DiffWithInput(const std::string& input,
                                       std::string_view bytes,
                                       const Assembly& assembly);

}  // namespace pstate::edit

#endif  // PSTATE_EDIT_DRY_RUN_H_
