#include "diag/failure.h"

namespace pstate::diag {

std::string Locate(std::string_view file, std::uint64_t line,
                   std::uint64_t column, std::string_view reason) {
  std::string out(file);
  if (line > 0) {
    out += ":" + std::to_string(line) + ":" + std::to_string(column);
  }
  out += ": ";
  out += reason;
  return out;
}

std::string Failure::Located() const {
  std::string out = file.empty() ? reason : Locate(file, line, column, reason);
  if (!pointer.empty()) out += " (at " + pointer + ")";
  return out;
}

Failure FailureOf(const Report& report, const Status& status) {
  Failure f;
  f.file = report.file();
  f.errc = status.ok() ? Errc::kIo : status.code();
  for (const Finding& finding : report.findings()) {
    if (!IsFatal(finding.code)) continue;
    f.code = finding.code;
    f.line = finding.line;
    f.column = finding.column;
    f.pointer = finding.pointer;
    f.reason = finding.message;
    return f;
  }
  // No finding: the status speaks. Messages from io and from passes name
  // their file already ("FILE: reason", "FILE:LINE:COLUMN: reason"); the
  // place stays in the text then.
  const std::string& m = status.message();
  std::string prefix = f.file + ": ";
  if (m.rfind(prefix, 0) == 0) {
    f.reason = m.substr(prefix.size());
    return f;
  }
  if (m.rfind(f.file + ":", 0) == 0) {
    f.file.clear();  // the message carries its own place
  }
  f.reason = m;
  return f;
}

}  // namespace pstate::diag
