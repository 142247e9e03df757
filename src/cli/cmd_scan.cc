// pstate scan FILE...: secrets stored in the clear (docs/scan.md).

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/findings_output.h"
#include "cli/jobs.h"
#include "cli/passphrase.h"
#include "cli/terminal.h"
#include "crypto/fingerprint.h"
#include "diag/report.h"
#include "report/terminal.h"
#include "scan/run.h"
#include "types/schema_set.h"
#include "verify/run.h"
#include "verify/schema_checks.h"

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
  std::optional<crypto::Fingerprinter> fingerprinter;
  if (!flags.key_file.empty()) {
    auto fp = crypto::Fingerprinter::FromKeyFile(flags.key_file);
    if (!fp.ok()) {
      report::PrintError(std::cerr, "--key-file: " + fp.status().message());
      return kExitUnreadable;
    }
    fingerprinter.emplace(std::move(*fp));
  } else {
    fingerprinter.emplace(crypto::Fingerprinter::WithRandomKey());
  }
  scan::DecryptOptions decrypt;
  decrypt.enabled = flags.decrypt || !flags.passphrase_file.empty();
  if (decrypt.enabled) {
    auto passphrase = ResolvePassphrase(flags.passphrase_file);
    if (passphrase.ok()) {
      decrypt.passphrase = std::move(*passphrase);
    } else if (!flags.passphrase_file.empty() ||
               passphrase.status().code() != Errc::kInvalidArgument) {
      report::PrintError(std::cerr, passphrase.status().message());
      return kExitUnreadable;
    }
    // No passphrase anywhere: fine unless a state uses the passphrase provider.
  }

  types::SchemaSet schemas;
  bool with_schemas = !flags.schemas.empty() || !flags.schema_dirs.empty();
  if (with_schemas) {
    Status s = verify::LoadSchemas(flags.schemas, flags.schema_dirs, &schemas);
    if (!s.ok()) {
      report::PrintError(std::cerr, s.message());
      return kExitUnreadable;
    }
  }

  FindingsPrinter printer(flags);
  for (const std::string& path : flags.files) {
    scan::Config config;
    config.input = path;
    config.max_findings = flags.max_findings;
    config.fingerprinter = &*fingerprinter;
    config.decrypt = decrypt;
    config.jobs = PassJobs(flags.jobs);
    // --schema: schema-secret-plaintext, checked in scan's findings pass.
    std::optional<verify::SchemaChecks> schema_checks;
    if (with_schemas) {
      config.extra_checks = &schema_checks.emplace(
          schemas, verify::SchemaCheckOptions{.secrets_only = true});
    }
    // scan::Run reads every input twice: known secrets, then leaks.
    config.on_progress =
        MakeProgress(path == "-" ? "<stdin>" : path, flags.quiet,
                     {"collecting secrets", "scanning"});
    scan::Outcome result = scan::Run(config);
    EndProgress();
    if (!result.status.ok()) {
      report::PrintError(std::cerr, result.status.message());
      printer.MarkUnreadable();
      continue;
    }
    if (result.undecryptable > 0) {
      std::cerr << "pstate: warning: " << result.report->file() << ": "
                << result.undecryptable
                << " secret(s) could not be decrypted and are not matched\n";
    }
    printer.Print(std::move(*result.report).Take());
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
