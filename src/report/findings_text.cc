#include "report/findings.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "diag/codes.h"
#include "report/color.h"
#include "report/terminal.h"

namespace pstate::report {
namespace {

using diag::Code;
using diag::Severity;

using sgr::kBold;
using sgr::kDim;
using sgr::kReset;

std::string_view SeverityColor(Severity s) {
  switch (s) {
    case Severity::kError: return sgr::kBoldRed;
    case Severity::kWarning: return sgr::kBoldYellow;
    case Severity::kNote: return sgr::kBoldCyan;
  }
  return "";
}

std::string Plural(std::uint64_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

}  // namespace

std::string TallyLine(const FindingCounts& summary) {
  std::vector<std::pair<std::uint64_t, std::string_view>> counts;
  for (std::size_t i = 0; i < summary.by_code.size(); ++i) {
    if (summary.by_code[i] > 0) {
      counts.emplace_back(summary.by_code[i],
                          diag::Info(static_cast<Code>(i)).name);
    }
  }
  if (counts.empty()) return {};
  std::sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::string line = "  by code:";
  bool first = true;
  for (const auto& [n, name] : counts) {
    line += first ? " " : ", ";
    first = false;
    line += std::string(name) + " " + std::to_string(n);
  }
  return line;
}

void RenderText(const Findings& report, std::ostream& out,
                const TextOptions& options) {
  const bool c = options.color;
  // Everything that comes from the state or the command line goes through
  // TerminalSafe: a state must not move the cursor, erase a finding or
  // print a line that looks like one (review F10, B3). Every colour is
  // reset before its line ends, so a line taken alone (grep, head) never
  // leaves the terminal coloured (review B6).
  const std::string file = TerminalSafe(report.file);
  for (const Finding& f : report.findings) {
    if (c) out << kBold;
    out << file << ':';
    if (f.line > 0) out << f.line << ':' << f.column << ':';
    if (c) out << kReset;
    out << ' ';
    if (c) out << SeverityColor(f.severity);
    out << diag::SeverityName(f.severity);
    if (c) out << kReset;
    std::string_view message = f.message;
    // An io-error's reason starts with the path the line already names.
    if (f.code == Code::kIoError && message.size() > report.file.size() &&
        message.substr(0, report.file.size()) == report.file &&
        message.substr(report.file.size(), 2) == ": ") {
      message.remove_prefix(report.file.size() + 2);
    }
    out << '[' << f.code_name() << "]: " << TerminalSafe(message) << '\n';
    if (!f.urn.empty()) {
      if (c) out << kDim;
      out << "    urn: " << TerminalSafe(f.urn);
      if (c) out << kReset;
      out << '\n';
    }
    // "" is the whole document; "/" would be the key "" (review B15), and
    // a file that was never read has no place to show.
    if (!f.pointer.empty()) {
      if (c) out << kDim;
      out << "    at:  " << TerminalSafe(f.pointer);
      if (c) out << kReset;
      out << '\n';
    }
    // The finding's identity, exactly what --baseline, .pstateignore and
    // `pstate ignore add` take.
    if (!f.fingerprint.empty()) {
      if (c) out << kDim;
      out << "    fingerprint: " << f.fingerprint;
      if (c) out << kReset;
      out << '\n';
    }
  }
  RenderTextSummary(report, out, options);
}

void RenderTextSummary(const Findings& report, std::ostream& out,
                       const TextOptions& options) {
  const std::string file = TerminalSafe(report.file);
  const FindingCounts& s = report;
  out << file << ": " << Plural(s.errors, "error") << ", "
      << Plural(s.warnings, "warning") << ", " << Plural(s.notes, "note")
      << " in " << Plural(s.resources, "resource");
  if (report.omitted > 0) {
    out << " (" << report.omitted << " not shown; see --max-findings)";
  }
  if (s.suppressed > 0) {
    out << " (" << s.suppressed << " suppressed by baseline, ignore file, "
        << "--only or --skip)";
  }
  out << '\n';
  std::size_t codes = 0;
  for (std::uint64_t n : s.by_code) codes += n > 0 ? 1 : 0;
  if (options.tally && (codes > 1 || report.omitted > 0)) {
    std::string tally = TallyLine(s);
    if (!tally.empty()) out << tally << '\n';
  }
}

void RenderTextTotal(std::uint64_t files, const FindingCounts& total,
                     std::ostream& out) {
  out << "total: " << Plural(files, "file") << ", "
      << Plural(total.errors, "error") << ", "
      << Plural(total.warnings, "warning") << ", "
      << Plural(total.notes, "note") << " in "
      << Plural(total.resources, "resource");
  if (total.suppressed > 0) out << " (" << total.suppressed << " suppressed)";
  out << '\n';
  std::string tally = TallyLine(total);
  if (!tally.empty()) out << tally << '\n';
}

}  // namespace pstate::report
