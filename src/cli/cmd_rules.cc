// pstate rules: every finding code; pstate explain CODE: its documentation.
// Both print docs/diagnostics.md's text (diag/code_docs.h).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/suggest.h"
#include "pstate/diag/code_docs.h"
#include "pstate/diag/codes.h"
#include "pstate/diag/render.h"

namespace pstate::cli {

std::function<int()> SetupRules(CLI::App& app) {
  auto format = std::make_shared<std::string>("text");
  app.add_option("--format", *format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->type_name("FORMAT")
      ->capture_default_str();
  return [format] {
    if (*format == "json") {
      // One JSON document: an array of {code, severity, fatal, summary,
      // description, help_uri}.
      std::cout << '[';
      bool first = true;
      for (const diag::CodeInfo& info : diag::AllCodes()) {
        std::cout << (first ? "" : ",")
                  << "{\"code\":" << diag::JsonString(info.name)
                  << ",\"severity\":"
                  << diag::JsonString(diag::SeverityName(info.severity))
                  << ",\"fatal\":"
                  << (diag::IsFatal(info.code) ? "true" : "false")
                  << ",\"summary\":" << diag::JsonString(info.summary)
                  << ",\"description\":"
                  << diag::JsonString(diag::CodeDescription(info.code))
                  << ",\"help_uri\":"
                  << diag::JsonString(diag::CodeHelpUri(info.code)) << '}';
        first = false;
      }
      std::cout << "]\n";
      return static_cast<int>(kExitOk);
    }
    std::size_t width = 0;
    for (const diag::CodeInfo& info : diag::AllCodes()) {
      width = std::max(width, info.name.size());
    }
    for (const diag::CodeInfo& info : diag::AllCodes()) {
      std::string name(info.name);
      name.resize(width + 2, ' ');
      std::string severity(diag::SeverityName(info.severity));
      severity.resize(9, ' ');
      std::cout << name << severity << info.summary << '\n';
    }
    std::cout << "\n"
              << diag::AllCodes().size()
              << " codes; pstate explain CODE prints one's documentation.\n";
    return static_cast<int>(kExitOk);
  };
}

std::function<int()> SetupExplain(CLI::App& app) {
  auto code = std::make_shared<std::string>();
  app.add_option("code", *code, "A finding code (see pstate rules)")
      ->required()
      ->type_name("CODE");
  return [code] {
    std::optional<diag::Code> found = diag::FindCode(*code);
    if (!found) {
      std::vector<std::string> names;
      for (const diag::CodeInfo& info : diag::AllCodes()) {
        names.emplace_back(info.name);
      }
      std::cerr << "pstate: error: unknown finding code '" << *code << "'"
                << DidYouMean(*code, names)
                << "\nRun 'pstate rules' for the list of codes.\n";
      return static_cast<int>(kExitUnreadable);
    }
    const diag::CodeInfo& info = diag::Info(*found);
    std::cout << info.name << " (" << diag::SeverityName(info.severity)
              << (diag::IsFatal(info.code) ? ", fatal" : "") << ")\n\n"
              << diag::CodeMarkdown(info.code) << "\n\n"
              << "More: " << diag::CodeHelpUri(info.code) << '\n';
    return static_cast<int>(kExitOk);
  };
}

}  // namespace pstate::cli
