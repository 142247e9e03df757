// pstate rules: every finding code; pstate explain CODE: its documentation.
// Both print docs/diagnostics.md's text (report/rules.h).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <pstate/pstate.h>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/suggest.h"
#include "report/rules.h"
#include "report/terminal.h"

namespace pstate::cli {

std::function<int()> SetupRules(CLI::App& app) {
  auto format = std::make_shared<std::string>("text");
  app.add_option("--format", *format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->type_name("FORMAT")
      ->capture_default_str();
  return [format] {
    if (*format == "json") {
      report::RenderRulesJson(std::cout);
    } else {
      report::RenderRulesText(std::cout);
    }
    return static_cast<int>(kExitOk);
  };
}

std::function<int()> SetupExplain(CLI::App& app) {
  auto code = std::make_shared<std::string>();
  app.add_option("code", *code, "A finding code (see pstate rules)")
      ->required()
      ->type_name("CODE");
  return [code] {
    const FindingCodeInfo* found = FindingCodeInfoNamed(*code);
    if (found == nullptr) {
      std::vector<std::string> names;
      for (const FindingCodeInfo& info : FindingCodeInfos()) {
        names.emplace_back(info.name);
      }
      report::PrintError(std::cerr, "unknown finding code '" + *code + "'" +
                                        DidYouMean(*code, names));
      std::cerr << "Run 'pstate rules' for the list of codes.\n";
      return static_cast<int>(kExitUnreadable);
    }
    report::RenderExplain(*found, std::cout);
    return static_cast<int>(kExitOk);
  };
}

}  // namespace pstate::cli
