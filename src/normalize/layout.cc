#include "normalize/layout.h"

#include <memory>

#include "io/input.h"

namespace pstate::normalize {

std::string_view LayoutName(Layout layout) {
  switch (layout) {
    case Layout::kExport: return "export";
    case Layout::kDiy: return "diy";
    case Layout::kDiyStateCommand: return "diy-state-command";
  }
  return "export";
}

std::optional<Layout> ParseLayout(std::string_view name) {
  for (Layout l : {Layout::kExport, Layout::kDiy, Layout::kDiyStateCommand}) {
    if (LayoutName(l) == name) return l;
  }
  return std::nullopt;
}

json::Layout WhitespaceOf(Layout layout) {
  return layout == Layout::kExport ? json::Layout::kIndented
                                   : json::Layout::kCompact;
}

json::EscapeStyle EscapeOf(Layout layout) {
  return layout == Layout::kDiyStateCommand ? json::EscapeStyle::kHtmlSafe
                                            : json::EscapeStyle::kExport;
}

Layout DetectLayout(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' ||
                             text[i] == '\r' || text[i] == '\n')) {
    ++i;
  }
  // After the opening brace: a newline means an indented writer.
  if (i < text.size() && text[i] == '{') {
    std::size_t j = i + 1;
    while (j < text.size() &&
           (text[j] == ' ' || text[j] == '\t' || text[j] == '\r')) {
      ++j;
    }
    if (j < text.size() && text[j] == '\n') return Layout::kExport;
  }
  // Compact: Go's json.Marshal escapes every <, > and & in strings; the
  // engine's encoder escapes none. Outside strings JSON has none of them.
  bool raw_html = text.find_first_of("<>&") != std::string_view::npos;
  if (raw_html) return Layout::kDiy;
  for (std::string_view esc : {"\\u003c", "\\u003e", "\\u0026"}) {
    if (text.find(esc) != std::string_view::npos) {
      return Layout::kDiyStateCommand;
    }
  }
  return Layout::kDiy;
}

Result<Layout> DetectLayoutOfFile(const std::string& path,
                                  std::size_t max_bytes) {
  if (path == "-") {
    return Status(Errc::kInvalidArgument,
                  "standard input cannot be read twice to find its layout");
  }
  auto input = io::OpenInput(path);
  if (!input.ok()) return input.status();
  std::string text(max_bytes, '\0');
  std::size_t got = 0;
  while (got < max_bytes) {
    Result<std::size_t> n = (*input)->Read(text.data() + got, max_bytes - got);
    if (!n.ok()) return n.status();
    if (*n == 0) break;
    got += *n;
  }
  text.resize(got);
  return DetectLayout(text);
}

}  // namespace pstate::normalize
