// Process exit codes: the contract CI scripts rely on; and the one way a
// command gives up.
#ifndef PSTATE_CLI_EXIT_CODE_H_
#define PSTATE_CLI_EXIT_CODE_H_

#include <string_view>

#include <pstate/pstate.h>

namespace pstate::cli {

enum ExitCode : int {
  kExitOk = 0,          ///< no error-severity finding
  kExitFindings = 1,    ///< at least one error-severity finding
  kExitUnreadable = 2,  ///< an input is not a readable state, or bad usage
};

/// A command that gives up: `message` on standard error in the one
/// fatal-failure format (report::PrintError), and `code` for main to return.
int Fail(std::string_view message, int code = kExitUnreadable);
/// The same with a failed status's message.
int Fail(const Status& status, int code = kExitUnreadable);

}  // namespace pstate::cli

#endif  // PSTATE_CLI_EXIT_CODE_H_
