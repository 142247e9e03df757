#include "pstate/diag/render.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "pstate/base/ascii.h"
#include "pstate/diag/code_docs.h"
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

/// GitHub's security-severity (a CVSS-like score as a string) of the
/// secret rules; "" for the others, which are correctness findings.
std::string_view SecuritySeverity(Code code) {
  switch (code) {
    case Code::kLeakKnownSecret:
    case Code::kLeakCredentialFormat: return "9.0";
    case Code::kLeakAdditionalSecretOutput:
    case Code::kLeakSecretMismatch:
    case Code::kLeakCredentialProperty: return "7.5";
    case Code::kLeakPasswordHash: return "5.0";
    case Code::kLeakSecretInName: return "3.0";
    default: return "";
  }
}

std::string_view ProblemSeverity(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "recommendation";
  }
  return "error";
}

/// "dependency-order" -> "DependencyOrder": SARIF wants a rule's name to be
/// a readable identifier distinct from its id.
std::string RuleName(std::string_view id) {
  std::string name;
  bool upper = true;
  for (char c : id) {
    if (c == '-') {
      upper = true;
      continue;
    }
    name.push_back(
        upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c);
    upper = false;
  }
  return name;
}

/// A file path as a SARIF artifact URI (an RFC 3986 relative reference):
/// bytes other than unreserved characters and '/' are percent-encoded, so
/// names with spaces, '#', '%' or non-ASCII bytes stay valid URIs.
std::string PathUri(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : path) {
    auto c = static_cast<unsigned char>(ch);
    bool keep = ascii::IsAlnum(ch) || c == '-' || c == '.' || c == '_' ||
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

/// Standard input as "stdin"; an absolute path as a file:// URI; a
/// relative path as a relative reference (resolved against %SRCROOT%).
std::string ArtifactUri(std::string_view file) {
  if (file == "<stdin>") return "stdin";
  if (!file.empty() && file.front() == '/') return "file://" + PathUri(file);
  std::string uri = PathUri(file);
  // "./x" and "x" are the same file; a reference must not start with "/".
  while (uri.substr(0, 2) == "./") uri.erase(0, 2);
  return uri;
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

std::string TallyLine(const Summary& summary) {
  std::vector<std::pair<std::uint64_t, std::string_view>> counts;
  for (std::size_t i = 0; i < summary.by_code.size(); ++i) {
    if (summary.by_code[i] > 0) {
      counts.emplace_back(summary.by_code[i], Info(static_cast<Code>(i)).name);
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

void RenderText(const Report& report, std::ostream& out,
                const TextOptions& options) {
  const bool c = options.color;
  // Everything that comes from the state or the command line goes through
  // TerminalSafe: a state must not move the cursor, erase a finding or
  // print a line that looks like one (review F10, B3). Every colour is
  // reset before its line ends, so a line taken alone (grep, head) never
  // leaves the terminal coloured (review B6).
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
    std::string_view message = f.message;
    // An io-error's reason starts with the path the line already names.
    if (f.code == Code::kIoError && message.size() > report.file().size() &&
        message.substr(0, report.file().size()) == report.file() &&
        message.substr(report.file().size(), 2) == ": ") {
      message.remove_prefix(report.file().size() + 2);
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
  }
  RenderTextSummary(report, out, options);
}

void RenderTextSummary(const Report& report, std::ostream& out,
                       const TextOptions& options) {
  const std::string file = TerminalSafe(report.file());
  const Summary& s = report.summary();
  out << file << ": " << Plural(s.errors, "error") << ", "
      << Plural(s.warnings, "warning") << ", " << Plural(s.notes, "note")
      << " in " << Plural(s.resources, "resource");
  if (report.omitted() > 0) {
    out << " (" << report.omitted() << " not shown; see --max-findings)";
  }
  if (s.suppressed > 0) {
    out << " (" << s.suppressed << " suppressed by baseline, ignore file, "
        << "--only or --skip)";
  }
  out << '\n';
  std::size_t codes = 0;
  for (std::uint64_t n : s.by_code) codes += n > 0 ? 1 : 0;
  if (options.tally && (codes > 1 || report.omitted() > 0)) {
    std::string tally = TallyLine(s);
    if (!tally.empty()) out << tally << '\n';
  }
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
    out << ",\"fingerprint\":" << JsonString(f.fingerprint) << '}';
  }
  const Summary& s = report.summary();
  out << "],\"summary\":{\"errors\":" << s.errors
      << ",\"warnings\":" << s.warnings << ",\"notes\":" << s.notes
      << ",\"resources\":" << s.resources << ",\"omitted\":" << report.omitted()
      << ",\"suppressed\":" << s.suppressed << ",\"by_code\":{";
  bool first_code = true;
  for (std::size_t i = 0; i < s.by_code.size(); ++i) {
    if (s.by_code[i] == 0) continue;
    if (!first_code) out << ',';
    first_code = false;
    out << JsonString(Info(static_cast<Code>(i)).name) << ':' << s.by_code[i];
  }
  out << "}}}\n";
}

void RenderSarif(std::span<const Report* const> reports, std::ostream& out,
                 std::string_view tool_version) {
  SarifOptions options;
  options.tool_version = tool_version;
  RenderSarif(reports, out, options);
}

void RenderSarif(std::span<const Report* const> reports, std::ostream& out,
                 const SarifOptions& options) {
  out << "{\"$schema\":"
         "\"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/"
         "schemas/sarif-schema-2.1.0.json\","
         "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{"
         "\"name\":\"pstate\",\"version\":"
      << JsonString(options.tool_version)
      << ",\"semanticVersion\":" << JsonString(options.tool_version)
      << ",\"informationUri\":"
      << JsonString(std::string(DocsBaseUri()) + "/cli.md") << ",\"rules\":[";
  bool first = true;
  for (const CodeInfo& info : AllCodes()) {
    if (!first) out << ',';
    first = false;
    std::string_view security = SecuritySeverity(info.code);
    out << "{\"id\":" << JsonString(info.name)
        << ",\"name\":" << JsonString(RuleName(info.name))
        << ",\"shortDescription\":{\"text\":" << JsonString(info.summary)
        << "},\"fullDescription\":{\"text\":"
        << JsonString(CodeDescription(info.code))
        << "},\"help\":{\"text\":" << JsonString(CodePlainText(info.code))
        << ",\"markdown\":" << JsonString(CodeMarkdown(info.code))
        << "},\"helpUri\":" << JsonString(CodeHelpUri(info.code))
        << ",\"defaultConfiguration\":{\"level\":\""
        << SarifLevel(info.severity) << "\"},\"properties\":{\"tags\":[";
    if (security.empty()) {
      out << "\"correctness\",\"pulumi-state\"]";
    } else {
      out << "\"security\",\"secrets\",\"pulumi-state\"]"
          << ",\"security-severity\":\"" << security << "\"";
    }
    out << ",\"precision\":\"very-high\",\"problem.severity\":\""
        << ProblemSeverity(info.severity) << "\"}}";
  }
  out << "]}}";
  if (!options.command.empty()) {
    out << ",\"automationDetails\":{\"id\":"
        << JsonString("pstate/" + std::string(options.command) + "/") << "}";
  }
  out << ",\"columnKind\":\"unicodeCodePoints\",\"results\":[";
  std::size_t written = 0;
  std::uint64_t dropped = 0;
  first = true;
  for (const Report* report : reports) {
    const std::string uri = ArtifactUri(report->file());
    for (const Finding& f : report->findings()) {
      if (written >= kSarifMaxResults) {
        ++dropped;
        continue;
      }
      ++written;
      if (!first) out << ',';
      first = false;
      std::uint64_t line = f.line > 0 ? f.line : 1;
      std::uint64_t column =
          f.line == 0 ? 1 : (f.char_column > 0 ? f.char_column : f.column);
      out << "{\"ruleId\":" << JsonString(f.code_name())
          << ",\"ruleIndex\":" << static_cast<int>(f.code) << ",\"level\":\""
          << SarifLevel(f.severity) << "\""
          << ",\"message\":{\"text\":" << JsonString(f.message) << "}"
          << ",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{"
             "\"uri\":"
          << JsonString(uri);
      if (uri.substr(0, 7) != "file://") out << ",\"uriBaseId\":\"%SRCROOT%\"";
      // The region is the place the finding points at: one character (a
      // value's first byte is an ASCII quote, bracket, digit or letter).
      out << "},\"region\":{\"startLine\":" << line
          << ",\"startColumn\":" << column << ",\"endLine\":" << line
          << ",\"endColumn\":" << column + 1 << "}}";
      if (!f.pointer.empty()) {
        out << ",\"logicalLocations\":[{\"fullyQualifiedName\":"
            << JsonString(f.pointer) << ",\"kind\":\"member\"}]";
      }
      out << "}],\"partialFingerprints\":{\"pstate/v1\":"
          << JsonString(f.fingerprint) << "}"
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
