// pstate scan FILE...: secrets stored in the clear (docs/scan.md).

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/findings_output.h"
#include "cli/terminal.h"
#include "pstate/io/input.h"
#include "pstate/crypto/fingerprint.h"
#include "pstate/crypto/passphrase_source.h"
#include "pstate/scan/known_secrets.h"
#include "pstate/scan/leak_scan_handler.h"
#include "pstate/state/reader.h"

namespace pstate::cli {
namespace {

struct ScanFlags : FindingsFlags {
  bool decrypt = false;
  std::string passphrase_file;
  std::string key_file;
};

struct FileResult {
  std::unique_ptr<diag::Report> report;
  bool failed = false;  ///< a usage-level problem, already printed
};

FileResult ScanOne(const std::string& path, const ScanFlags& flags,
                   const crypto::Fingerprinter& fingerprinter,
                   const scan::DecryptOptions& decrypt) {
  std::string name = path == "-" ? "<stdin>" : path;
  FileResult result;
  result.report = std::make_unique<diag::Report>(name, flags.max_findings);
  std::error_code ec;
  bool two_pass = path != "-" && std::filesystem::is_regular_file(path, ec);
  auto fail = [&](const Status& status) {
    std::cerr << "pstate: error: " << name << ": " << status.message() << "\n";
    result.failed = true;
  };

  scan::KnownSecrets known;
  scan::SecretCollectHandler collect(&known, decrypt);
  state::ReadOptions options;
  options.on_progress = MakeProgress(name, flags.quiet);
  if (two_pass) {
    auto input = io::OpenInput(path);
    if (!input.ok()) {
      result.report->Add(diag::MakeFinding(diag::Code::kIoError, input.status().message()));
      return result;
    }
    // The reader reports only what makes the input unreadable, so the
    // report holds nothing from this pass unless it failed.
    Status status = state::Read(**input, collect, *result.report, options);
    EndProgress();
    if (!status.ok() && result.report->fatal()) return result;
    if (!collect.error().ok()) {
      fail(collect.error());
      return result;
    }
    if (collect.undecryptable() > 0) {
      std::cerr << "pstate: warning: " << name << ": " << collect.undecryptable()
                << " secret(s) could not be decrypted and are not matched\n";
    }
  }
  auto input = io::OpenInput(path);
  if (!input.ok()) {
    result.report->Add(diag::MakeFinding(diag::Code::kIoError, input.status().message()));
    return result;
  }
  scan::LeakScanHandler scan(&fingerprinter, &known, /*collect=*/!two_pass, decrypt,
                               two_pass ? collect.decryptor() : nullptr);
  Status status = state::Read(**input, scan, *result.report, options);
  EndProgress();
  if (!status.ok() && result.report->fatal()) return result;
  if (!scan.error().ok()) {
    fail(scan.error());
    return result;
  }
  return result;
}

int RunScan(const ScanFlags& flags) {
  std::optional<crypto::Fingerprinter> fingerprinter;
  if (!flags.key_file.empty()) {
    auto fp = crypto::Fingerprinter::FromKeyFile(flags.key_file);
    if (!fp.ok()) {
      std::cerr << "pstate: error: --key-file: " << fp.status().message() << "\n";
      return kExitUnreadable;
    }
    fingerprinter.emplace(std::move(*fp));
  } else {
    fingerprinter.emplace(crypto::Fingerprinter::WithRandomKey());
  }
  scan::DecryptOptions decrypt;
  decrypt.enabled = flags.decrypt || !flags.passphrase_file.empty();
  if (decrypt.enabled) {
    std::optional<std::filesystem::path> file;
    if (!flags.passphrase_file.empty()) file = flags.passphrase_file;
    auto passphrase = crypto::ResolvePassphrase(file);
    if (passphrase.ok()) {
      decrypt.passphrase = std::move(*passphrase);
    } else if (file || passphrase.status().code() != Errc::kInvalidArgument) {
      std::cerr << "pstate: error: " << passphrase.status().message() << "\n";
      return kExitUnreadable;
    }
    // No passphrase anywhere: fine unless a state uses the passphrase provider.
  }

  FindingsPrinter printer(flags);
  for (const std::string& path : flags.files) {
    FileResult result = ScanOne(path, flags, *fingerprinter, decrypt);
    if (result.failed) {
      printer.MarkUnreadable();
      continue;
    }
    printer.Print(std::move(result.report));
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
  return [flags] { return RunScan(*flags); };
}

}  // namespace pstate::cli
