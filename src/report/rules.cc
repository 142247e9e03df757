#include "report/rules.h"

#include <algorithm>
#include <string>

#include "json/writer.h"

namespace pstate::report {

void RenderRulesText(std::ostream& out) {
  std::size_t width = 0;
  for (const FindingCodeInfo& info : FindingCodeInfos()) {
    width = std::max(width, info.name.size());
  }
  for (const FindingCodeInfo& info : FindingCodeInfos()) {
    std::string name(info.name);
    name.resize(width + 2, ' ');
    std::string severity(SeverityName(info.severity));
    severity.resize(9, ' ');
    out << name << severity << info.summary << '\n';
  }
  out << "\n"
      << FindingCodeInfos().size()
      << " codes; pstate explain CODE prints one's documentation.\n";
}

void RenderRulesJson(std::ostream& out) {
  json::StringSink sink(&out);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginArray();
  for (const FindingCodeInfo& info : FindingCodeInfos()) {
    w.BeginObject();
    w.Name("code");
    w.String(info.name);
    w.Name("severity");
    w.String(SeverityName(info.severity));
    w.Name("fatal");
    w.Bool(info.fatal);
    w.Name("summary");
    w.String(info.summary);
    w.Name("description");
    w.String(info.description);
    w.Name("help_uri");
    w.String(info.help_uri);
    w.EndObject();
  }
  w.EndArray();
  sink.Put('\n');
}

void RenderExplain(const FindingCodeInfo& code, std::ostream& out) {
  out << code.name << " (" << SeverityName(code.severity)
      << (code.fatal ? ", fatal" : "") << ")\n\n"
      << code.markdown << "\n\n"
      << "More: " << code.help_uri << '\n';
}

}  // namespace pstate::report
