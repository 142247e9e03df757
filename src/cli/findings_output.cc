#include "cli/findings_output.h"

#include <unistd.h>

#include <iostream>

#include "cli/exit_code.h"
#include "cli/terminal.h"

#ifndef PSTATE_VERSION
#define PSTATE_VERSION "0.0.0"
#endif

namespace pstate::cli {

void AddFindingsOptions(CLI::App& app, FindingsFlags& flags) {
  app.add_option("files", flags.files,
                 "State files (export or checkpoint; plain, gzip or zstd); "
                 "- reads standard input")
      ->required();
  app.add_option("--format", flags.format, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->capture_default_str();
  app.add_option("--max-findings", flags.max_findings,
                 "Print at most N findings per file (all are counted); 0 "
                 "prints all")
      ->capture_default_str();
  app.add_option("--color", flags.color, "Colour text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_flag("-q,--quiet", flags.quiet, "No progress line on stderr");
}

FindingsPrinter::FindingsPrinter(const FindingsFlags& flags) : flags_(flags) {
  text_.color = UseColor(flags.color, STDOUT_FILENO);
}

void FindingsPrinter::Print(std::unique_ptr<diag::Report> report) {
  report->SortByLocation();
  unreadable_ |= report->fatal();
  errors_ |= report->summary().errors > 0;
  if (flags_.format == "sarif") {
    sarif_.push_back(std::move(report));
    return;
  }
  if (flags_.format == "json") {
    diag::RenderJsonLine(*report, std::cout);
  } else {
    diag::RenderText(*report, std::cout, text_);
  }
  std::cout.flush();
}

int FindingsPrinter::Finish() {
  if (flags_.format == "sarif") {
    std::vector<const diag::Report*> views;
    for (const auto& r : sarif_) views.push_back(r.get());
    diag::RenderSarif(views, std::cout, PSTATE_VERSION);
    std::cout.flush();
  }
  if (unreadable_) return kExitUnreadable;
  return errors_ ? kExitFindings : kExitOk;
}

}  // namespace pstate::cli
