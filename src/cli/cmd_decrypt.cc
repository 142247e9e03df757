// pstate decrypt IN [-o OUT] and pstate encrypt IN [-o OUT]: between a
// state's encrypted form and the `pulumi stack export --show-secrets` form.
#include <iostream>
#include <memory>
#include <string>

#include "base/thread_pool.h"
#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/passphrase.h"
#include "cli/terminal.h"
#include "crypt/run.h"
#include "report/normalize.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

struct CryptFlags {
  crypt::CryptMode mode = crypt::CryptMode::kDecrypt;
  std::string input;
  std::string output = "-";
  const CLI::Option* output_option = nullptr;
  std::string passphrase_file;
  int jobs = DefaultJobs();
  bool compact = false;
  bool quiet = false;
};

int RunCrypt(const CryptFlags& flags) {
  if (RefuseStateOnTerminal(*flags.output_option, nullptr)) {
    return kExitUnreadable;
  }
  const char* name =
      flags.mode == crypt::CryptMode::kDecrypt ? "decrypt" : "encrypt";
  crypt::Config config;
  config.input = flags.input;
  config.output = flags.output;
  config.layout =
      flags.compact ? json::Layout::kCompact : json::Layout::kIndented;
  config.options.mode = flags.mode;
  config.options.jobs = flags.jobs;
  // Asked only when the state uses the passphrase provider.
  config.options.passphrase = PassphraseFromFlags(flags.passphrase_file);
  config.on_progress = MakeProgress(flags.input, flags.quiet);
  Result<crypt::CryptStats> stats = crypt::Run(std::move(config));
  EndProgress();
  if (!stats.ok()) {
    report::PrintError(std::cerr, stats.status().message());
    // A refusal is about the state's content, as a finding is (exit 1);
    // everything else means the input could not be used at all.
    return stats.status().code() == pstate::Errc::kRefused ? kExitFindings
                                                           : kExitUnreadable;
  }
  if (!flags.quiet) {
    const crypt::CryptStats& s = *stats;
    std::cerr << "pstate " << name << ": " << s.secrets << " secrets "
              << (flags.mode == crypt::CryptMode::kDecrypt ? "decrypted"
                                                           : "encrypted")
              << " (" << s.distinct << " distinct"
              << (s.provider.empty() ? std::string()
                                     : ", provider " + s.provider)
              << ")\n";
    report::RenderInexactStrings(s.inexact_strings, std::cerr);
  }
  return kExitOk;
}

std::function<int()> Setup(CLI::App& app, crypt::CryptMode mode) {
  auto flags = std::make_shared<CryptFlags>();
  flags->mode = mode;
  bool decrypt = mode == crypt::CryptMode::kDecrypt;
  app.add_option("input", flags->input,
                 decrypt ? "State whose secrets to decrypt; - reads standard "
                           "input"
                         : "State in --show-secrets form to encrypt; - reads "
                           "standard input")
      ->required();
  flags->output_option =
      app.add_option("-o,--output", flags->output,
                     "Where to write (default: standard output, never a "
                     "terminal). A file appears only when every secret was "
                     "handled");
  app.add_option("--passphrase-file", flags->passphrase_file,
                 kPassphraseFileHelp);
  // One spelling for every command: -j/--jobs, 1 to 1024, default the
  // number of processors. --threads is the old name, still accepted.
  app.add_option("-j,--jobs,--threads", flags->jobs,
                 "Decrypt or encrypt on N threads, 1 to 1024 (default: the "
                 "number of processors)")
      ->check(CLI::Range(1, kMaxJobs));
  app.add_flag("--compact", flags->compact,
               "One-line layout of file-backend checkpoints instead of "
               "`pulumi stack export`'s 4-space layout");
  app.add_flag("-q,--quiet", flags->quiet,
               "No progress line and no summary on stderr");
  return [flags] { return RunCrypt(*flags); };
}

}  // namespace

std::function<int()> SetupDecrypt(CLI::App& app) {
  return Setup(app, crypt::CryptMode::kDecrypt);
}

std::function<int()> SetupEncrypt(CLI::App& app) {
  return Setup(app, crypt::CryptMode::kEncrypt);
}

}  // namespace pstate::cli
