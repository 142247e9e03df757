// pstate verify FILE...: every problem in each state, with its location.
//
// Flags → verify::Config → verify::VerifyInput per input → printing and the
// exit code. The checks themselves live in src/verify/.
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/findings_output.h"
#include "cli/jobs.h"
#include "cli/terminal.h"
#include "diag/report.h"
#include "inventory/inventory.h"
#include "report/terminal.h"
#include "types/schema_set.h"
#include "verify/run.h"

namespace pstate::cli {
namespace {

struct VerifyFlags : FindingsFlags {
  // --assets: the audit of `pstate assets`, as findings.
  bool assets = false;
  std::string root = ".";
  int jobs = 0;  ///< --jobs; 0 when not given
  bool allow_outside_root = false;
  // --schema / --schema-dir: package schemas to check resources against.
  std::vector<std::string> schemas;
  std::vector<std::string> schema_dirs;
};

int RunVerify(const VerifyFlags& flags) {
  types::SchemaSet schemas;
  verify::Config config;
  if (!flags.schemas.empty() || !flags.schema_dirs.empty()) {
    // Once per run, before any input: a bad schema is a usage error.
    Status s = verify::LoadSchemas(flags.schemas, flags.schema_dirs, &schemas);
    if (!s.ok()) {
      report::PrintError(std::cerr, s.message());
      return kExitUnreadable;
    }
    config.schemas = &schemas;
  }
  config.assets = flags.assets;
  config.asset_options.root = flags.root;
  config.asset_options.outside_root =
      flags.allow_outside_root ? asset_hash::OutsideRoot::kReadHashHidden
                               : asset_hash::OutsideRoot::kRefuse;
  config.jobs = flags.jobs > 0 ? flags.jobs : DefaultJobs();
  config.check_jobs = flags.jobs > 0 ? flags.jobs : DefaultPassJobs();
  FindingsPrinter printer(flags);
  auto name_of = [](const std::string& path) {
    return path == "-" ? std::string("<stdin>") : path;
  };
  if (config.check_jobs > 1 && flags.files.size() > 1) {
    // Several inputs (a backend's stacks): N inputs at once, each read on
    // one thread, printed in input order (the same output for any N).
    verify::Config one = config;
    one.jobs = 1;
    one.check_jobs = 1;
    using ReportPtr = std::unique_ptr<diag::Report>;
    inventory::ForEachOrdered<ReportPtr>(
        flags.files.size(), config.check_jobs,
        [&](std::size_t i) {
          const std::string& path = flags.files[i];
          ReportPtr report =
              std::make_unique<diag::Report>(name_of(path), flags.max_findings);
          verify::VerifyInput(path, one, *report);
          return report;
        },
        [&](std::size_t, ReportPtr&& report) {
          printer.Print(std::move(*report).Take());
          return true;
        });
    return printer.Finish();
  }
  for (const std::string& path : flags.files) {
    std::string name = name_of(path);
    auto report = std::make_unique<diag::Report>(name, flags.max_findings);
    config.on_progress = MakeProgress(name, flags.quiet);
    verify::VerifyInput(path, config, *report);
    EndProgress();
    printer.Print(std::move(*report).Take());
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
                 "Check the resources of a plain file on N threads, and with "
                 "--assets hash on N threads; with several inputs (a backend "
                 "directory's stacks), read N inputs at once instead; the "
                 "output is the same for any N (default: hash on every "
                 "processor, check on one)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--schema", flags->schemas,
                 "Check every resource against its provider's package schema "
                 "(as `pulumi package get-schema` prints it; .json or "
                 ".json.gz); repeatable, several versions of one package "
                 "allowed")
      ->allow_extra_args(false);
  app.add_option("--schema-dir", flags->schema_dirs,
                 "A directory whose *.json and *.json.gz files are package "
                 "schemas (as --schema); repeatable")
      ->allow_extra_args(false);
  return [flags] { return RunVerify(*flags); };
}

}  // namespace pstate::cli
