// Self-test input of cli_includes_check.sh: only what the CLI may include.
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <string>

#include <pstate/pstate.h>

#include "base/result.h"
#include "cli/command.h"
#include "report/terminal.h"
