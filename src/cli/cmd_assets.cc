// pstate assets FILE...: does every asset and archive in the state still
// hash to what the state recorded?
//
// Flags -> AssetsConfig -> pstate::Assets, rendered by report/assets.h;
// rows stream out in state order as they are hashed.
#include <cstdint>
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
#include "cli/input_limits.h"
#include "cli/terminal.h"
#include "report/assets.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

struct AssetsFlags {
  std::vector<std::string> files;
  std::string root = ".";
  std::string format = "text";
  int jobs = DefaultJobs();
  bool quiet = false;
  bool allow_outside_root = false;
  AssetTotals totals;
};

int RunAssets(const AssetsFlags& flags) {
  AssetsConfig config;
  config.root = flags.root;
  config.allow_outside_root = flags.allow_outside_root;
  config.totals = flags.totals;
  config.jobs = flags.jobs;
  // One run for all files: the totals bound the whole command.
  config.run = NewAssetRun(config);
  const report::AssetsFormat format = flags.format == "json"
                                          ? report::AssetsFormat::kJson
                                          : report::AssetsFormat::kText;
  bool unreadable = false, failed = false;
  for (const std::string& path : flags.files) {
    const std::string name = InputName(path);
    std::unique_ptr<report::AssetsRenderer> renderer =
        report::MakeAssetsRenderer(format, name, std::cout);
    AssetsResult result;
    Result<State> state = OpenState(path);
    if (!state.ok()) {
      result.failure = ReadFailureOf(name, state.status());
    } else {
      config.on_progress = MakeProgress(name, flags.quiet);
      // The progress line is cleared before each row reaches standard
      // output, so a terminal never shows a row glued to it (it is drawn
      // again at the next progress update).
      config.on_row = [&renderer](AssetRow&& row) {
        EndProgress();
        renderer->Row(row);
      };
      Result<AssetsResult> run = Assets(*state, config);
      if (run.ok()) {
        result = std::move(*run);
      } else {
        result.failure = ReadFailureOf(name, run.status());
      }
    }
    EndProgress();
    renderer->End(result.tally, result.failure);
    std::cout.flush();
    if (result.failure) {
      report::PrintError(std::cerr, result.failure->status.message());
      unreadable = true;
    }
    failed |= result.tally.failed();
  }
  if (unreadable) return kExitUnreadable;
  return failed ? kExitFindings : kExitOk;
}

}  // namespace

std::function<int()> SetupAssets(CLI::App& app) {
  auto flags = std::make_shared<AssetsFlags>();
  app.add_option("files", flags->files,
                 "State files (export or checkpoint; plain, gzip or zstd); "
                 "- reads standard input")
      ->required();
  app.add_option("--root", flags->root,
                 "Directory relative asset paths resolve against (Pulumi: "
                 "the program's working directory)")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
  app.add_option("--format", flags->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_option("-j,--jobs", flags->jobs,
                 "Hash on N threads (default: the number of processors)")
      ->check(CLI::Range(1, kMaxJobs));
  app.add_flag("--allow-outside-root", flags->allow_outside_root,
               "Also read files outside --root (absolute paths, file: URIs, "
               "../ paths, links leading out); their hashes are compared but "
               "never printed");
  app.add_option("--max-total-bytes", flags->totals.max_bytes,
                 "Stop hashing after N content bytes in this run (each file "
                 "is hashed once per run)")
      ->check(CLI::Range(std::uint64_t{1}, UINT64_MAX))
      ->capture_default_str();
  app.add_option("--max-total-members", flags->totals.max_members,
                 "Stop after N archive members in this run")
      ->check(CLI::Range(std::uint64_t{1}, UINT64_MAX))
      ->capture_default_str();
  app.add_option("--max-total-expanded-bytes", flags->totals.max_expanded_bytes,
                 "Stop after N bytes read out of tar, tgz and zip files in "
                 "this run")
      ->check(CLI::Range(std::uint64_t{1}, UINT64_MAX))
      ->capture_default_str();
  AddQuietOption(app, &flags->quiet);
  return [flags] { return RunAssets(*flags); };
}

}  // namespace pstate::cli
