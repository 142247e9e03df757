#include <string>

#include "base/ascii.h"
#include "diag/code_docs.h"
#include "diag/codes.h"
#include "io/input.h"
#include "json/writer.h"
#include "report/findings.h"

namespace pstate::report {
namespace {

using diag::Code;
using diag::Severity;

/// SARIF's result levels ("error", "warning", "note"; SARIF 2.1.0
/// §3.27.10) are the severities' own names.
std::string_view SarifLevel(Severity s) { return SeverityName(s); }

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
  if (file == io::kStdinName) return "stdin";
  if (!file.empty() && file.front() == '/') return "file://" + PathUri(file);
  return PathUri(RepositoryPath(file));
}

}  // namespace

std::string_view RepositoryPath(std::string_view file) {
  // "./x" and "x" are the same file; a reference must not start with "/".
  while (file.substr(0, 2) == "./") file.remove_prefix(2);
  return file;
}

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

void RenderSarif(std::span<const Findings* const> reports, std::ostream& out,
                 std::string_view tool_version) {
  SarifOptions options;
  options.tool_version = tool_version;
  RenderSarif(reports, out, options);
}

void RenderSarif(std::span<const Findings* const> reports, std::ostream& out,
                 const SarifOptions& options) {
  json::StringSink sink(&out);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginObject();
  w.Name("$schema");
  w.String(
      "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/"
      "schemas/sarif-schema-2.1.0.json");
  w.Name("version");
  w.String("2.1.0");
  w.Name("runs");
  w.BeginArray();
  w.BeginObject();
  w.Name("tool");
  w.BeginObject();
  w.Name("driver");
  w.BeginObject();
  w.Name("name");
  w.String("pstate");
  w.Name("version");
  w.String(options.tool_version);
  w.Name("semanticVersion");
  w.String(options.tool_version);
  w.Name("informationUri");
  w.String(std::string(diag::DocsBaseUri()) + "/cli.md");
  w.Name("rules");
  w.BeginArray();
  for (const diag::CodeInfo& info : diag::AllCodes()) {
    std::string_view security = SecuritySeverity(info.code);
    w.BeginObject();
    w.Name("id");
    w.String(info.name);
    w.Name("name");
    w.String(RuleName(info.name));
    w.Name("shortDescription");
    w.BeginObject();
    w.Name("text");
    w.String(info.summary);
    w.EndObject();
    w.Name("fullDescription");
    w.BeginObject();
    w.Name("text");
    w.String(diag::CodeDescription(info.code));
    w.EndObject();
    w.Name("help");
    w.BeginObject();
    w.Name("text");
    w.String(diag::CodePlainText(info.code));
    w.Name("markdown");
    w.String(diag::CodeMarkdown(info.code));
    w.EndObject();
    w.Name("helpUri");
    w.String(diag::CodeHelpUri(info.code));
    w.Name("defaultConfiguration");
    w.BeginObject();
    w.Name("level");
    w.String(SarifLevel(info.severity));
    w.EndObject();
    w.Name("properties");
    w.BeginObject();
    w.Name("tags");
    w.BeginArray();
    if (security.empty()) {
      w.String("correctness");
    } else {
      w.String("security");
      w.String("secrets");
    }
    w.String("pulumi-state");
    w.EndArray();
    if (!security.empty()) {
      w.Name("security-severity");
      w.String(security);
    }
    w.Name("precision");
    w.String("very-high");
    w.Name("problem.severity");
    w.String(ProblemSeverity(info.severity));
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();  // driver
  w.EndObject();  // tool
  if (!options.command.empty()) {
    w.Name("automationDetails");
    w.BeginObject();
    w.Name("id");
    w.String("pstate/" + std::string(options.command) + "/");
    w.EndObject();
  }
  w.Name("columnKind");
  w.String("unicodeCodePoints");
  w.Name("results");
  w.BeginArray();
  std::size_t written = 0;
  std::uint64_t dropped = 0;
  for (const Findings* report : reports) {
    const std::string uri = ArtifactUri(report->file);
    for (const Finding& f : report->findings) {
      if (written >= kSarifMaxResults) {
        ++dropped;
        continue;
      }
      ++written;
      std::uint64_t line = f.line > 0 ? f.line : 1;
      std::uint64_t column =
          f.line == 0 ? 1 : (f.char_column > 0 ? f.char_column : f.column);
      w.BeginObject();
      w.Name("ruleId");
      w.String(f.code_name());
      w.Name("ruleIndex");
      w.Uint(static_cast<std::uint64_t>(f.code));
      w.Name("level");
      w.String(SarifLevel(f.severity));
      w.Name("message");
      w.BeginObject();
      w.Name("text");
      w.String(f.message);
      w.EndObject();
      w.Name("locations");
      w.BeginArray();
      w.BeginObject();
      w.Name("physicalLocation");
      w.BeginObject();
      w.Name("artifactLocation");
      w.BeginObject();
      w.Name("uri");
      w.String(uri);
      if (uri.substr(0, 7) != "file://") {
        w.Name("uriBaseId");
        w.String("%SRCROOT%");
      }
      w.EndObject();
      // The region is the place the finding points at: one character (a
      // value's first byte is an ASCII quote, bracket, digit or letter).
      w.Name("region");
      w.BeginObject();
      w.Name("startLine");
      w.Uint(line);
      w.Name("startColumn");
      w.Uint(column);
      w.Name("endLine");
      w.Uint(line);
      w.Name("endColumn");
      w.Uint(column + 1);
      w.EndObject();
      w.EndObject();  // physicalLocation
      if (!f.pointer.empty()) {
        w.Name("logicalLocations");
        w.BeginArray();
        w.BeginObject();
        w.Name("fullyQualifiedName");
        w.String(f.pointer);
        w.Name("kind");
        w.String("member");
        w.EndObject();
        w.EndArray();
      }
      w.EndObject();
      w.EndArray();  // locations
      w.Name("partialFingerprints");
      w.BeginObject();
      w.Name("pstate/v1");
      w.String(f.fingerprint);
      w.EndObject();
      w.Name("properties");
      w.BeginObject();
      w.Name("pointer");
      w.String(f.pointer);
      if (!f.urn.empty()) {
        w.Name("urn");
        w.String(f.urn);
      }
      w.EndObject();
      w.EndObject();
    }
    dropped += report->omitted;
  }
  w.EndArray();
  if (dropped > 0) {
    w.Name("properties");
    w.BeginObject();
    w.Name("omittedResults");
    w.Uint(dropped);
    w.EndObject();
  }
  w.EndObject();  // run
  w.EndArray();
  w.EndObject();
  sink.Put('\n');
}

}  // namespace pstate::report
