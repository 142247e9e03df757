#include "report/terminal.h"

#include <algorithm>

#include "base/utf8.h"

namespace pstate::report {

std::string TerminalSafe(std::string_view s) {
  static constexpr char kOctal[] = "01234567";
  std::string out;
  out.reserve(s.size());
  auto octal = [&](unsigned char c) {
    out.push_back('\\');
    out.push_back(kOctal[(c >> 6) & 3]);
    out.push_back(kOctal[(c >> 3) & 7]);
    out.push_back(kOctal[c & 7]);
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == 0xC2 && i + 1 < s.size() &&
        static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(s[i + 1]) <= 0x9F) {
      // A C1 control (U+0080..U+009F) in UTF-8: CSI and OSC for some
      // terminals. Both bytes shown, as git does.
      octal(c);
      octal(static_cast<unsigned char>(s[++i]));
      continue;
    }
    if (c >= 0x20 && c != 0x7F) {
      out.push_back(s[i]);
      continue;
    }
    switch (c) {
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\v': out += "\\v"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      default: octal(c); break;
    }
  }
  return out;
}

std::string Shorten(std::string_view text, std::size_t width) {
  constexpr std::string_view kMarker = "...";
  if (width <= kMarker.size() || text.size() <= width) {
    return std::string(text);
  }
  std::string out(text.substr(0, utf8::CutPoint(text, width - kMarker.size())));
  out += kMarker;
  return out;
}

void PrintError(std::ostream& out, std::string_view message) {
  out << "pstate: error: ";
  // Line breaks are the message's own structure (a refusal lists what
  // blocks it, one per line); everything else is escaped.
  for (std::size_t start = 0;;) {
    std::size_t end = message.find('\n', start);
    out << TerminalSafe(message.substr(start, end - start));
    if (end == std::string_view::npos) break;
    out << '\n';
    start = end + 1;
  }
  out << '\n';
}

void PrintError(std::ostream& out, const diag::Failure& failure) {
  PrintError(out, failure.Located());
}

void Table(const std::vector<std::vector<std::string>>& rows,
           std::ostream& out) {
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()));
    for (std::size_t i = 0; i < row.size(); ++i) {
      width[i] = std::max(width[i], row[i].size());
    }
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size())
        line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << TerminalSafe(line) << "\n";
  }
}

}  // namespace pstate::report
