#include "normalize/pass.h"

#include <utility>

#include "diag/failure.h"
#include "state/reader.h"

namespace pstate::normalize {

PassResult RunPass(io::InputStream& input, io::Output& out,
                   const PassOptions& options) {
  PassResult result;
  Normalizer normalizer(out, options.options, options.mode);
  diag::Report report(options.shown);
  state::ReadOptions read_options;
  read_options.on_progress = options.on_progress;
  Status status = state::Read(input, normalizer, report, read_options);
  if (!status.ok()) {
    out.Abandon();
    result.needs_reorder = normalizer.needs_reorder();
    if (normalizer.failure() && !report.fatal()) {
      diag::Failure f = *normalizer.failure();
      f.file = report.file();
      result.status = f.ToStatus();
    } else {
      result.status = diag::FailureOf(report, status).ToStatus();
    }
    return result;
  }
  result.status = out.Commit();
  if (!result.status.ok()) return result;
  result.outcome.layout = normalizer.layout();
  result.outcome.notes = normalizer.notes();
  for (std::size_t k = 0; k < kNoteKinds; ++k) {
    result.outcome.counts[k] = normalizer.note_count(static_cast<NoteKind>(k));
  }
  return result;
}

io::OutputOptions OutputOptionsFor(const std::string& output,
                                   std::optional<io::Compression> compression) {
  io::OutputOptions options;
  options.compression =
      compression ? *compression : io::CompressionForName(output);
  return options;
}

}  // namespace pstate::normalize
