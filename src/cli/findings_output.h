// What `verify` and `scan` share: the flags that shape their findings
// output, and the printer that renders one report per input and turns the
// reports into the exit code.
#ifndef PSTATE_CLI_FINDINGS_OUTPUT_H_
#define PSTATE_CLI_FINDINGS_OUTPUT_H_

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

#include "pstate/diag/render.h"
#include "pstate/diag/report.h"

namespace pstate::cli {

struct FindingsFlags {
  std::vector<std::string> files;
  std::string format = "text";
  std::string color = "auto";
  std::size_t max_findings = 10000;
  bool quiet = false;
};

/// Registers files, --format, --max-findings, --color and --quiet.
void AddFindingsOptions(CLI::App& app, FindingsFlags& flags);

/// Prints reports as they are finished (text and JSON Lines stream; SARIF
/// is one document, written by Finish) and computes the exit code.
class FindingsPrinter {
 public:
  explicit FindingsPrinter(const FindingsFlags& flags);

  /// Sorts the report's findings into file order and prints it.
  void Print(std::unique_ptr<diag::Report> report);
  /// An input failed in a way already explained on stderr.
  void MarkUnreadable() { unreadable_ = true; }
  /// Writes what is still pending and returns the exit code: 2 when an
  /// input was unreadable, 1 when any report has an error, else 0.
  int Finish();

 private:
  const FindingsFlags& flags_;
  diag::TextOptions text_;
  std::vector<std::unique_ptr<diag::Report>> sarif_;
  bool unreadable_ = false;
  bool errors_ = false;
};

}  // namespace pstate::cli

#endif  // PSTATE_CLI_FINDINGS_OUTPUT_H_
