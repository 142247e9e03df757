// Driving a rewriting pass (redact, decrypt, encrypt) over one state:
// input -> state::Read -> pass -> json::Writer -> atomic output.
//
// The output appears only when everything succeeded: a file output is a
// temporary file renamed at the end; on any error it is removed and an
// existing file at the output path is untouched.
#ifndef PSTATE_STATE_REWRITE_H_
#define PSTATE_STATE_REWRITE_H_

#include <cstdint>
#include <functional>
#include <string>

#include "pstate/base/result.h"
#include "pstate/io/output.h"
#include "pstate/json/writer.h"
#include "pstate/state/state_writer.h"

namespace pstate::state {

/// Lets a pass hold the output back until it knows it can go on (decrypt
/// checks the passphrase first), or throw it all away after a failure.
class OutputGate {
 public:
  virtual ~OutputGate() = default;
  /// Writes what was held and streams from now on.
  virtual void Release() = 0;
  /// Drops what was held and everything written from now on.
  virtual void Discard() = 0;
};

struct RewriteOptions {
  std::string input = "-";   ///< path, or "-" for standard input
  std::string output = "-";  ///< path, or "-" for standard output
  /// How the output file is made; `holds_secrets` for decrypt's plaintext.
  io::OutputOptions output_options;
  json::Layout layout = json::Layout::kIndented;
  /// Hold all output in memory until the pass calls OutputGate::Release
  /// (or the input ends).
  bool hold_output = false;
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
};

struct RewriteJob {
  /// Builds the pass once the output exists; `gate` lives as long as the run.
  std::function<state::StateWriter::Pass(OutputGate* gate)> make_pass;
  /// The pass's own failure, asked after the input was read; a failure
  /// discards the output and becomes the result.
  std::function<Status()> pass_status;
};

/// Runs the job. Errors (kNotFound, kIo, kSyntax, kFormat, kInvalidArgument
/// when the output is the input, or the pass's status) carry a message
/// located as "file:line:column: ..." where there is a place.
Status RewriteState(const RewriteOptions& options, const RewriteJob& job);

}  // namespace pstate::state

#endif  // PSTATE_STATE_REWRITE_H_
