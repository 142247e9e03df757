// The renderers of `pstate typecheck`, from the API's typed verdicts
// (pstate/pstate.h): the single form's line (text or one JSON object) and
// one JSON Lines object per case of a cases file. A verdict's converted
// value is already masked (no secret's plaintext), so it is written as it
// is.
#ifndef PSTATE_REPORT_TYPECHECK_H_
#define PSTATE_REPORT_TYPECHECK_H_

#include <ostream>

#include "pstate/pstate.h"

namespace pstate::report {

enum class TypecheckFormat { kText, kJson };

/// The single form's line: "ok", "convert VALUE", "error: REASON" or "error
/// at POINTER: REASON"; in JSON {"result", "converted", "message",
/// "pointer"} (null where the outcome has none).
void WriteTypeVerdict(const TypeVerdict& verdict, TypecheckFormat format,
                      std::ostream& out);

/// A case's line: {"line", "result" ("invalid" and "message" for a line
/// that is no case), "converted" (kConvert), "message" and "pointer"
/// (kError), "pass" (when the case had an expectation)}.
void WriteTypecheckCase(const TypecheckCase& one, std::ostream& out);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_TYPECHECK_H_
