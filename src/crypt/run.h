// `pstate decrypt` / `pstate encrypt`'s core entry point.
//
// Nothing partial is ever visible, and nothing is held in memory:
//  1. The input is opened replayable (io::OpenReplayable: a plain file is
//     reopened; gzip, zstd and standard input are decoded once into a
//     private temporary file).
//  2. A probe pass reads up to the secrets provider (Pulumi writes it
//     before the resources, so this is the envelope's first few members)
//     and checks the passphrase against its salt, as Pulumi's
//     pkg/secrets/passphrase does. A wrong passphrase fails here, before
//     the output is even opened. A provider written after the resources is
//     found all the same (the probe reads on), so its secrets decrypt.
//  3. The rewriting pass streams into the output. A file output is a
//     temporary file renamed on success; standard output, a FIFO or a
//     device receive the bytes only after the whole state was rewritten
//     (state::RewriteOptions::all_or_nothing), so a secret that fails to
//     decrypt halfway never leaves a partial plaintext behind.
#ifndef PSTATE_CRYPT_RUN_H_
#define PSTATE_CRYPT_RUN_H_

#include <cstdint>
#include <functional>
#include <string>

#include "base/result.h"
#include "crypt/crypt_pass.h"
#include "io/spool.h"
#include "json/writer.h"

namespace pstate::crypt {

struct Config {
  std::string input = "-";   ///< path, or "-" for standard input
  std::string output = "-";  ///< path, or "-" for standard output
  json::Layout layout = json::Layout::kIndented;
  /// Mode, passphrase supplier, threads. `input_name` is set by Run.
  CryptOptions options;
  io::SpoolOptions spool;
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
};

/// Decrypts or encrypts `config.input` into `config.output`. A failure is a
/// Status located as "FILE:LINE:COLUMN: reason" (or "FILE: reason"); the
/// output then holds nothing.
Result<CryptStats> Run(Config config);

/// Test hook: the decoded input bytes the last Run's probe pass read
/// before it stopped (how early a wrong passphrase ends the run).
std::uint64_t LastProbeBytesForTesting();

}  // namespace pstate::crypt

#endif  // PSTATE_CRYPT_RUN_H_
