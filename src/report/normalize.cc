#include "report/normalize.h"

#include "report/terminal.h"

namespace pstate::report {

void RenderNormalizeNotes(const std::string& file,
                          const std::vector<normalize::Note>& notes,
                          const std::uint64_t counts[kNoteKinds], bool quiet,
                          std::ostream& out) {
  const std::string shown_file = TerminalSafe(file);
  std::uint64_t shown[kNoteKinds] = {};
  for (const normalize::Note& n : notes) {
    auto k = static_cast<std::size_t>(n.kind);
    ++shown[k];
    bool warning = n.kind == normalize::NoteKind::kDuplicateKey ||
                   n.kind == normalize::NoteKind::kDropped;
    if (quiet && !warning) continue;
    out << "pstate: " << (warning ? "warning: " : "note: ") << shown_file;
    if (n.line > 0) out << ":" << n.line << ":" << n.column;
    if (!n.pointer.empty()) out << ": " << TerminalSafe(n.pointer);
    out << ": " << TerminalSafe(n.message) << "\n";
  }
  for (std::size_t k = 0; k < kNoteKinds; ++k) {
    if (counts[k] > shown[k] && !quiet) {
      out << "pstate: note: " << shown_file << ": " << counts[k] - shown[k]
          << " more like the last\n";
    }
  }
}

void RenderInexactStrings(std::uint64_t count, std::ostream& out) {
  if (count == 0) return;
  out << "pstate: note: " << count
      << " string(s) held a lone UTF-16 surrogate escape (such as \\ud800) "
         "and were written with U+FFFD in its place, as Pulumi reads them\n";
}

void RenderNormalizeCheck(const std::string& file,
                          const normalize::Outcome& outcome,
                          std::ostream& out) {
  out << "pstate: " << TerminalSafe(file) << ":" << outcome.line << ":"
      << outcome.column;
  if (!outcome.pointer.empty()) out << ": " << TerminalSafe(outcome.pointer);
  out << ": not in normalized form (layout "
      << normalize::LayoutName(outcome.layout)
      << "); this is the first place that differs\n";
}

}  // namespace pstate::report
