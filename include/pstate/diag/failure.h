// One format for a fatal problem, whichever command meets it.
//
// An unreadable input is one fatal finding in its Report (state::Read); a
// handler's own failure (a wrong passphrase) is a Status. Commands that do
// not print findings (redact, decrypt, encrypt, assets) turn either into a
// Status whose message is "FILE:LINE:COLUMN: reason" (or "FILE: reason"
// where there is no place), and the CLI prints it once as
// "pstate: error: <message>".
#ifndef PSTATE_DIAG_FAILURE_H_
#define PSTATE_DIAG_FAILURE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pstate/base/result.h"
#include "pstate/diag/codes.h"
#include "pstate/diag/report.h"

namespace pstate::diag {

/// A fatal problem with its place: what renderers need besides the text.
struct Failure {
  Code code = Code::kIoError;
  Errc errc = Errc::kIo;
  /// The input's name; empty when `reason` carries its own place.
  std::string file;
  std::uint64_t line = 0;  ///< 0 when there is no place
  std::uint64_t column = 0;
  std::string reason;  ///< without the file and place

  /// "FILE:LINE:COLUMN: reason", or "FILE: reason".
  std::string Located() const;
  Status ToStatus() const { return Status(errc, Located()); }
};

/// "FILE:LINE:COLUMN: reason" (LINE 0: "FILE: reason").
std::string Locate(std::string_view file, std::uint64_t line,
                   std::uint64_t column, std::string_view reason);

/// The failure behind a failed read: the report's fatal finding when it has
/// one (state::Read put the text there), else `status` itself, whose
/// message already names its file (a handler's own failure, an input that
/// could not be opened); `file` prefixes it only when it does not start
/// with it.
Failure FailureOf(const Report& report, const Status& status);

}  // namespace pstate::diag

#endif  // PSTATE_DIAG_FAILURE_H_
