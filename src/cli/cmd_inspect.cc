// pstate ls, show, tree and stats: looking into a state (issue 13 §1).
#include <unistd.h>

#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <pstate/pstate.h>

#include "cli/command.h"
#include "cli/count_option.h"
#include "cli/exit_code.h"
#include "cli/input_limits.h"
#include "cli/inventory.h"
#include "cli/jobs.h"
#include "cli/passphrase.h"
#include "cli/select_options.h"
#include "cli/terminal.h"
#include "report/csv.h"
#include "report/inspect.h"
#include "report/inventory.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

void AddFormat(CLI::App& app, std::string* format, bool csv = false) {
  if (csv) {
    app.add_option("--format", *format, "text, json or csv (RFC 4180)")
        ->check(CLI::IsMember({"text", "json", "csv"}))
        ->capture_default_str();
    return;
  }
  app.add_option("--format", *format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
}

struct LsFlags {
  std::string path;
  SelectFlags select;
  bool pending = false;
  std::string format = "text";
  std::uint64_t limit = 0;
  std::string color = "auto";
  bool quiet = false;
  int jobs = 0;  ///< --jobs; 0 when not given
};

int RunLs(const LsFlags& f) {
  const bool json = f.format == "json", csv = f.format == "csv";
  const bool color = !json && !csv && UseColor(f.color, STDOUT_FILENO);
  if (IsBackendDirectory(f.path)) {
    InventoryListConfig config;
    static_cast<ResourceFilter&>(config) = ToSelector(f.select);
    config.pending = f.pending;
    config.limit = f.limit;
    config.jobs = PassJobs(f.jobs);
    config.limits = InputLimitFlags();
    return LsBackend(f.path, config, f.format, color);
  }
  Result<State> state = OpenState(f.path);
  if (!state.ok()) return Fail(state.status());
  ListConfig config;
  static_cast<ResourceFilter&>(config) = ToSelector(f.select);
  config.jobs = PassJobs(f.jobs);
  report::CsvWriter writer(std::cout);
  if (csv) report::LsCsvHeader(writer, f.pending, false);
  // Rows stream while the state is read: a progress line only when they
  // do not go to the same terminal.
  if (!IsTerminal(STDOUT_FILENO)) {
    config.on_progress = MakeProgress(InputName(f.path), f.quiet);
  }
  std::uint64_t printed = 0;
  auto more = [&] { return f.limit == 0 || ++printed < f.limit; };
  auto on_row = [&](const ResourceRow& row) {
    if (csv) {
      report::RowCsv(writer, row);
    } else {
      std::cout << (json ? report::RowJson(row) : report::RowText(row, color))
                << '\n';
    }
    return more();
  };
  auto on_pending = [&](const PendingRow& row) {
    if (csv) {
      report::PendingCsv(writer, row);
    } else {
      std::cout << (json ? report::PendingJson(row) : report::PendingText(row))
                << '\n';
    }
    return more();
  };
  Status status = f.pending ? ListPending(*state, config, on_pending)
                            : List(*state, config, on_row);
  EndProgress();
  if (!status.ok()) {
    std::cout.flush();
    return Fail(status);
  }
  return kExitOk;
}

struct ShowFlags {
  std::string path;
  std::string urn;
  std::int64_t index = -1;
  std::string format = "text";
  bool show_secrets = false;
  std::string passphrase_file;
  std::string color = "auto";
  bool full = false;
};

/// How many bytes of a value `show` prints before cutting it (--full: all).
constexpr std::size_t kShowValueWidth = 200;

int RunShow(const ShowFlags& f) {
  ShowConfig config;
  config.urn = f.urn;
  if (f.index >= 0) config.index = static_cast<std::size_t>(f.index);
  if (f.urn.empty() && !config.index) {
    return Fail(Status(Errc::kInvalidArgument, "give a URN or --index N"));
  }
  config.show_secrets = f.show_secrets;
  config.passphrase = PassphraseFromFlags(f.passphrase_file);
  Result<State> state = OpenState(f.path);
  if (!state.ok()) return Fail(state.status());
  auto result = Show(*state, config);
  if (!result.ok()) return Fail(result.status());
  if (f.format == "json") {
    std::cout << report::ShowJson(*result);
  } else {
    report::ShowTextOptions options;
    options.color = UseColor(f.color, STDOUT_FILENO);
    options.max_value_width = f.full ? 0 : kShowValueWidth;
    std::cout << report::ShowText(*result, options);
  }
  return kExitOk;
}

}  // namespace

std::function<int()> SetupLs(CLI::App& app) {
  auto f = std::make_shared<LsFlags>();
  app.add_option("state", f->path,
                 "State to list (- reads standard input), or a backend "
                 "directory (every stack's checkpoint, with a stack column)")
      ->required();
  AddSelectOptions(app, f->select);
  app.add_flag("--pending", f->pending, "List pending operations instead");
  app.add_option("--limit", f->limit, "Stop after N lines (0: no limit)")
      ->capture_default_str();
  AddFormat(app, &f->format, true);
  AddPassJobsOption(app, &f->jobs, "List", /*backend=*/true);
  AddColorOption(app, &f->color);
  AddQuietOption(app, &f->quiet);
  return [f] { return RunLs(*f); };
}

