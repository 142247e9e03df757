// pstate diff A B: what changed between two states (exit 0 same, 1
// different, 2 unreadable, as diff(1)).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include <pstate/pstate.h>

#include "cli/command.h"
#include "cli/count_option.h"
#include "cli/exit_code.h"
#include "cli/input_limits.h"
#include "cli/jobs.h"
#include "cli/passphrase.h"
#include "cli/terminal.h"
#include "report/diff.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

struct DiffFlags {
  std::string before;
  std::string after;
  std::string format = "text";
  bool stat = false;
  bool show_secrets = false;
  std::string passphrase_file;
  std::size_t limit = 0;
  std::string color = "auto";
  bool quiet = false;
  std::vector<std::string> types;
  std::vector<std::string> urns;
  std::vector<std::string> ignore;
  int jobs = 0;
};

int RunDiff(const DiffFlags& flags) {
  DiffConfig config;
  config.show_secrets = flags.show_secrets;
  config.passphrase = PassphraseFromFlags(flags.passphrase_file);
  config.jobs = PassJobs(flags.jobs);
  config.types = flags.types;
  config.urns = flags.urns;
  config.ignore = flags.ignore;
  config.on_progress = MakeProgress(InputName(flags.after), flags.quiet);
  Result<DiffResult> result = [&]() -> Result<DiffResult> {
    Result<State> before = OpenState(flags.before);
    if (!before.ok()) return before.status();
    Result<State> after = OpenState(flags.after);
    if (!after.ok()) return after.status();
    return Diff(*before, *after, config);
  }();
  EndProgress();
  if (!result.ok()) {
    report::PrintError(std::cerr, result.status().message());
    return kExitUnreadable;
  }
  if (flags.format == "json") {
    std::cout << report::RenderDiffJson(*result, flags.limit);
  } else {
    report::DiffTextOptions options;
    options.stat_only = flags.stat;
    options.limit = flags.limit;
    options.color = UseColor(flags.color, STDOUT_FILENO);
    std::cout << report::RenderDiffText(*result, options);
  }
  return result->same() ? kExitOk : kExitFindings;
}

}  // namespace

std::function<int()> SetupDiff(CLI::App& app) {
  auto flags = std::make_shared<DiffFlags>();
  app.add_option("before", flags->before,
                 "The older state (- reads standard input; gzip and zstd "
                 "are read as such)")
      ->required();
  app.add_option("after", flags->after, "The newer state")->required();
  app.add_option("--format", flags->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_flag("--stat", flags->stat,
               "Print the counts only, per resource type, then the summary "
               "(text format)");
  app.add_option("--type", flags->types,
                 "Only resources whose type matches this glob (* and ?); "
                 "repeatable")
      ->type_name("GLOB")
      ->take_last()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--urn", flags->urns,
                 "Only resources whose URN (or former URN) matches this "
                 "glob; repeatable")
      ->type_name("GLOB")
      ->take_last()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--ignore", flags->ignore,
                 "Leave out changes of this kind: timestamps (one RFC 3339 "
                 "time to another); repeatable")
      ->type_name("KIND")
      ->take_last()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  AddColorOption(app, &flags->color);
  AddQuietOption(app, &flags->quiet);
  app.add_option("--limit", flags->limit,
                 "Print the first N resource entries and how many more "
                 "there are (0: all); the summary and exit code stay exact")
      ->check(NonNegativeCount())
      ->type_name("N")
      ->capture_default_str();
  app.add_flag("--show-secrets", flags->show_secrets,
               "Print the values of secrets that could be opened (b64, or "
               "passphrase with a passphrase given)");
  app.add_option(
      "--passphrase-file", flags->passphrase_file,
      std::string(kPassphraseFileHelp) +
          ". With one, secrets with different ciphertexts are compared "
          "by value");
  AddPassJobsOption(app, &flags->jobs, "Index");
  return [flags] { return RunDiff(*flags); };
}

}  // namespace pstate::cli
