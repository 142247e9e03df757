// Self-test input of cli_includes_check.sh: listed, and needs it.
#include "history/history.h"
