// Status and Result<T>: how failures travel between pstate modules.
//
// Findings about an input (a bad hash, a dangling parent) are data and go to a
// diag::Sink. A Status is for failures that stop an operation: an unreadable
// file, a corrupt archive, a wrong passphrase. No exception crosses a pstate
// API; the only catch is in the CLI's main.
//
// Errc, Status and Result are the library API's own (pstate/pstate.h): one
// definition, which the modules and the API's callers share.
#ifndef PSTATE_BASE_RESULT_H_
#define PSTATE_BASE_RESULT_H_

#include "pstate/pstate.h"

#endif  // PSTATE_BASE_RESULT_H_