std::function<int()> SetupShow(CLI::App& app) {
  auto f = std::make_shared<ShowFlags>();
  app.add_option("state", f->path, "State to read (- reads standard input)")
      ->required();
  app.add_option("urn", f->urn, "URN of the resource");
  app.add_option("--index", f->index,
                 "The resource at this position of `resources` (from 0)")
      ->check(CLI::NonNegativeNumber);
  AddFormat(app, &f->format);
  app.add_flag("--show-secrets", f->show_secrets,
               "Print secrets' values (b64, or passphrase with a passphrase)");
  app.add_option("--passphrase-file", f->passphrase_file, kPassphraseFileHelp);
  app.add_flag("--full", f->full,
               "Print long values whole (otherwise cut after " +
                   std::to_string(kShowValueWidth) + " bytes, ending in ...)");
  AddColorOption(app, &f->color);
  return [f] { return RunShow(*f); };
}

std::function<int()> SetupTree(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>("text");
  auto limit = std::make_shared<std::size_t>(0);
  auto color = std::make_shared<std::string>("auto");
  auto quiet = std::make_shared<bool>(false);
  app.add_option("state", *path, "State to read (- reads standard input)")
      ->required();
  AddFormat(app, format.get());
  AddColorOption(app, color.get());
  AddQuietOption(app, quiet.get());
  app.add_option("--limit", *limit,
                 "Print the first N resources and how many more there are "
                 "(0: all)")
      ->check(NonNegativeCount())
      ->type_name("N")
      ->capture_default_str();
  return [path, format, limit, color, quiet] {
    Result<State> state = OpenState(*path);
    if (!state.ok()) return Fail(state.status());
    TreeConfig config;
    config.on_progress = MakeProgress(InputName(*path), *quiet);
    auto tree = Tree(*state, config);
    EndProgress();
    if (!tree.ok()) return Fail(tree.status());
    if (*format == "json") {
      report::WriteTreeJson(*tree, std::cout, *limit);
    } else {
      report::WriteTreeText(*tree, std::cout, *limit,
                            UseColor(*color, STDOUT_FILENO));
    }
    return static_cast<int>(kExitOk);
  };
}

std::function<int()> SetupStats(CLI::App& app) {
  auto paths = std::make_shared<std::vector<std::string>>();
  auto format = std::make_shared<std::string>("text");
  auto top = std::make_shared<std::size_t>(10);
  auto exact = std::make_shared<bool>(false);
  auto quiet = std::make_shared<bool>(false);
  auto jobs = std::make_shared<int>(0);
  app.add_option("state", *paths,
                 "State to read (- reads standard input), or a backend "
                 "directory (figures per stack and in total); with two "
                 "states, how the second grew from the first (per type and "
                 "section)")
      ->required()
      ->expected(1, 2);
  app.add_option("--top", *top,
                 "How many of the largest resources to list (default 10)");
  app.add_flag("--bytes", *exact,
               "Exact byte counts instead of KiB, MiB and GiB");
  AddFormat(app, format.get(), true);
  AddQuietOption(app, quiet.get());
  AddPassJobsOption(app, jobs.get(), "Count", /*backend=*/true);
  return [paths, format, top, exact, quiet, jobs] {
    const bool json = *format == "json";
    for (const std::string& path : *paths) {
      if (!IsBackendDirectory(path)) continue;
      if (paths->size() == 2) {
        return Fail(Status(Errc::kInvalidArgument,
                           path + ": a backend directory; stats A B compares "
                                  "two states"));
      }
      return StatsBackend(path, *format, *exact, *jobs);
    }
    if (*format == "csv" && paths->size() == 2) {
      return Fail(Status(Errc::kInvalidArgument,
                         "--format csv: not for two states (use json)"));
    }
    std::vector<State> states;
    std::vector<StatsResult> results;
    for (const std::string& path : *paths) {
      Result<State> state = OpenState(path);
      if (!state.ok()) return Fail(state.status());
      StatsConfig config;
      config.top = *top;
      config.sizes = true;
      config.on_progress = MakeProgress(InputName(path), *quiet);
      config.jobs = PassJobs(*jobs);
      auto stats = Stats(*state, config);
      EndProgress();
      if (!stats.ok()) return Fail(stats.status());
      states.push_back(std::move(*state));
      results.push_back(std::move(*stats));
    }
    if (results.size() == 2) {
      report::StatsSide a{&results[0], &*results[0].sizes},
          b{&results[1], &*results[1].sizes};
      std::cout << (json ? report::StatsGrowthJson(a, b)
                         : report::StatsGrowthText(a, b, *exact));
      return static_cast<int>(kExitOk);
    }
    if (*format == "csv") {
      report::RenderStatsCsv(InventoryFiguresOf(states[0], results[0]),
                             InputName((*paths)[0]), std::cout);
      return static_cast<int>(kExitOk);
    }
    report::StatsOptions options;
    options.exact_bytes = *exact;
    options.sizes = &*results[0].sizes;
    std::cout << (json ? report::StatsJson(results[0], options.sizes)
                       : report::StatsText(results[0], options));
    return static_cast<int>(kExitOk);
  };
}

}  // namespace pstate::cli
