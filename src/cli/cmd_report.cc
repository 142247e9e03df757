// pstate report: a self-contained HTML report of a state, or of two
// (issue 26 §2). htmlreport::Collect gathers the typed results;
// report/html.h writes the page to a temporary file renamed into place.
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "crypto/passphrase_source.h"
#include "htmlreport/htmlreport.h"
#include "io/output.h"
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
  htmlreport::Config config;
  config.path = f.path;
  config.after = f.after;
  config.max_findings = f.max_findings;
  std::optional<std::filesystem::path> file;
  if (!f.passphrase_file.empty()) file = f.passphrase_file;
  config.passphrase = [file] { return crypto::ResolvePassphrase(file); };
  auto data = htmlreport::Collect(config);
  if (!data.ok()) return Fail(data.status());
  auto out = io::OpenOutput(f.output);
  if (!out.ok()) return Fail(out.status());
  report::WriteHtmlReport(*data, **out);
  if (Status s = (*out)->Commit(); !s.ok()) return Fail(s);
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
