// One format for a fatal problem, whichever command meets it.
//
// An unreadable input is one fatal finding in its Report (state::Read); a
// handler's own failure (a wrong passphrase) is a Status. Commands that do
// not print findings (redact, decrypt, encrypt, assets) turn either into a
// Status whose message is Located(): "FILE:LINE:COLUMN: reason (at
// POINTER)", without the place or the pointer where there is none. The CLI
// prints it once as "pstate: error: <message>" (report::PrintError).
#ifndef PSTATE_DIAG_FAILURE_H_
#define PSTATE_DIAG_FAILURE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "diag/codes.h"
#include "diag/report.h"

namespace pstate::diag {

/// A fatal problem with its place: what renderers need besides the text.
struct Failure {
  Code code = Code::kIoError;
  Errc errc = Errc::kIo;
  /// The input's name; empty when `reason` carries its own place.
  std::string file;
  std::uint64_t line = 0;  ///< 0 when there is no place
  std::uint64_t column = 0;
  /// The JSON pointer of the value at fault; empty when there is none (or
  /// it is the whole document).
  std::string pointer;
  std::string reason;  ///< without the file, place and pointer

  /// "FILE:LINE:COLUMN: reason (at POINTER)", without ":LINE:COLUMN" when
  /// there is no place and " (at POINTER)" when there is no pointer.
  std::string Located() const;
  Status ToStatus() const { return Status(errc, Located()); }
};

/// "FILE:LINE:COLUMN: reason" (LINE 0: "FILE: reason").
std::string Locate(std::string_view file, std::uint64_t line,
                   std::uint64_t column, std::string_view reason);

/// The failure behind a failed read: the report's fatal finding (with its
/// place and pointer) when it has one (state::Read put it there), else
/// `status` itself, whose
/// message already names its file (a handler's own failure, an input that
/// could not be opened); `file` prefixes it only when it does not start
/// with it.
Failure FailureOf(const Report& report, const Status& status);

}  // namespace pstate::diag

#endif  // PSTATE_DIAG_FAILURE_H_
