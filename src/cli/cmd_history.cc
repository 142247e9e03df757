// pstate history: the update history of DIY backend stacks
// (docs/history.md). Maps flags to the API's History* calls and their results
// to report/history.h renderings and an exit code.
#include <time.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pstate/pstate.h>

#include "base/rfc3339.h"
#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/input_limits.h"
#include "report/history.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

struct HistoryFlags {
  std::vector<std::string> args;
  std::string format = "text";
  bool verify = false;
  std::string output;
  bool in_place = false;
  std::optional<std::size_t> keep;
  std::string older_than;
  std::string as_of;
  bool yes = false;
};

int HistoryUsage(const std::string& message) {
  Fail(message);
  std::cerr << "Run 'pstate history --help' for usage.\n";
  return kExitUnreadable;
}

/// A failure of the core: kRefused is exit 1, anything else 2.
int Failed(const Status& status) {
  return Fail(status, status.code() == Errc::kRefused ? kExitFindings
                                                      : kExitUnreadable);
}

int RunRestore(const HistoryFlags& flags) {
  if (flags.args.size() != 2) {
    return HistoryUsage("history restore takes one STACKREF@VERSION");
  }
  if (flags.in_place == !flags.output.empty()) {
    return HistoryUsage(
        "history restore needs exactly one of -o FILE and --in-place");
  }
  HistoryRestoreConfig config;
  config.ref = flags.args[1];
  config.output = flags.output;
  config.in_place = flags.in_place;
  config.limits = InputLimitFlags();
  Result<HistoryRestoreResult> result = HistoryRestore(config);
  if (!result.ok()) return Failed(result.status());
  // The summary goes to stderr when the export itself goes to stdout.
  std::ostream& os = flags.output == "-" ? std::cerr : std::cout;
  if (flags.format == "json") {
    report::RenderRestoreJson(*result, os);
  } else {
    report::RenderRestoreText(*result, os);
  }
  return kExitOk;
}

int RunPrune(const HistoryFlags& flags) {
  if (flags.args.size() != 2) {
    return HistoryUsage("history prune takes one BACKEND_DIR or STACKREF");
  }
  HistoryPruneConfig config;
  config.target = flags.args[1];
  config.keep = flags.keep;
  config.yes = flags.yes;
  if (!flags.older_than.empty()) {
    config.older_than_s = DurationSeconds(flags.older_than);
    if (!config.older_than_s) {
      return HistoryUsage(
          "--older-than: '" + flags.older_than +
          "' is not a duration (a number and s, m, h, d or w: 30d)");
    }
  }
  if (!config.keep && !config.older_than_s) {
    return HistoryUsage(
        "history prune needs --keep N and/or --older-than DURATION");
  }
  if (!flags.as_of.empty()) {
    std::optional<GoTime> t = ParseRfc3339(flags.as_of);
    if (!t)
      return HistoryUsage("--as-of: '" + flags.as_of +
                          "' is not an RFC 3339 time");
    config.now_unix_nano = t->UnixSeconds() * 1000000000 + t->nanos;
  } else {
    struct timespec now {};
    ::clock_gettime(CLOCK_REALTIME, &now);
    config.now_unix_nano =
        static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
  }
  Result<HistoryPruneResult> result = HistoryPrune(config);
  if (!result.ok()) return Failed(result.status());
  if (flags.format == "json") {
    report::RenderPruneJson(*result, std::cout);
  } else {
    report::RenderPruneText(*result, std::cout);
  }
  return kExitOk;
}

int RunBlame(const HistoryFlags& flags) {
  if (flags.args.size() < 3 || flags.args.size() > 4) {
    return HistoryUsage("history blame takes STACKREF URN [PROPERTY_PATH]");
  }
  HistoryBlameConfig config;
  config.ref = flags.args[1];
  config.urn = flags.args[2];
  if (flags.args.size() == 4) config.path = flags.args[3];
  config.limits = InputLimitFlags();
  auto result = HistoryBlame(config);
  if (!result.ok()) return Failed(result.status());
  if (flags.format == "json") {
    report::RenderBlameJson(*result, std::cout);
  } else {
    report::RenderBlameText(*result, std::cout);
  }
  return kExitOk;
}

int RunHistory(const HistoryFlags& flags) {
  const std::string& first = flags.args.front();
  if (first == "restore") return RunRestore(flags);
  if (first == "prune") return RunPrune(flags);
  if (first == "blame") return RunBlame(flags);
  if (flags.args.size() != 1) {
    return HistoryUsage(
        "history takes one BACKEND_DIR or STACKREF (or restore, "
        "prune, blame)");
  }
  if (!flags.output.empty() || flags.in_place || flags.keep ||
      !flags.older_than.empty() || flags.yes || !flags.as_of.empty()) {
    return HistoryUsage(
        "-o, --in-place, --keep, --older-than, --as-of and --yes "
        "belong to history restore and history prune");
  }
  bool json = flags.format == "json";
  Result<HistoryTarget> target = HistoryOpen(first);
  if (target.ok()) {
    std::vector<UpdateRow> rows = HistoryList(*target, flags.verify);
    if (json) {
      report::RenderUpdatesJson(*target, rows, std::cout);
    } else {
      report::RenderUpdatesText(*target, rows, std::cout);
    }
    return kExitOk;
  }
  std::error_code ec;
  if (std::filesystem::is_regular_file(first, ec)) {
    // A file that is not a checkpoint says so rather than "not a backend".
    return Failed(target.status());
  }
  Result<std::vector<StackSummary>> stacks = HistoryBackend(first);
  if (!stacks.ok()) return Failed(stacks.status());
  if (json) {
    report::RenderBackendJson(*stacks, std::cout);
  } else {
    report::RenderBackendText(*stacks, std::cout);
  }
  return kExitOk;
}

}  // namespace

std::function<int()> SetupHistory(CLI::App& app) {
  auto flags = std::make_shared<HistoryFlags>();
  app.add_option("args", flags->args,
                 "BACKEND_DIR or STACKREF (a stack's checkpoint under "
                 ".pulumi/stacks/), or: restore STACKREF@VERSION, prune "
                 "BACKEND_DIR|STACKREF, blame STACKREF URN [PROPERTY_PATH]")
      ->type_name("[restore|prune|blame] ARGS")
      ->required();
  app.add_option("--format", flags->format, "text (default) or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->type_name("FORMAT");
  app.add_flag("--verify", flags->verify,
               "Verify each update's checkpoint copy (listing otherwise "
               "reads only the small history files)");
  app.add_option("-o,--output", flags->output,
                 "restore: write the version as an export `pulumi stack "
                 "import` accepts (- is standard output)")
      ->type_name("FILE");
  app.add_flag("--in-place", flags->in_place,
               "restore: make the version the stack's current checkpoint, "
               "keeping the current one as .bak (refused while locked)");
  app.add_option("--keep", flags->keep,
                 "prune: keep the newest N updates (and N backups) of each "
                 "stack")
      ->type_name("N");
  app.add_option("--older-than", flags->older_than,
                 "prune: only files older than DURATION (30d, 12h, 2w)")
      ->type_name("DURATION");
  app.add_option("--as-of", flags->as_of,
                 "prune: the time --older-than counts back from (default "
                 "now)")
      ->type_name("TIME");
  app.add_flag("--yes", flags->yes,
               "prune: delete the files (without it they are only listed)");
  return [flags] { return RunHistory(*flags); };
}

}  // namespace pstate::cli
