// pstate scan FILE...: secrets stored in the clear (docs/scan.md).

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/findings_output.h"
#include "cli/input_limits.h"
#include "cli/jobs.h"
#include "cli/passphrase.h"
#include "cli/terminal.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

struct ScanFlags : FindingsFlags {
  bool decrypt = false;
  std::string passphrase_file;
  std::string key_file;
  // --schema / --schema-dir (verify --schema's loader): also report
  // schema-secret-plaintext.
  std::vector<std::string> schemas;
  std::vector<std::string> schema_dirs;
  int jobs = 0;  ///< --jobs; 0 when not given
};

int RunScan(const ScanFlags& flags) {
  // One key and one passphrase for every input.
  ScanConfig config;
  if (!flags.key_file.empty()) {
    Result<FingerprintKey> key = FingerprintKey::FromFile(flags.key_file);
    if (!key.ok()) {
      report::PrintError(std::cerr, "--key-file: " + key.status().message());
      return kExitUnreadable;
    }
    config.key = std::move(*key);
  } else {
    config.key = FingerprintKey::Random();
  }
  config.decrypt = flags.decrypt || !flags.passphrase_file.empty();
  if (config.decrypt) {
    auto passphrase = ResolvePassphrase(flags.passphrase_file);
    if (passphrase.ok()) {
      config.passphrase = std::move(*passphrase);
    } else if (!flags.passphrase_file.empty() ||
               passphrase.status().code() != Errc::kInvalidArgument) {
      report::PrintError(std::cerr, passphrase.status().message());
      return kExitUnreadable;
    }
    // No passphrase anywhere: fine unless a state uses the passphrase provider.
  }

  std::optional<Schemas> schemas;
  if (!flags.schemas.empty() || !flags.schema_dirs.empty()) {
    Result<Schemas> loaded = Schemas::Load(flags.schemas, flags.schema_dirs);
    if (!loaded.ok()) {
      report::PrintError(std::cerr, loaded.status().message());
      return kExitUnreadable;
    }
    schemas = std::move(*loaded);
    // --schema: schema-secret-plaintext, checked in scan's findings pass.
    config.schemas = &*schemas;
  }
  config.max_findings = flags.max_findings;
  config.jobs = PassJobs(flags.jobs);

  FindingsPrinter printer(flags);
  for (const std::string& path : flags.files) {
    const std::string name = InputName(path);
    Result<State> state = OpenState(path);
    if (!state.ok()) {
      printer.Print(ScanUnopened(name, state.status()).findings);
      continue;
    }
    // Scan reads every input twice: known secrets, then leaks.
    config.on_progress =
        MakeProgress(name, flags.quiet, {"collecting secrets", "scanning"});
    Result<ScanResult> result = Scan(*state, config);
    EndProgress();
    if (!result.ok()) {
      report::PrintError(std::cerr, result.status().message());
      printer.MarkUnreadable();
      continue;
    }
    if (result->undecryptable > 0) {
      std::cerr << "pstate: warning: " << result->findings.file << ": "
                << result->undecryptable
                << " secret(s) could not be decrypted and are not matched\n";
    }
    printer.Print(std::move(result->findings));
  }
  return printer.Finish();
}

}  // namespace

std::function<int()> SetupScan(CLI::App& app) {
  auto flags = std::make_shared<ScanFlags>();
  AddFindingsOptions(app, *flags);
  app.add_flag("--decrypt", flags->decrypt,
               "Also decrypt ciphertext secrets (passphrase or b64 provider) "
               "so their plaintexts are searched for; the passphrase comes "
               "from --passphrase-file, PULUMI_CONFIG_PASSPHRASE or "
               "PULUMI_CONFIG_PASSPHRASE_FILE");
  app.add_option("--passphrase-file", flags->passphrase_file,
                 "Read the passphrase from this file (implies --decrypt)");
  app.add_option("--key-file", flags->key_file,
                 "Key for fingerprints, so they match across runs (default: "
                 "a random key per run)");
  AddPassJobsOption(app, &flags->jobs, "Scan");
  app.add_option("--schema", flags->schemas,
                 "Also report properties a package schema marks secret that "
                 "are stored in plaintext (schema-secret-plaintext; see "
                 "verify --schema); repeatable")
      ->allow_extra_args(false);
  app.add_option("--schema-dir", flags->schema_dirs,
                 "A directory of package schemas (*.json, *.json.gz), as "
                 "--schema; repeatable")
      ->allow_extra_args(false);
  return [flags] { return RunScan(*flags); };
}

}  // namespace pstate::cli
