#include <map>
#include <string>

#include "diag/codes.h"
#include "io/input.h"
#include "json/writer.h"
#include "report/findings.h"

namespace pstate::report {
namespace {

/// GitLab's severities (info, minor, major, critical, blocker): an input
/// that could not be read blocks; a secret in the clear is critical.
std::string_view GitlabSeverity(const Finding& f) {
  if (diag::IsFatal(f.code)) return "blocker";
  switch (f.severity) {
    case diag::Severity::kError:
      return SecuritySeverity(f.code).empty() ? "major" : "critical";
    case diag::Severity::kWarning: return "minor";
    case diag::Severity::kNote: return "info";
  }
  return "major";
}

}  // namespace

void RenderGitlab(std::span<const Findings* const> reports, std::ostream& out) {
  json::StringSink sink(&out);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginArray();
  // GitLab shows only the first issue of a fingerprint. pstate's are equal
  // for one rule at one place of one logical file (two messages there, or
  // the same stack in two directories): the first keeps it, as baselines
  // and ignore files name it; the next get "-2", "-3"... in output order.
  std::map<std::string, int> seen;
  for (const Findings* report : reports) {
    const std::string_view path = report->file == io::kStdinName
                                      ? std::string_view("stdin")
                                      : RepositoryPath(report->file);
    for (const Finding& f : report->findings) {
      w.BeginObject();
      w.Name("type");
      w.String("issue");
      w.Name("check_name");
      w.String(f.code_name());
      w.Name("description");
      w.String(f.pointer.empty() ? f.message
                                 : f.message + " (at " + f.pointer + ")");
      w.Name("categories");
      w.BeginArray();
      w.String(SecuritySeverity(f.code).empty() ? "Bug Risk" : "Security");
      w.EndArray();
      w.Name("fingerprint");
      int n = ++seen[f.fingerprint];
      w.String(n == 1 ? f.fingerprint
                      : f.fingerprint + "-" + std::to_string(n));
      w.Name("severity");
      w.String(GitlabSeverity(f));
      w.Name("location");
      w.BeginObject();
      w.Name("path");
      w.String(path);
      w.Name("lines");
      w.BeginObject();
      w.Name("begin");
      w.Uint(f.line > 0 ? f.line : 1);
      w.EndObject();
      w.EndObject();
      w.EndObject();
    }
  }
  w.EndArray();
  sink.Put('\n');
}

}  // namespace pstate::report
