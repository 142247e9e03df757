#include "cli/normalize_output.h"

#include <iostream>

namespace pstate::cli {

Result<OutputForm> ParseOutputForm(const std::string& layout,
                                   const std::string& compress) {
  OutputForm form;
  if (!layout.empty()) {
    form.layout = normalize::ParseLayout(layout);
    if (!form.layout) {
      return Status(
          Errc::kInvalidArgument,
          "--layout: expected export, diy or diy-state-command, got \"" +
              layout + "\"");
    }
  }
  if (compress == "gzip") {
    form.compression = io::Compression::kGzip;
  } else if (compress == "zstd") {
    form.compression = io::Compression::kZstd;
  } else if (compress == "none") {
    form.compression = io::Compression::kNone;
  } else if (!compress.empty()) {
    return Status(
        Errc::kInvalidArgument,
        "--compress: expected gzip, zstd or none, got \"" + compress + "\"");
  }
  return form;
}

void PrintNormalizeNotes(const std::string& file,
                         const std::vector<normalize::Note>& notes,
                         const std::uint64_t counts[4], bool quiet) {
  std::uint64_t shown[4] = {0, 0, 0, 0};
  for (const normalize::Note& n : notes) {
    auto k = static_cast<std::size_t>(n.kind);
    ++shown[k];
    bool warning = n.kind == normalize::NoteKind::kDuplicateKey ||
                   n.kind == normalize::NoteKind::kDropped;
    if (quiet && !warning) continue;
    std::cerr << "pstate: " << (warning ? "warning: " : "note: ") << file;
    if (n.line > 0) std::cerr << ":" << n.line << ":" << n.column;
    if (!n.pointer.empty()) std::cerr << ": " << n.pointer;
    std::cerr << ": " << n.message << "\n";
  }
  for (std::size_t k = 0; k < 4; ++k) {
    if (counts[k] > shown[k] && !quiet) {
      std::cerr << "pstate: note: " << file << ": " << counts[k] - shown[k]
                << " more like the last\n";
    }
  }
}

}  // namespace pstate::cli
