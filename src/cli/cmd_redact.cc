// pstate redact IN [-o OUT]: a copy of a state without its secrets.
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/terminal.h"

#include "redact/run.h"
#include "report/normalize.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

struct RedactFlags {
  std::string input;
  std::string output = "-";
  bool compact = false;
  bool quiet = false;
  bool fingerprint = false;
  std::string key_file;
  std::vector<std::string> also;
  bool leaks = false;
};

int Fail(const std::string& message) {
  report::PrintError(std::cerr, message);
  return kExitUnreadable;
}

int RunRedact(const RedactFlags& flags) {
  redact::Config config;
  if (flags.fingerprint) {
    if (!flags.key_file.empty()) {
      auto f = crypto::Fingerprinter::FromKeyFile(flags.key_file);
      if (!f.ok()) {
        return Fail("--key-file: " + f.status().message());
      }
      config.options.fingerprinter = std::move(*f);
    } else {
      config.options.fingerprinter = crypto::Fingerprinter::WithRandomKey();
    }
  }
  config.options.also = flags.also;
  config.options.leaks = flags.leaks;
  config.input = flags.input;
  config.output = flags.output;
  config.layout =
      flags.compact ? json::Layout::kCompact : json::Layout::kIndented;
  config.on_progress = MakeProgress(flags.input, flags.quiet);
  Result<redact::RedactStats> stats = redact::Run(std::move(config));
  EndProgress();
  if (!stats.ok()) return Fail(stats.status().message());
  if (!flags.quiet) {
    const redact::RedactStats& s = *stats;
    std::cerr << "pstate redact: redacted " << s.secrets << " secrets, "
              << s.config_values << " secure config values, "
              << s.provider_values << " secrets provider values, " << s.env_vars
              << " env vars";
    if (!flags.also.empty())
      std::cerr << ", " << s.also_values << " --also values";
    if (flags.leaks) std::cerr << ", " << s.leak_values << " leaks";
    if (s.commands > 0) std::cerr << ", " << s.commands << " recorded commands";
    std::cerr << "\n";
    report::RenderInexactStrings(s.inexact_strings, std::cerr);
    if (s.reference_leaks > 0) {
      // Rewriting a URN or an ID would break the state (Pulumi refuses it):
      // say so, so nobody shares the output believing it clean.
      std::cerr << "pstate: warning: " << s.reference_leaks
                << " known secret(s) sit inside resource names, URNs or IDs "
                   "and were left in place (run `pstate scan` to see where)\n";
    }
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
  app.add_option("-o,--output", flags->output,
                 "Where to write (default: standard output). A file appears "
                 "only when the whole state was redacted")
      ->capture_default_str();
  app.add_flag("--compact", flags->compact,
               "One-line layout of file-backend checkpoints instead of "
               "`pulumi stack export`'s 4-space layout");
  app.add_flag("-q,--quiet", flags->quiet,
               "No progress line and no summary on stderr");
  auto* fp = app.add_flag(
      "--fingerprint", flags->fingerprint,
      "Replace each secret by a keyed HMAC-SHA256 fingerprint instead of a "
      "fixed placeholder (equal secrets stay equal)");
  app.add_option("--key-file", flags->key_file,
                 "Fingerprint key: the file's exact bytes. Without it a random "
                 "key is used, so fingerprints only compare within one run")
      ->needs(fp);
  app.add_option("--also", flags->also,
                 "Also redact plain values under property names matching this "
                 "glob (* and ?, case-insensitive); repeatable")
      ->take_last()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_flag("--leaks", flags->leaks,
               "Also redact every plaintext credential `pstate scan` reports");
  return [flags] { return RunRedact(*flags); };
}

}  // namespace pstate::cli
