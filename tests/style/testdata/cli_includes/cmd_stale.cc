// Self-test input of cli_includes_check.sh: listed, but no longer needs it.
#include <pstate/pstate.h>
