// Findings: what pstate reports about an input. They are data; rendering
// (text, JSON, SARIF) and exit codes are decided elsewhere.
#ifndef PSTATE_DIAG_FINDING_H_
#define PSTATE_DIAG_FINDING_H_

#include <string>

#include "diag/codes.h"

namespace pstate::diag {

/// The API's (pstate/pstate.h), one definition: the core's findings are
/// the API's results. Its message never contains a secret's plaintext or
/// ciphertext, a passphrase or key material.
using Finding = ::pstate::Finding;

/// A finding with the severity the code table gives.
Finding MakeFinding(Code code, std::string message, std::string pointer = {},
                    std::string urn = {});

}  // namespace pstate::diag

#endif  // PSTATE_DIAG_FINDING_H_
