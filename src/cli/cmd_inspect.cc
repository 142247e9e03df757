// pstate ls, show, tree and stats: looking into a state (issue 13 §1).
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/count_option.h"
#include "cli/exit_code.h"
#include "cli/select_options.h"
#include "crypto/passphrase_source.h"
#include "inspect/inspect.h"
#include "report/inspect.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

int Fail(const Status& status) {
  report::PrintError(std::cerr, status.message());
  return kExitUnreadable;
}

void AddFormat(CLI::App& app, std::string* format) {
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
};

int RunLs(const LsFlags& f) {
  inspect::ListConfig config;
  static_cast<state::Selector&>(config) = ToSelector(f.select);
  config.path = f.path;
  config.pending = f.pending;
  const bool json = f.format == "json";
  std::uint64_t printed = 0;
  auto more = [&] { return f.limit == 0 || ++printed < f.limit; };
  Status status = inspect::List(
      config,
      [&](const inspect::ResourceRow& row) {
        std::cout << (json ? report::RowJson(row) : report::RowText(row))
                  << '\n';
        return more();
      },
      [&](const inspect::PendingRow& row) {
        std::cout << (json ? report::PendingJson(row)
                           : report::PendingText(row))
                  << '\n';
        return more();
      });
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
};

int RunShow(const ShowFlags& f) {
  inspect::ShowConfig config;
  config.path = f.path;
  config.urn = f.urn;
  if (f.index >= 0) config.index = static_cast<std::size_t>(f.index);
  if (f.urn.empty() && !config.index) {
    return Fail(Status(Errc::kInvalidArgument, "give a URN or --index N"));
  }
  config.show_secrets = f.show_secrets;
  std::optional<std::filesystem::path> file;
  if (!f.passphrase_file.empty()) file = f.passphrase_file;
  config.passphrase = [file] { return crypto::ResolvePassphrase(file); };
  auto result = inspect::Show(config);
  if (!result.ok()) return Fail(result.status());
  std::cout << (f.format == "json" ? report::ShowJson(*result)
                                   : report::ShowText(*result));
  return kExitOk;
}

}  // namespace

std::function<int()> SetupLs(CLI::App& app) {
  auto f = std::make_shared<LsFlags>();
  app.add_option("state", f->path, "State to list (- reads standard input)")
      ->required();
  AddSelectOptions(app, f->select);
  app.add_flag("--pending", f->pending, "List pending operations instead");
  app.add_option("--limit", f->limit, "Stop after N lines (0: no limit)")
      ->capture_default_str();
  AddFormat(app, &f->format);
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
  app.add_option(
      "--passphrase-file", f->passphrase_file,
      "File holding the passphrase (trimmed); otherwise "
      "PULUMI_CONFIG_PASSPHRASE, then PULUMI_CONFIG_PASSPHRASE_FILE");
  return [f] { return RunShow(*f); };
}

std::function<int()> SetupTree(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>("text");
  auto limit = std::make_shared<std::size_t>(0);
  app.add_option("state", *path, "State to read (- reads standard input)")
      ->required();
  AddFormat(app, format.get());
  app.add_option("--limit", *limit,
                 "Print the first N resources and how many more there are "
                 "(0: all)")
      ->check(NonNegativeCount())
      ->type_name("N")
      ->capture_default_str();
  return [path, format, limit] {
    auto tree = inspect::Tree(*path);
    if (!tree.ok()) return Fail(tree.status());
    if (*format == "json") {
      report::WriteTreeJson(*tree, std::cout, *limit);
    } else {
      report::WriteTreeText(*tree, std::cout, *limit);
    }
    return static_cast<int>(kExitOk);
  };
}

std::function<int()> SetupStats(CLI::App& app) {
  auto paths = std::make_shared<std::vector<std::string>>();
  auto format = std::make_shared<std::string>("text");
  auto top = std::make_shared<std::size_t>(10);
  auto exact = std::make_shared<bool>(false);
  app.add_option("state", *paths,
                 "State to read (- reads standard input); with two, how the "
                 "second grew from the first (per type and section)")
      ->required()
      ->expected(1, 2);
  app.add_option("--top", *top,
                 "How many of the largest resources to list (default 10)");
  app.add_flag("--bytes", *exact,
               "Exact byte counts instead of KiB, MiB and GiB");
  AddFormat(app, format.get());
  return [paths, format, top, exact] {
    const bool json = *format == "json";
    inspect::SizeStats sizes[2];
    std::vector<inspect::StatsResult> results;
    for (std::size_t i = 0; i < paths->size(); ++i) {
      auto stats = inspect::Stats((*paths)[i], *top, &sizes[i]);
      if (!stats.ok()) return Fail(stats.status());
      results.push_back(std::move(*stats));
    }
    if (results.size() == 2) {
      report::StatsSide a{&results[0], &sizes[0]}, b{&results[1], &sizes[1]};
      std::cout << (json ? report::StatsGrowthJson(a, b)
                         : report::StatsGrowthText(a, b, *exact));
      return static_cast<int>(kExitOk);
    }
    report::StatsOptions options;
    options.exact_bytes = *exact;
    options.sizes = &sizes[0];
    std::cout << (json ? report::StatsJson(results[0], &sizes[0])
                       : report::StatsText(results[0], options));
    return static_cast<int>(kExitOk);
  };
}

}  // namespace pstate::cli
