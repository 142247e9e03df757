// pstate assets FILE...: does every asset and archive in the state still
// hash to what the state recorded?
//
// Flags -> assets::Config -> assets::Run, rendered by report/assets.h;
// rows stream out in state order as they are hashed.
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "asset_hash/hasher.h"
#include "asset_hash/run_budget.h"
#include "assets/run.h"
#include "base/thread_pool.h"
#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/terminal.h"
#include "report/assets.h"
#include "report/output_format.h"
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
  std::uint64_t max_total_bytes = asset_hash::kDefaultMaxTotalBytes;
  std::uint64_t max_total_members = asset_hash::kDefaultMaxTotalMembers;
  std::uint64_t max_total_expanded_bytes =
      asset_hash::kDefaultMaxTotalExpandedBytes;
};

/// Clears the progress line before each row reaches standard output, so a
/// terminal never shows a row glued to the progress text (the line is drawn
/// again at the next progress update).
class ProgressClearingSink : public assets::RowSink {
 public:
  explicit ProgressClearingSink(assets::RowSink& next) : next_(next) {}
  void Row(assets::ItemResult&& result) override {
    EndProgress();
    next_.Row(std::move(result));
  }
  void End(const assets::Tally& tally,
           const std::optional<diag::Failure>& failure) override {
    EndProgress();
    next_.End(tally, failure);
  }

 private:
  assets::RowSink& next_;
};

int RunAssets(const AssetsFlags& flags) {
  asset_hash::Options options;
  options.root = flags.root;
  options.outside_root = flags.allow_outside_root
                             ? asset_hash::OutsideRoot::kReadHashHidden
                             : asset_hash::OutsideRoot::kRefuse;
  options.max_total_bytes = flags.max_total_bytes;
  options.max_total_members = flags.max_total_members;
  options.max_total_expanded_bytes = flags.max_total_expanded_bytes;
  // One run for all files: the totals bound the whole command.
  options.run = std::make_shared<asset_hash::RunBudget>(options);
  report::OutputFormat format = report::ParseOutputFormat(flags.format)
                                    .value_or(report::OutputFormat::kText);
  bool unreadable = false, failed = false;
  for (const std::string& path : flags.files) {
    const std::string name = path == "-" ? "<stdin>" : path;
    assets::Config config;
    config.input = path;
    config.options = options;
    config.jobs = flags.jobs;
    config.on_progress = MakeProgress(name, flags.quiet);
    std::unique_ptr<assets::RowSink> renderer =
        report::MakeAssetsRenderer(format, name, std::cout);
    ProgressClearingSink sink(*renderer);
    assets::Outcome outcome = assets::Run(config, sink);
    EndProgress();
    std::cout.flush();
    if (outcome.failure) {
      report::PrintError(std::cerr, *outcome.failure);
      unreadable = true;
    }
    failed |= outcome.failed();
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
  app.add_option("--max-total-bytes", flags->max_total_bytes,
                 "Stop hashing after N content bytes in this run (each file "
                 "is hashed once per run)")
      ->check(CLI::Range(std::uint64_t{1}, UINT64_MAX))
      ->capture_default_str();
  app.add_option("--max-total-members", flags->max_total_members,
                 "Stop after N archive members in this run")
      ->check(CLI::Range(std::uint64_t{1}, UINT64_MAX))
      ->capture_default_str();
  app.add_option("--max-total-expanded-bytes", flags->max_total_expanded_bytes,
                 "Stop after N bytes read out of tar, tgz and zip files in "
                 "this run")
      ->check(CLI::Range(std::uint64_t{1}, UINT64_MAX))
      ->capture_default_str();
  AddQuietOption(app, &flags->quiet);
  return [flags] { return RunAssets(*flags); };
}

}  // namespace pstate::cli
