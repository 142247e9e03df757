// pstate redact IN [-o OUT]: a copy of a state without its secrets.
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/terminal.h"

#include "pstate/diag/report.h"
#include "pstate/io/input.h"
#include "pstate/scan/leak_scan_handler.h"
#include "pstate/redact/redactor.h"
#include "pstate/state/rewrite.h"
#include "pstate/state/reader.h"

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
  std::cerr << "pstate redact: error: " << message << "\n";
  return kExitUnreadable;
}

int RunRedact(const RedactFlags& flags) {
  redact::RedactOptions options;
  if (flags.fingerprint) {
    if (!flags.key_file.empty()) {
      auto f = crypto::Fingerprinter::FromKeyFile(flags.key_file);
      if (!f.ok()) {
        return Fail("--key-file: " + f.status().message());
      }
      options.fingerprinter = std::move(*f);
    } else {
      options.fingerprinter = crypto::Fingerprinter::WithRandomKey();
    }
  }
  options.also = flags.also;
  options.leaks = flags.leaks;
  // --leaks also redacts plain copies of the state's own secrets, which may
  // come before the secret: collect every plaintext in a first pass when
  // the input can be read twice (a regular file).
  scan::KnownSecrets known;
  std::error_code ec;
  if (flags.leaks && flags.input != "-" &&
      std::filesystem::is_regular_file(flags.input, ec)) {
    auto input = io::OpenInput(flags.input);
    if (!input.ok()) return Fail(input.status().message());
    scan::SecretCollectHandler collect(&known, scan::DecryptOptions{});
    diag::Report scratch(flags.input);
    Status status = state::Read(**input, collect, scratch);
    if (!status.ok()) return Fail(status.message());
    options.known_secrets = &known;
  }
  redact::Redactor redactor(std::move(options));
  state::RewriteOptions rewrite;
  rewrite.input = flags.input;
  rewrite.output = flags.output;
  rewrite.layout =
      flags.compact ? json::Layout::kCompact : json::Layout::kIndented;
  rewrite.on_progress = MakeProgress(flags.input, flags.quiet);
  state::RewriteJob job;
  job.make_pass = [&](state::OutputGate*) -> state::StateWriter::Pass {
    return [&](state::Leaf& leaf,
               state::Context& context) -> Result<state::LeafAction> {
      redactor.Process(leaf, context);
      return state::LeafAction::kWrite;
    };
  };
  Status status = state::RewriteState(rewrite, job);
  EndProgress();
  if (!status.ok()) return Fail(status.message());
  if (!flags.quiet) {
    const redact::RedactStats& s = redactor.stats();
    std::cerr << "pstate redact: redacted " << s.secrets << " secrets, "
              << s.config_values << " secure config values, "
              << s.provider_values << " secrets provider values, "
              << s.env_vars << " env vars";
    if (!flags.also.empty()) std::cerr << ", " << s.also_values << " --also values";
    if (flags.leaks) std::cerr << ", " << s.leak_values << " leaks";
    if (s.commands > 0) std::cerr << ", " << s.commands << " recorded commands";
    std::cerr << "\n";
    if (s.reference_leaks > 0) {
      // Rewriting a URN or an ID would break the state (Pulumi refuses it):
      // say so, so nobody shares the output believing it clean.
      std::cerr << "pstate redact: warning: " << s.reference_leaks
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
