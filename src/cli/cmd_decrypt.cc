// pstate decrypt IN [-o OUT] and pstate encrypt IN [-o OUT]: between a
// state's encrypted form and the `pulumi stack export --show-secrets` form.
#include <iostream>
#include <memory>
#include <string>

#include "base/thread_pool.h"
#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/input_limits.h"
#include "cli/passphrase.h"
#include "cli/terminal.h"
#include "report/normalize.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

struct CryptFlags {
  bool decrypt = true;  ///< decrypt, else encrypt
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
  const char* name = flags.decrypt ? "decrypt" : "encrypt";
  CryptConfig config;
  config.output = flags.output;
  config.compact = flags.compact;
  config.jobs = flags.jobs;
  // Asked only when the state uses the passphrase provider.
  config.passphrase = PassphraseFromFlags(flags.passphrase_file);
  Result<State> state = OpenState(flags.input);
  if (!state.ok()) {
    report::PrintError(std::cerr, state.status().message());
    return kExitUnreadable;
  }
  config.on_progress = MakeProgress(flags.input, flags.quiet);
  Result<CryptResult> stats =
      flags.decrypt ? Decrypt(*state, config) : Encrypt(*state, config);
  EndProgress();
  if (!stats.ok()) {
    report::PrintError(std::cerr, stats.status().message());
    // A refusal is about the state's content, as a finding is (exit 1);
    // everything else means the input could not be used at all.
    return stats.status().code() == pstate::Errc::kRefused ? kExitFindings
                                                           : kExitUnreadable;
  }
  if (!flags.quiet) {
    const CryptResult& s = *stats;
    std::cerr << "pstate " << name << ": " << s.secrets << " secrets "
              << (flags.decrypt ? "decrypted" : "encrypted") << " ("
              << s.distinct << " distinct"
              << (s.provider.empty() ? std::string()
                                     : ", provider " + s.provider)
              << ")\n";
    report::RenderInexactStrings(s.inexact_strings, std::cerr);
  }
  return kExitOk;
}

std::function<int()> Setup(CLI::App& app, bool decrypt) {
  auto flags = std::make_shared<CryptFlags>();
  flags->decrypt = decrypt;
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
  return Setup(app, /*decrypt=*/true);
}

std::function<int()> SetupEncrypt(CLI::App& app) {
  return Setup(app, /*decrypt=*/false);
}

}  // namespace pstate::cli
