// pstate verify FILE...: every problem in each state, with its location.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/terminal.h"
#include "pstate/audit/auditor.h"
#include "pstate/audit/ordered_handler.h"
#include "pstate/check/verifier.h"
#include "pstate/diag/render.h"
#include "pstate/io/input.h"
#include "pstate/state/reader.h"

#ifndef PSTATE_VERSION
#define PSTATE_VERSION "0.0.0"
#endif

namespace pstate::cli {
namespace {

struct VerifyFlags {
  std::vector<std::string> files;
  std::string format = "text";
  std::string color = "auto";
  std::size_t max_findings = 10000;
  bool quiet = false;
  // --assets: the asset audit of `pstate assets`, as findings.
  bool assets = false;
  std::string root = ".";
  int jobs = audit::DefaultJobs();
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
  check::Verifier verifier;
  state::ReadOptions options;
  options.on_progress = MakeProgress(name, flags.quiet);
  if (!flags.assets) {
    Status status = state::Read(**input, verifier, *report, options);
    EndProgress();
    (void)status;  // the report holds the located reason
    return report;
  }
  // --assets: asset results are hashed on worker threads; OrderedHandler
  // keeps them and the verifier's findings in the state's order.
  asset::Options asset_options;
  asset_options.root = flags.root;
  audit::Auditor auditor(asset_options, flags.jobs,
                         [&report](audit::ItemResult&& r) {
                           for (diag::Finding& f : audit::ToFindings(r)) {
                             report->Add(std::move(f));
                           }
                         });
  audit::OrderedHandler ordered(verifier, auditor, *report);
  auto hook = [&ordered](const state::Leaf& leaf, state::Context& context) {
    ordered.AuditLeaf(leaf, context);
  };
  verifier.set_resource_hook(hook);
  verifier.set_pending_operation_hook(hook);
  Status status = state::Read(**input, ordered, *report, options);
  EndProgress();
  auditor.Finish();
  (void)status;  // the report holds the located reason
  return report;
}

int RunVerify(const VerifyFlags& flags) {
  std::vector<std::unique_ptr<diag::Report>> reports;
  bool unreadable = false;
  bool errors = false;
  diag::TextOptions text;
  text.color = UseColor(flags.color, STDOUT_FILENO);
  for (const std::string& path : flags.files) {
    auto report = VerifyOne(path, flags);
    report->SortByLocation();
    unreadable |= report->fatal();
    errors |= report->summary().errors > 0;
    if (flags.format == "text") {
      diag::RenderText(*report, std::cout, text);
    } else if (flags.format == "json") {
      diag::RenderJsonLine(*report, std::cout);
    }
    std::cout.flush();
    if (flags.format == "sarif") reports.push_back(std::move(report));
  }
  if (flags.format == "sarif") {
    std::vector<const diag::Report*> views;
    for (const auto& r : reports) views.push_back(r.get());
    diag::RenderSarif(views, std::cout, PSTATE_VERSION);
  }
  if (unreadable) return kExitUnreadable;
  return errors ? kExitFindings : kExitOk;
}

}  // namespace

std::function<int()> SetupVerify(CLI::App& app) {
  auto flags = std::make_shared<VerifyFlags>();
  app.add_option("files", flags->files,
                 "State files (export or checkpoint; plain, gzip or zstd); "
                 "- reads standard input")
      ->required();
  app.add_option("--format", flags->format, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->capture_default_str();
  app.add_option("--max-findings", flags->max_findings,
                 "Print at most N findings per file (all are counted); 0 "
                 "prints all")
      ->capture_default_str();
  app.add_option("--color", flags->color, "Colour text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_flag("-q,--quiet", flags->quiet, "No progress line on stderr");
  app.add_flag("--assets", flags->assets,
               "Also check that every asset and archive hashes to what the "
               "state recorded (see pstate assets)");
  app.add_option("--root", flags->root,
                 "With --assets: directory relative asset paths resolve "
                 "against")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
  app.add_option("--jobs", flags->jobs,
                 "With --assets: hash on N threads (default: the number of "
                 "processors)")
      ->check(CLI::Range(1, 1024));
  return [flags] { return RunVerify(*flags); };
}

}  // namespace pstate::cli
