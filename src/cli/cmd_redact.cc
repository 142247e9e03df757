// pstate redact IN [-o OUT]: a copy of a state without its secrets.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/input_limits.h"
#include "cli/terminal.h"
#include "report/redact.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

struct RedactFlags {
  std::string input;
  std::string output = "-";
  const CLI::Option* output_option = nullptr;
  bool compact = false;
  bool quiet = false;
  bool fingerprint = false;
  std::string key_file;
  std::vector<std::string> also;
  bool leaks = false;  // the default; kept so old command lines still work
  bool keep_leaks = false;
  bool anonymize = false;
};

int RunRedact(const RedactFlags& flags) {
  if (RefuseStateOnTerminal(*flags.output_option, nullptr)) {
    return kExitUnreadable;
  }
  RedactConfig config;
  if (!flags.key_file.empty() && !flags.fingerprint && !flags.anonymize) {
    return Fail("--key-file applies to --fingerprint and --anonymize");
  }
  if (!flags.key_file.empty()) {
    Result<FingerprintKey> key = FingerprintKey::FromFile(flags.key_file);
    if (!key.ok()) return Fail("--key-file: " + key.status().message());
    config.key = std::move(*key);
  }
  config.fingerprint = flags.fingerprint;
  config.anonymize = flags.anonymize;
  config.also = flags.also;
  config.leaks = !flags.keep_leaks;
  config.output = flags.output;
  config.compact = flags.compact;
  Result<State> state = OpenState(flags.input);
  if (!state.ok()) return Fail(state.status().message());
  config.on_progress = MakeProgress(flags.input, flags.quiet);
  Result<RedactResult> stats = Redact(*state, config);
  EndProgress();
  if (!stats.ok()) return Fail(stats.status().message());
  if (!flags.quiet) {
    report::RedactSummaryOptions summary;
    summary.also = !flags.also.empty();
    summary.keep_leaks = flags.keep_leaks;
    summary.anonymize = flags.anonymize;
    summary.anonymized = stats->anonymized;
    report::RenderRedactSummary(*stats, summary, std::cerr);
  }
  return kExitOk;
}

}  // namespace

std::function<int()> SetupRedact(CLI::App& app) {
  auto flags = std::make_shared<RedactFlags>();
  app.add_option("input", flags->input,
                 "State to redact (export or checkpoint; plain, gzip or "
                 "zstd); - reads standard input")
      ->required();
  flags->output_option =
      app.add_option("-o,--output", flags->output,
                     "Where to write (default: standard output, never a "
                     "terminal). A file appears only when the whole state "
                     "was redacted");
  app.add_flag("--compact", flags->compact,
               "One-line layout of file-backend checkpoints instead of "
               "`pulumi stack export`'s 4-space layout");
  app.add_flag("-q,--quiet", flags->quiet,
               "No progress line and no summary on stderr");
  app.add_flag("--anonymize", flags->anonymize,
               "Also replace cloud account, subscription and project IDs, "
               "e-mail and IP addresses, cloud hostnames and home-directory "
               "user names by consistent pseudonyms (keyed as --fingerprint)");
  app.add_flag(
      "--fingerprint", flags->fingerprint,
      "Replace each secret by a keyed HMAC-SHA256 fingerprint instead of a "
      "fixed placeholder (equal secrets stay equal)");
  app.add_option("--key-file", flags->key_file,
                 "Key of --fingerprint and --anonymize: the file's exact "
                 "bytes. Without it a random key is used, so fingerprints and "
                 "pseudonyms only compare within one run");
  app.add_option("--also", flags->also,
                 "Also redact plain values under property names matching this "
                 "glob (* and ?, case-insensitive); repeatable")
      ->take_last()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  auto* leaks = app.add_flag(
      "--leaks", flags->leaks,
      "Redact every plaintext credential `pstate scan` reports (the "
      "default)");
  app.add_flag("--keep-leaks", flags->keep_leaks,
               "Keep plaintext credentials that are not secrets (only count "
               "them): the behaviour before --leaks became the default")
      ->excludes(leaks);
  return [flags] { return RunRedact(*flags); };
}

}  // namespace pstate::cli
