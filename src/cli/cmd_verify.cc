// pstate verify FILE...: every problem in each state, with its location.
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/findings_output.h"
#include "cli/terminal.h"
#include "pstate/assets/auditor.h"
#include "pstate/verify/verifier.h"
#include "pstate/io/input.h"
#include "pstate/state/reader.h"

namespace pstate::cli {
namespace {

struct VerifyFlags : FindingsFlags {
  // --assets: the asset audit of `pstate assets`, as findings.
  bool assets = false;
  std::string root = ".";
  int jobs = DefaultJobs();
  bool allow_outside_root = false;
};

/// Reads and checks one input; never fails: problems become findings.
std::unique_ptr<diag::Report> VerifyOne(const std::string& path,
                                        const VerifyFlags& flags) {
  auto input = io::OpenInput(path);
  std::string name = path == "-" ? "<stdin>" : path;
  auto report = std::make_unique<diag::Report>(name, flags.max_findings);
  if (!input.ok()) {
    report->Add(diag::MakeFinding(diag::Code::kIoError,
                                  input.status().message()));
    return report;
  }
  verify::Verifier verifier;
  state::ReadOptions options;
  options.on_progress = MakeProgress(name, flags.quiet);
  if (!flags.assets) {
    Status status = state::Read(**input, verifier, *report, options);
    EndProgress();
    (void)status;  // the report holds the located reason
    return report;
  }
  // --assets: the audit runs beside the checks; its results are hashed on
  // worker threads and delivered on this one. The report keeps findings by
  // their place in the file, so arrival order does not matter.
  asset_hash::Options asset_options;
  asset_options.root = flags.root;
  asset_options.outside_root = flags.allow_outside_root
                                   ? asset_hash::OutsideRoot::kReadHashHidden
                                   : asset_hash::OutsideRoot::kRefuse;
  assets::Auditor auditor(asset_options, flags.jobs,
                         [&report](assets::ItemResult&& r) {
                           for (diag::Finding& f : assets::ToFindings(r)) {
                             report->Add(std::move(f));
                           }
                         });
  assets::AuditHandler audit(auditor);
  state::Tee both(verifier, audit);
  Status status = state::Read(**input, both, *report, options);
  EndProgress();
  auditor.Finish();
  (void)status;  // the report holds the located reason
  return report;
}

int RunVerify(const VerifyFlags& flags) {
  FindingsPrinter printer(flags);
  for (const std::string& path : flags.files) {
    printer.Print(VerifyOne(path, flags));
  }
  return printer.Finish();
}

}  // namespace

std::function<int()> SetupVerify(CLI::App& app) {
  auto flags = std::make_shared<VerifyFlags>();
  AddFindingsOptions(app, *flags);
  app.add_flag("--assets", flags->assets,
               "Also check that every asset and archive hashes to what the "
               "state recorded (see pstate assets)");
  app.add_option("--root", flags->root,
                 "With --assets: directory relative asset paths resolve "
                 "against")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
  app.add_flag("--allow-outside-root", flags->allow_outside_root,
               "With --assets: also read files outside --root; their hashes "
               "are compared but never printed (see pstate assets)");
  app.add_option("-j,--jobs", flags->jobs,
                 "With --assets: hash on N threads (default: the number of "
                 "processors)")
      ->check(CLI::Range(1, 1024));
  return [flags] { return RunVerify(*flags); };
}

}  // namespace pstate::cli
