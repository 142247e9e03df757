// Every finding code pstate can report (the enum is the API's
// FindingCode), with its name, default severity and summary.
//
// Codes are stable: tools match on the names, and docs/diagnostics.md
// explains each one. Add new codes at the end of their group; never rename.
#ifndef PSTATE_DIAG_CODES_H_
#define PSTATE_DIAG_CODES_H_

#include <optional>
#include <span>
#include <string_view>

#include "pstate/pstate.h"

namespace pstate::diag {

/// The API's (pstate/pstate.h).
using Severity = ::pstate::Severity;

/// The API's: "error", "warning" or "note".
using ::pstate::SeverityName;

/// The API's (pstate/pstate.h): the codes are listed there.
using Code = ::pstate::FindingCode;

struct CodeInfo {
  Code code;
  std::string_view name;     ///< stable kebab-case name
  Severity severity;         ///< default severity
  std::string_view summary;  ///< one line, used for SARIF rule descriptions
};

const CodeInfo& Info(Code code);
std::span<const CodeInfo> AllCodes();
std::optional<Code> FindCode(std::string_view name);

/// True for codes that mean the input could not be read as a state.
bool IsFatal(Code code);

}  // namespace pstate::diag

#endif  // PSTATE_DIAG_CODES_H_
