// `pstate scan`'s core entry point: the findings of one input.
//
// The core owns the two-pass decision: the state's own secrets are
// collected first (a leak may come before its secret in the file), then
// every resource is scanned. The input is opened replayable
// (io::OpenReplayable), so gzip, zstd and standard input are scanned
// exactly as a plain file is: decoded once into a private temporary file.
#ifndef PSTATE_SCAN_RUN_H_
#define PSTATE_SCAN_RUN_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/result.h"
#include "crypto/fingerprint.h"
#include "diag/report.h"
#include "io/spool.h"
#include "scan/leak_scan_handler.h"
#include "state/reader.h"

namespace pstate::scan {

struct Config {
  std::string input = "-";  ///< path, or "-" for standard input
  /// Findings kept for printing (0 = all); counts are never capped.
  std::size_t max_findings = 0;
  /// Keys the fingerprints of findings; required.
  const crypto::Fingerprinter* fingerprinter = nullptr;
  /// Decrypting ciphertext secrets (--decrypt), with the passphrase the
  /// caller resolved: the core reads no environment.
  DecryptOptions decrypt;
  io::SpoolOptions spool;
  /// (source bytes consumed, source size or 0), for each pass.
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
  /// Optional, not owned: a handler fed the findings pass beside the leak
  /// scanner, whose findings join the report (`scan --schema`: the
  /// secrets-only package-schema checks, verify::SchemaChecks). It sees
  /// the same replayed bytes, so standard input and compressed inputs work
  /// as files do. One handler per input: it may keep state across a pass.
  state::Handler* extra_checks = nullptr;
  /// Threads for the findings pass (engine::Options::jobs): resources are
  /// scanned in parallel when the input is a plain file and there are no
  /// extra checks; otherwise, and with 1, the pass reads sequentially. The
  /// findings are the same either way.
  int jobs = 1;
};

struct Outcome {
  /// Always set. An unreadable input is its one fatal finding (fatal()).
  std::unique_ptr<diag::Report> report;
  /// Decryption was asked for but is impossible (a wrong or missing
  /// passphrase, a provider that needs a cloud service): "FILE: reason".
  /// The report is then incomplete and must not be printed as a result.
  Status status;
  /// Secrets whose ciphertext could not be decrypted (not matched).
  std::uint64_t undecryptable = 0;
};

Outcome Run(const Config& config);

}  // namespace pstate::scan

#endif  // PSTATE_SCAN_RUN_H_
