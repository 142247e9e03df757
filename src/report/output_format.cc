#include "report/output_format.h"

namespace pstate::report {

std::string_view OutputFormatName(OutputFormat format) {
  switch (format) {
    case OutputFormat::kText: return "text";
    case OutputFormat::kJson: return "json";
    case OutputFormat::kSarif: return "sarif";
    case OutputFormat::kGithub: return "github";
    case OutputFormat::kJunit: return "junit";
    case OutputFormat::kGitlab: return "gitlab";
  }
  return "text";
}

std::optional<OutputFormat> ParseOutputFormat(std::string_view name) {
  for (OutputFormat f :
       {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kSarif,
        OutputFormat::kGithub, OutputFormat::kJunit, OutputFormat::kGitlab}) {
    if (name == OutputFormatName(f)) return f;
  }
  return std::nullopt;
}

}  // namespace pstate::report
