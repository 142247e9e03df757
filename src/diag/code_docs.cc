#include "diag/code_docs.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/utf8.h"

#ifndef PSTATE_DOCS_URI
#define PSTATE_DOCS_URI "file:///usr/local/share/doc/pstate"
#endif

namespace pstate::diag {
namespace {

struct DocEntry {
  std::string_view name;
  std::string_view markdown;
};

// Generated from docs/diagnostics.md (src/CMakeLists.txt).
constexpr DocEntry kDocs[] = {
#include "code_docs.inc"
};

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

bool Documented(Code code) {
  std::string_view name = Info(code).name;
  for (const DocEntry& entry : kDocs) {
    if (entry.name == name) return true;
  }
  return false;
}

std::string_view CodeMarkdown(Code code) {
  std::string_view name = Info(code).name;
  for (const DocEntry& entry : kDocs) {
    if (entry.name == name) return entry.markdown;
  }
  return Info(code).summary;
}

std::string CodeDescription(Code code) {
  std::string_view md = CodeMarkdown(code);
  std::string out;
  std::size_t pos = 0;
  while (pos < md.size()) {
    std::size_t end = md.find('\n', pos);
    if (end == std::string_view::npos) end = md.size();
    std::string_view line = md.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty() || StartsWith(line, "Example:") ||
        StartsWith(line, "Fix:") || StartsWith(line, "|")) {
      if (!out.empty()) break;
      continue;
    }
    if (!out.empty()) out.push_back(' ');
    out.append(line);
  }
  std::string plain;
  for (char c : out) {
    if (c != '`') plain.push_back(c);
  }
  if (plain.empty()) plain = std::string(Info(code).summary);
  if (plain.size() > 1024) {
    plain.resize(utf8::CutPoint(plain, 1021));  // whole characters only
    plain += "...";
  }
  return plain;
}

std::string CodePlainText(Code code) {
  std::string_view md = CodeMarkdown(code);
  std::string out;
  out.reserve(md.size());
  for (std::size_t i = 0; i < md.size(); ++i) {
    char c = md[i];
    if (c == '`') continue;
    // [text](target) -> text
    if (c == ']' && i + 1 < md.size() && md[i + 1] == '(') {
      std::size_t close = md.find(')', i + 2);
      if (close != std::string_view::npos) {
        i = close;
        continue;
      }
    }
    if (c == '[') continue;
    out.push_back(c);
  }
  return out;
}

std::string CodeHelpUri(Code code) {
  return std::string(DocsBaseUri()) + "/diagnostics.md#" +
         std::string(Info(code).name);
}

}  // namespace pstate::diag

namespace pstate {

// Mapping: diag's table (Code enum, name, severity, summary) and the
// documentation compiled from docs/diagnostics.md -> FindingCodeInfo, built
// once.
const std::vector<FindingCodeInfo>& FindingCodeInfos() {
  static const std::vector<FindingCodeInfo> codes = [] {
    std::vector<FindingCodeInfo> out;
    out.reserve(diag::AllCodes().size());
    for (const diag::CodeInfo& info : diag::AllCodes()) {
      FindingCodeInfo c;
      c.name = info.name;
      c.severity = info.severity;
      c.fatal = diag::IsFatal(info.code);
      c.summary = info.summary;
      c.markdown = diag::CodeMarkdown(info.code);
      c.description = diag::CodeDescription(info.code);
      c.help_uri = diag::CodeHelpUri(info.code);
      out.push_back(std::move(c));
    }
    return out;
  }();
  return codes;
}

const FindingCodeInfo* FindingCodeInfoNamed(std::string_view name) {
  std::optional<diag::Code> code = diag::FindCode(name);
  if (!code) return nullptr;
  return &FindingCodeInfos()[static_cast<std::size_t>(*code)];
}

std::string_view DocsBaseUri() { return PSTATE_DOCS_URI; }

}  // namespace pstate
