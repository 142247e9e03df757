// One Normalizer pass over one input stream into one output: the setup
// `pstate normalize` and `pstate convert` share (reading, locating a
// failure, collecting the notes), so each command keeps only its own
// decisions (check, in place, a second pass; surveys and verification).
#ifndef PSTATE_NORMALIZE_PASS_H_
#define PSTATE_NORMALIZE_PASS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "diag/report.h"
#include "io/input.h"
#include "io/output.h"
#include "normalize/normalizer.h"

namespace pstate::normalize {

/// What a pass wrote and noted.
struct PassOutcome {
  Layout layout = Layout::kExport;
  std::vector<Note> notes;
  std::uint64_t counts[kNoteKinds] = {};  ///< notes by NoteKind
};

struct PassOptions {
  Options options;
  Mode mode = Mode::kStream;
  /// The input's name in messages ("<stdin>" for standard input).
  std::string shown;
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
};

/// The result of RunPass: on failure, `status` is located and the output
/// was abandoned (nothing of it appears); `needs_reorder` says the input's
/// members are out of Go's order and a kSpool pass would succeed.
struct PassResult {
  Status status;
  bool needs_reorder = false;
  PassOutcome outcome;
};

/// Reads `input` through a Normalizer into `out`, then commits `out`. A
/// failure's message is diag::Failure::Located() ("FILE:LINE:COLUMN:
/// reason (at POINTER)"), whether the reader or the normalizer found it.
PassResult RunPass(io::InputStream& input, io::Output& out,
                   const PassOptions& options);

/// The output options for writing `output`: `compression` when given, else
/// the one the name asks for (".gz", ".zst").
io::OutputOptions OutputOptionsFor(const std::string& output,
                                   std::optional<io::Compression> compression);

}  // namespace pstate::normalize

#endif  // PSTATE_NORMALIZE_PASS_H_
