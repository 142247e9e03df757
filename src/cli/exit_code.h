// Process exit codes: the contract CI scripts rely on.
#ifndef PSTATE_CLI_EXIT_CODE_H_
#define PSTATE_CLI_EXIT_CODE_H_

namespace pstate::cli {

enum ExitCode : int {
  kExitOk = 0,          ///< no error-severity finding
  kExitFindings = 1,    ///< at least one error-severity finding
  kExitUnreadable = 2,  ///< an input is not a readable state, or bad usage
};

}  // namespace pstate::cli

#endif  // PSTATE_CLI_EXIT_CODE_H_
