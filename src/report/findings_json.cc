#include "diag/codes.h"
#include "json/writer.h"
#include "report/findings.h"

namespace pstate::report {

void WriteReportJson(const Findings& report, json::Writer& w) {
  w.BeginObject();
  w.Name("file");
  w.String(report.file);
  w.Name("findings");
  w.BeginArray();
  for (const Finding& f : report.findings) {
    w.BeginObject();
    w.Name("code");
    w.String(f.code_name());
    w.Name("severity");
    w.String(diag::SeverityName(f.severity));
    w.Name("message");
    w.String(f.message);
    w.Name("pointer");
    w.String(f.pointer);
    w.Name("line");
    if (f.line > 0) {
      w.Uint(f.line);
      w.Name("column");
      w.Uint(f.column);
    } else {
      w.Null();
      w.Name("column");
      w.Null();
    }
    w.Name("urn");
    if (f.urn.empty()) {
      w.Null();
    } else {
      w.String(f.urn);
    }
    w.Name("fingerprint");
    w.String(f.fingerprint);
    w.EndObject();
  }
  w.EndArray();
  const FindingCounts& s = report;
  w.Name("summary");
  w.BeginObject();
  w.Name("errors");
  w.Uint(s.errors);
  w.Name("warnings");
  w.Uint(s.warnings);
  w.Name("notes");
  w.Uint(s.notes);
  w.Name("resources");
  w.Uint(s.resources);
  w.Name("omitted");
  w.Uint(report.omitted);
  w.Name("suppressed");
  w.Uint(s.suppressed);
  w.Name("by_code");
  w.BeginObject();
  for (std::size_t i = 0; i < s.by_code.size(); ++i) {
    if (s.by_code[i] == 0) continue;
    w.Name(diag::Info(static_cast<diag::Code>(i)).name);
    w.Uint(s.by_code[i]);
  }
  w.EndObject();
  w.EndObject();
  w.EndObject();
}

void RenderJsonLine(const Findings& report, std::ostream& out) {
  json::StringSink sink(&out);
  json::Writer w(sink, json::Layout::kCompact);
  WriteReportJson(report, w);
  sink.Put('\n');
}

}  // namespace pstate::report
