// Self-test input of cli_includes_check.sh: a module's header.
#include <pstate/pstate.h>

#include "cli/command.h"
#include "edit/edit.h"
