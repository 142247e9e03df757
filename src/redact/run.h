// `pstate redact`'s core entry point: one input, one output, the stats.
//
// The core owns the two-pass decision: with `leaks`, every secret plaintext
// of the state is collected in a first pass (a leak may come before its
// secret in the file) and the redaction is the second pass. The input is
// opened replayable (io::OpenReplayable), so gzip, zstd and standard input
// work as a plain file does: they are decoded once into a private
// temporary file.
#ifndef PSTATE_REDACT_RUN_H_
#define PSTATE_REDACT_RUN_H_

#include <cstdint>
#include <functional>
#include <string>

#include "base/result.h"
#include "io/spool.h"
#include "json/writer.h"
#include "redact/redactor.h"

namespace pstate::redact {

struct Config {
  std::string input = "-";   ///< path, or "-" for standard input
  std::string output = "-";  ///< path, or "-" for standard output
  json::Layout layout = json::Layout::kIndented;
  /// What to redact. `options.known_secrets` is set by Run.
  RedactOptions options;
  /// Where a compressed or piped input is decoded for the second pass.
  io::SpoolOptions spool;
  /// (source bytes consumed, source size or 0), for each pass.
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
};

/// Redacts `config.input` into `config.output`. A failure is a Status
/// located as "FILE:LINE:COLUMN: reason" (or "FILE: reason"); the output
/// then does not appear (see state/rewrite.h).
Result<RedactStats> Run(Config config);

}  // namespace pstate::redact

#endif  // PSTATE_REDACT_RUN_H_
