// What `verify` and `scan` share: the flags that choose their inputs and
// shape their findings output, and the printer that renders one report per
// input and turns the reports into the exit code.
#ifndef PSTATE_CLI_FINDINGS_OUTPUT_H_
#define PSTATE_CLI_FINDINGS_OUTPUT_H_

#include <CLI/CLI.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pstate/pstate.h>

#include "report/findings.h"
#include "report/output_format.h"

namespace pstate::cli {

struct FindingsFlags {
  /// The inputs once parsed: directories expanded (FindStateFiles), "-"
  /// when none was given and standard input is not a terminal.
  std::vector<std::string> files;
  /// --format as typed; parsing maps it once to `output`.
  std::string format = "text";
  report::OutputFormat output = report::OutputFormat::kText;
  std::string color = "auto";
  std::size_t max_findings = 10000;
  bool quiet = false;
  /// The subcommand's name (SARIF automationDetails).
  std::string command;
  /// --fail-on as typed; parsing maps it once to `fail_threshold`: the
  /// lowest severity that fails, or nullopt for "never".
  std::string fail_on = "error";
  std::optional<Severity> fail_threshold = Severity::kError;
  std::vector<std::string> only;
  std::vector<std::string> skip;
  std::string baseline;
  std::vector<std::string> ignore_files;
  bool include_backups = false;
  /// Built once the command line is parsed: the filter for each input's
  /// directory (its .pstateignore added to the shared part).
  std::map<std::string, std::shared_ptr<const FindingFilter>> filters;
  std::shared_ptr<const FindingFilter> filter;
  /// With a filter, the commands keep every finding (max_findings is set to
  /// 0) and the printer applies the filter (FilterFindings), then this cap.
  std::size_t display_max = 0;
  bool filtering = false;

  /// The filter for the input whose findings are named `file`.
  std::shared_ptr<const FindingFilter> FilterFor(const std::string& file) const;
};

/// Registers files, --format, --max-findings, --color, --quiet, --fail-on,
/// --only, --skip, --baseline, --ignore-file and --include-backups, and a
/// parse-complete step that resolves the inputs and builds the filter
/// (a bad value is a usage error, exit 2, before any input is read).
void AddFindingsOptions(CLI::App& app, FindingsFlags& flags);

/// The state files under `dir`. A backend directory (IsBackendDirectory:
/// it holds .pulumi, or is .pulumi): each stack's current checkpoint, in
/// stack order (and its .bak with `include_backups`). Any
/// other directory: searched recursively for *.json, *.json.gz and
/// *.json.zst (and their .bak backups with `include_backups`), sorted.
std::vector<std::string> FindStateFiles(const std::string& dir,
                                        bool include_backups);

/// Prints reports as they are finished (text, JSON Lines and GitHub
/// annotations stream; SARIF, JUnit and GitLab Code Quality are one
/// document each, written by Finish) and
/// computes the exit code.
class FindingsPrinter {
 public:
  explicit FindingsPrinter(const FindingsFlags& flags);

  /// Filters an input's findings (in file order) and prints them.
  void Print(Findings findings);
  /// An input failed in a way already explained on stderr.
  void MarkUnreadable() { unreadable_ = true; }
  /// Writes what is still pending (the document formats; the grand total of
  /// text output over several inputs) and returns the exit code: 2 when an
  /// input was unreadable, 1 when a counted finding is at or above --fail-on,
  /// else 0.
  int Finish();

 private:
  const FindingsFlags& flags_;
  report::TextOptions text_;
  /// The reports of a document format (SARIF, JUnit, GitLab), kept for
  /// Finish.
  std::vector<Findings> documents_;
  FindingCounts total_;
  std::size_t reports_ = 0;
  bool unreadable_ = false;
  bool failed_ = false;
};

}  // namespace pstate::cli

#endif  // PSTATE_CLI_FINDINGS_OUTPUT_H_
