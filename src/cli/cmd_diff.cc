// pstate diff A B: what changed between two states (exit 0 same, 1
// different, 2 unreadable, as diff(1)).
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli/command.h"
#include "cli/count_option.h"
#include "cli/exit_code.h"
#include "crypto/passphrase_source.h"
#include "diff/differ.h"
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
};

int RunDiff(const DiffFlags& flags) {
  diff::DiffConfig config;
  config.before = flags.before;
  config.after = flags.after;
  config.show_secrets = flags.show_secrets;
  std::optional<std::filesystem::path> file;
  if (!flags.passphrase_file.empty()) file = flags.passphrase_file;
  config.passphrase = [file] { return crypto::ResolvePassphrase(file); };
  Result<diff::DiffResult> result = diff::Run(config);
  if (!result.ok()) {
    report::PrintError(std::cerr, result.status().message());
    return kExitUnreadable;
  }
  if (flags.format == "json") {
    std::cout << report::RenderDiffJson(*result, flags.limit);
  } else {
    std::cout << report::RenderDiffText(*result, flags.stat, flags.limit);
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
  app.add_flag("--stat", flags->stat, "Print the counts only (text format)");
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
      "File holding the passphrase (trimmed); otherwise "
      "PULUMI_CONFIG_PASSPHRASE, then PULUMI_CONFIG_PASSPHRASE_FILE. "
      "With one, secrets with different ciphertexts are compared "
      "by value");
  return [flags] { return RunDiff(*flags); };
}

}  // namespace pstate::cli
