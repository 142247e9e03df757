#include "report/rules.h"

#include <algorithm>
#include <string>

#include "diag/code_docs.h"
#include "json/writer.h"

namespace pstate::report {

void RenderRulesText(std::ostream& out) {
  std::size_t width = 0;
  for (const diag::CodeInfo& info : diag::AllCodes()) {
    width = std::max(width, info.name.size());
  }
  for (const diag::CodeInfo& info : diag::AllCodes()) {
    std::string name(info.name);
    name.resize(width + 2, ' ');
    std::string severity(diag::SeverityName(info.severity));
    severity.resize(9, ' ');
    out << name << severity << info.summary << '\n';
  }
  out << "\n"
      << diag::AllCodes().size()
      << " codes; pstate explain CODE prints one's documentation.\n";
}

void RenderRulesJson(std::ostream& out) {
  json::StringSink sink(&out);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginArray();
  for (const diag::CodeInfo& info : diag::AllCodes()) {
    w.BeginObject();
    w.Name("code");
    w.String(info.name);
    w.Name("severity");
    w.String(diag::SeverityName(info.severity));
    w.Name("fatal");
    w.Bool(diag::IsFatal(info.code));
    w.Name("summary");
    w.String(info.summary);
    w.Name("description");
    w.String(diag::CodeDescription(info.code));
    w.Name("help_uri");
    w.String(diag::CodeHelpUri(info.code));
    w.EndObject();
  }
  w.EndArray();
  sink.Put('\n');
}

void RenderExplain(diag::Code code, std::ostream& out) {
  const diag::CodeInfo& info = diag::Info(code);
  out << info.name << " (" << diag::SeverityName(info.severity)
      << (diag::IsFatal(info.code) ? ", fatal" : "") << ")\n\n"
      << diag::CodeMarkdown(info.code) << "\n\n"
      << "More: " << diag::CodeHelpUri(info.code) << '\n';
}

}  // namespace pstate::report
