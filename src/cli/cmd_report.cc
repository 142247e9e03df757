// pstate report: a self-contained HTML report of a state, or of two
// (issue 26 §2). pstate::HtmlReport gathers the page's model;
// report/html.h writes the page to a temporary file renamed into place.
#include <iostream>
#include <memory>
#include <string>
#include <utility>

#include <pstate/pstate.h>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/input_limits.h"
#include "cli/passphrase.h"
#include "report/html.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

struct ReportFlags {
  std::string path;
  std::string after;
  std::string output;
  std::string passphrase_file;
  std::size_t max_findings = 2000;
};

int RunReport(const ReportFlags& f) {
  Result<State> state = OpenState(f.path);
  if (!state.ok()) return Fail(state.status());
  HtmlReportConfig config;
  if (!f.after.empty()) {
    Result<State> after = OpenState(f.after);
    if (!after.ok()) return Fail(after.status());
    config.after = std::move(*after);
  }
  config.max_findings = f.max_findings;
  config.passphrase = PassphraseFromFlags(f.passphrase_file);
  Result<HtmlReportModel> model = HtmlReport(*state, config);
  if (!model.ok()) return Fail(model.status());
  if (Status s = report::WriteHtmlReportFile(*model, f.output); !s.ok()) {
    return Fail(s);
  }
  return kExitOk;
}

}  // namespace

std::function<int()> SetupReport(CLI::App& app) {
  auto f = std::make_shared<ReportFlags>();
  app.add_option("state", f->path, "State to report on (a file)")->required();
  app.add_option("after", f->after,
                 "A second state: the report also shows the diff from the "
                 "first to it");
  app.add_option("-o,--output", f->output,
                 "The HTML file to write (one self-contained page)")
      ->required();
  app.add_option("--max-findings", f->max_findings,
                 "Findings listed in the page (counts stay whole)")
      ->capture_default_str();
  app.add_option(
      "--passphrase-file", f->passphrase_file,
      "File holding the passphrase (trimmed), to compare passphrase secrets "
      "by value in the diff (they are never shown); otherwise "
      "PULUMI_CONFIG_PASSPHRASE, then PULUMI_CONFIG_PASSPHRASE_FILE");
  return [f] { return RunReport(*f); };
}

}  // namespace pstate::cli
