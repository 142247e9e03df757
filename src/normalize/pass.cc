#include "pstate/normalize/pass.h"

#include <utility>

#include "pstate/state/reader.h"

namespace pstate::normalize {

Status LocatedFailure(const diag::Report& report, const Status& status) {
  for (const diag::Finding& f : report.findings()) {
    if (!diag::IsFatal(f.code)) continue;
    std::string out = report.file();
    if (f.line > 0) {
      out.append(":").append(std::to_string(f.line));
      out.append(":").append(std::to_string(f.column));
    }
    if (!f.pointer.empty()) out += ": " + f.pointer;
    return Status(status.ok() ? Errc::kFormat : status.code(),
                  out + ": " + f.message);
  }
  // The normalizer's own failures start with "line:column: ".
  const std::string& m = status.message();
  bool located = !m.empty() && m[0] >= '0' && m[0] <= '9';
  return Status(status.code(), report.file() + (located ? ":" : ": ") + m);
}

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
    result.status = LocatedFailure(report, status);
    return result;
  }
  result.status = out.Commit();
  if (!result.status.ok()) return result;
  result.outcome.layout = normalizer.layout();
  result.outcome.notes = normalizer.notes();
  for (std::size_t k = 0; k < 4; ++k) {
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
