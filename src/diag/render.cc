#include "pstate/diag/render.h"

#include "pstate/json/string_codec.h"

namespace pstate::diag {
namespace {

constexpr const char* kReset = "\033[0m";
constexpr const char* kBold = "\033[1m";
constexpr const char* kDim = "\033[2m";

const char* SeverityColor(Severity s) {
  switch (s) {
    case Severity::kError: return "\033[1;31m";
    case Severity::kWarning: return "\033[1;33m";
    case Severity::kNote: return "\033[1;36m";
  }
  return "";
}

std::string Plural(std::uint64_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

std::string_view SarifLevel(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

/// A file path as a SARIF artifact URI (an RFC 3986 relative reference):
/// bytes other than unreserved characters and '/' are percent-encoded, so
/// names with spaces, '#', '%' or non-ASCII bytes stay valid URIs.
std::string PathUri(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : path) {
    auto c = static_cast<unsigned char>(ch);
    bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
                c == '~' || c == '/';
    if (keep) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

}  // namespace

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

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  json::AppendEscaped(s, &out);
  out.push_back('"');
  return out;
}

void RenderText(const Report& report, std::ostream& out,
                const TextOptions& options) {
  const bool c = options.color;
  // Everything that comes from the state or the command line goes through
  // TerminalSafe: a state must not move the cursor, erase a finding or
  // print a line that looks like one (review F10, B3).
  const std::string file = TerminalSafe(report.file());
  for (const Finding& f : report.findings()) {
    if (c) out << kBold;
    out << file << ':';
    if (f.line > 0) out << f.line << ':' << f.column << ':';
    if (c) out << kReset;
    out << ' ';
    if (c) out << SeverityColor(f.severity);
    out << SeverityName(f.severity);
    if (c) out << kReset;
    out << '[' << f.code_name() << "]: " << TerminalSafe(f.message) << '\n';
    if (!f.urn.empty()) {
      if (c) out << kDim;
      out << "    urn: " << TerminalSafe(f.urn) << '\n';
      if (c) out << kReset;
    }
    if (c) out << kDim;
    out << "    at:  " << (f.pointer.empty() ? "/" : TerminalSafe(f.pointer))
        << '\n';
    if (c) out << kReset;
  }
  const Summary& s = report.summary();
  out << file << ": " << Plural(s.errors, "error") << ", "
      << Plural(s.warnings, "warning") << ", " << Plural(s.notes, "note")
      << " in " << Plural(s.resources, "resource");
  if (report.omitted() > 0) {
    out << " (" << report.omitted() << " not shown; see --max-findings)";
  }
  out << '\n';
}

void RenderJsonLine(const Report& report, std::ostream& out) {
  out << "{\"file\":" << JsonString(report.file()) << ",\"findings\":[";
  bool first = true;
  for (const Finding& f : report.findings()) {
    if (!first) out << ',';
    first = false;
    out << "{\"code\":" << JsonString(f.code_name())
        << ",\"severity\":" << JsonString(SeverityName(f.severity))
        << ",\"message\":" << JsonString(f.message)
        << ",\"pointer\":" << JsonString(f.pointer) << ",\"line\":";
    if (f.line > 0) {
      out << f.line << ",\"column\":" << f.column;
    } else {
      out << "null,\"column\":null";
    }
    out << ",\"urn\":";
    if (f.urn.empty()) {
      out << "null";
    } else {
      out << JsonString(f.urn);
    }
    out << '}';
  }
  const Summary& s = report.summary();
  out << "],\"summary\":{\"errors\":" << s.errors
      << ",\"warnings\":" << s.warnings << ",\"notes\":" << s.notes
      << ",\"resources\":" << s.resources
      << ",\"omitted\":" << report.omitted() << "}}\n";
}

void RenderSarif(std::span<const Report* const> reports, std::ostream& out,
                 std::string_view tool_version) {
  out << "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\","
         "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{"
         "\"name\":\"pstate\",\"version\":"
      << JsonString(tool_version)
      << ","
         "\"rules\":[";
  bool first = true;
  for (const CodeInfo& info : AllCodes()) {
    if (!first) out << ',';
    first = false;
    out << "{\"id\":" << JsonString(info.name)
        << ",\"name\":" << JsonString(info.name)
        << ",\"shortDescription\":{\"text\":" << JsonString(info.summary)
        << "},\"defaultConfiguration\":{\"level\":\""
        << SarifLevel(info.severity) << "\"}}";
  }
  out << "]}},\"results\":[";
  std::size_t written = 0;
  std::uint64_t dropped = 0;
  first = true;
  for (const Report* report : reports) {
    for (const Finding& f : report->findings()) {
      if (written >= kSarifMaxResults) {
        ++dropped;
        continue;
      }
      ++written;
      if (!first) out << ',';
      first = false;
      std::string uri =
          report->file() == "<stdin>" ? "stdin" : PathUri(report->file());
      out << "{\"ruleId\":" << JsonString(f.code_name())
          << ",\"ruleIndex\":" << static_cast<int>(f.code)
          << ",\"level\":\"" << SarifLevel(f.severity) << "\""
          << ",\"message\":{\"text\":" << JsonString(f.message) << "}"
          << ",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{"
             "\"uri\":"
          << JsonString(uri) << "},\"region\":{\"startLine\":"
          << (f.line > 0 ? f.line : 1);
      if (f.line > 0) out << ",\"startColumn\":" << f.column;
      out << "}},\"logicalLocations\":[{\"fullyQualifiedName\":"
          << JsonString(f.pointer.empty() ? "/" : f.pointer)
          << ",\"kind\":\"member\"}]}]"
          << ",\"properties\":{\"pointer\":" << JsonString(f.pointer);
      if (!f.urn.empty()) out << ",\"urn\":" << JsonString(f.urn);
      out << "}}";
    }
    dropped += report->omitted();
  }
  out << "]";
  if (dropped > 0) {
    out << ",\"properties\":{\"omittedResults\":" << dropped << "}";
  }
  out << "}]}\n";
}

}  // namespace pstate::diag
