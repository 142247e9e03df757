#include <string>

#include "report/findings.h"

namespace pstate::report {
namespace {

std::string_view GithubCommand(diag::Severity s) {
  switch (s) {
    case diag::Severity::kError: return "error";
    case diag::Severity::kWarning: return "warning";
    case diag::Severity::kNote: return "notice";
  }
  return "error";
}

/// The runner's escaping of workflow command data and properties
/// (actions/toolkit, packages/core/src/command.ts escapeData and
/// escapeProperty).
std::string GithubEscape(std::string_view s, bool property) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += property ? "%3A" : ":"; break;
      case ',': out += property ? "%2C" : ","; break;
      default: out.push_back(c);
    }
  }
  return out;
}

}  // namespace

void RenderGithub(const Findings& report, std::ostream& out) {
  for (const Finding& f : report.findings) {
    out << "::" << GithubCommand(f.severity)
        << " file=" << GithubEscape(report.file, true);
    if (f.line > 0) {
      out << ",line=" << f.line
          << ",col=" << (f.char_column > 0 ? f.char_column : f.column);
    }
    std::string message = f.message;
    if (!f.pointer.empty()) message += " (at " + f.pointer + ")";
    out << ",title=" << GithubEscape(f.code_name(), true)
        << "::" << GithubEscape(message, false) << '\n';
  }
  RenderTextSummary(report, out);
}

}  // namespace pstate::report
