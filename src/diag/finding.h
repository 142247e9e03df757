// Findings: what pstate reports about an input. They are data; rendering
// (text, JSON, SARIF) and exit codes are decided elsewhere.
#ifndef PSTATE_DIAG_FINDING_H_
#define PSTATE_DIAG_FINDING_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "diag/codes.h"

namespace pstate::diag {

/// One problem found in one input.
///
/// IMPORTANT: a message never contains a secret's plaintext or ciphertext, a
/// passphrase or key material. Checks describe such values by their kind,
/// length or a keyed fingerprint.
struct Finding {
  Code code = Code::kJsonSyntax;
  Severity severity = Severity::kError;
  std::string message;
  std::string pointer;       ///< RFC 6901 JSON pointer; "" is the document
  std::uint64_t line = 0;    ///< 1-based; 0 when unknown
  std::uint64_t column = 0;  ///< 1-based byte column; 0 when unknown
  /// 1-based column in Unicode code points (SARIF's columnKind); 0 when
  /// only the byte column is known.
  std::uint64_t char_column = 0;
  std::string urn;  ///< the resource concerned, when there is one
  /// Arrival order in its Report (set by Report::Add): findings at the same
  /// place keep the order the checks made them in.
  std::uint64_t sequence = 0;
  /// Stable identity (diag/fingerprint.h), set by Report::Add.
  std::string fingerprint;

  /// The code's stable name, e.g. "urn-malformed".
  std::string_view code_name() const { return Info(code).name; }
};

/// A finding with the severity the code table gives.
Finding MakeFinding(Code code, std::string message, std::string pointer = {},
                    std::string urn = {});

}  // namespace pstate::diag

#endif  // PSTATE_DIAG_FINDING_H_
