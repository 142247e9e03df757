// pstate verify FILE...: every problem in each state, with its location.
//
// Flags → pstate::VerifyManyConfig → pstate::VerifyMany over the inputs →
// printing and the exit code. The checks themselves live in src/verify/.
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pstate/pstate.h>

#include "base/thread_pool.h"
#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/findings_output.h"
#include "cli/input_limits.h"
#include "cli/jobs.h"
#include "cli/terminal.h"
#include "report/terminal.h"

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
  std::optional<Schemas> schemas;
  VerifyManyConfig config;
  if (!flags.schemas.empty() || !flags.schema_dirs.empty()) {
    // Once per run, before any input: a bad schema is a usage error.
    Result<Schemas> loaded = Schemas::Load(flags.schemas, flags.schema_dirs);
    if (!loaded.ok()) {
      report::PrintError(std::cerr, loaded.status().message());
      return kExitUnreadable;
    }
    config.schemas = &schemas.emplace(std::move(*loaded));
  }
  config.assets = flags.assets;
  config.asset_root = flags.root;
  config.allow_outside_root = flags.allow_outside_root;
  // Several inputs (a backend's stacks) are read N at once, each on one
  // thread, when --jobs asks for N; one input is checked on --jobs threads
  // (default one) and hashed on --jobs (default every processor).
  config.asset_jobs = flags.jobs > 0 ? flags.jobs : DefaultJobs();
  config.jobs = flags.jobs > 0 ? flags.jobs : DefaultPassJobs();
  // The printer filters (FilterFindings) and caps the findings.
  config.max_findings = flags.max_findings;
  config.limits = InputLimitFlags();
  config.progress_of = [&flags](std::size_t i) {
    const std::string& path = flags.files[i];
    return MakeProgress(InputName(path), flags.quiet);
  };
  FindingsPrinter printer(flags);
  Status s = VerifyMany(flags.files, config,
                        [&printer](std::size_t, Findings&& findings) {
                          EndProgress();
                          printer.Print(std::move(findings));
                        });
  if (!s.ok()) {
    report::PrintError(std::cerr, s.message());
    return kExitUnreadable;
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
