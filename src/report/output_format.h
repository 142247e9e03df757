// How a command's results are printed: one enum for verify, scan and
// assets, parsed once from --format so lower layers never compare strings.
#ifndef PSTATE_REPORT_OUTPUT_FORMAT_H_
#define PSTATE_REPORT_OUTPUT_FORMAT_H_

#include <optional>
#include <string_view>

namespace pstate::report {

enum class OutputFormat {
  kText,    ///< human-readable lines (and tables)
  kJson,    ///< JSON (one object per input, one per line)
  kSarif,   ///< one SARIF 2.1.0 log for all inputs (findings only)
  kGithub,  ///< GitHub Actions workflow commands (findings only)
  kJunit,   ///< one JUnit XML document for all inputs (findings only)
  kGitlab,  ///< one GitLab Code Quality report for all inputs (findings only)
};

/// "text", "json", "sarif", "github", "junit", "gitlab".
std::string_view OutputFormatName(OutputFormat format);
/// The format named `name`, or nullopt.
std::optional<OutputFormat> ParseOutputFormat(std::string_view name);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_OUTPUT_FORMAT_H_
