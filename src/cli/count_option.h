// The one validator of count options (--max-findings, --limit): a count is
// 0 or more, and a negative one is refused with the same words everywhere.
#ifndef PSTATE_CLI_COUNT_OPTION_H_
#define PSTATE_CLI_COUNT_OPTION_H_

#include <CLI/CLI.hpp>

namespace pstate::cli {

/// "must be 0 or more, not -1" for a negative value; CLI11 checks the rest
/// (that it is a number) when it converts.
CLI::Validator NonNegativeCount();

}  // namespace pstate::cli

#endif  // PSTATE_CLI_COUNT_OPTION_H_
