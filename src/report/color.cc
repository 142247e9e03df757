#include "report/color.h"

namespace pstate::report::sgr {

std::string Paint(std::string_view text, std::string_view code, bool color) {
  if (!color || text.empty()) return std::string(text);
  std::string out;
  out.reserve(code.size() + text.size() + kReset.size());
  out += code;
  out += text;
  out += kReset;
  return out;
}

std::string ColorBySymbol(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    std::size_t first = line.find_first_not_of(' ');
    std::string_view code;
    if (first != std::string_view::npos && first + 1 < line.size() &&
        line[first + 1] == ' ') {
      switch (line[first]) {
        case '+': code = kGreen; break;
        case '-': code = kRed; break;
        case '~': code = kYellow; break;
        case '!': code = kMagenta; break;
        default: break;
      }
    }
    out += Paint(line, code, !code.empty());
    if (end < text.size()) out += '\n';
    pos = end + 1;
  }
  return out;
}

}  // namespace pstate::report::sgr
