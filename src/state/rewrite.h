// Driving a rewriting pass (redact, decrypt, encrypt, and later normalize
// and edits) over one state: input -> state::Read -> pass -> json::Writer ->
// output.
//
// Nothing partial is ever visible. A file output is a temporary file
// renamed at the end (io::OpenOutput); on any failure it is removed and an
// existing file at the output path is untouched. An output that cannot be
// renamed into place (standard output, a FIFO, a device) is, with
// `all_or_nothing`, written to an unlinked temporary file first and copied
// to its target only after the whole input was rewritten. A pass that fails
// (its Result<LeafAction> holds a Status) stops the read at once: nothing
// more is parsed or written.
#ifndef PSTATE_STATE_REWRITE_H_
#define PSTATE_STATE_REWRITE_H_

#include <cstdint>
#include <functional>
#include <string>

#include "base/result.h"
#include "io/input.h"
#include "io/output.h"
#include "json/writer.h"
#include "state/state_writer.h"

namespace pstate::state {

struct RewriteOptions {
  /// The input's path ("-" for standard input): its name in messages, and
  /// what the output must not be.
  std::string input = "-";
  std::string output = "-";  ///< path, or "-" for standard output
  /// How the output file is made; `holds_secrets` for decrypt's plaintext.
  io::OutputOptions output_options;
  json::Layout layout = json::Layout::kIndented;
  /// Standard output, FIFOs and devices receive bytes only once the whole
  /// state was rewritten (through an unlinked 0600 temporary file in
  /// `temp_directory`, $TMPDIR when empty). For outputs that must never
  /// show a part (decrypt's plaintext, anything a failure must not leave
  /// half-written).
  bool all_or_nothing = false;
  std::string temp_directory;
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
  /// Each string the writer cannot keep byte for byte
  /// (json::Writer::OnLossyString), for the command to report.
  std::function<void(const json::Value&)> on_lossy_string;
};

/// kInvalidArgument, naming the output, when `output` is the same file as
/// `input` (pstate never modifies its input). Cheap: callers that read the
/// input more than once check this first.
Status CheckOutputIsNotInput(const std::string& input,
                             const std::string& output);

/// Reads `input` (opened by the caller: once with io::OpenInput, or one
/// pass of an io::Replayable) through `pass` into the output. Every failure
/// is a Status whose message is located as "FILE:LINE:COLUMN: reason" (or
/// "FILE: reason"): an unreadable input (kSyntax, kFormat, kIo, ...), the
/// output (kNotFound, kIo, kInvalidArgument), or the pass's own Status.
Status RewriteState(const RewriteOptions& options, io::InputStream& input,
                    const StateWriter::Pass& pass);

}  // namespace pstate::state

#endif  // PSTATE_STATE_REWRITE_H_
