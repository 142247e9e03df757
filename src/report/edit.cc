#include "report/edit.h"

#include <string>
#include <vector>

#include "diag/codes.h"
#include "json/writer.h"
#include "report/terminal.h"

namespace pstate::report {
namespace {

void FieldsText(const std::vector<edit::FieldChange>& list, std::ostream& os) {
  for (const edit::FieldChange& f : list) {
    os << "    " << f.op << " " << TerminalSafe(f.field) << ": ";
    if (f.op == '+') {
      os << TerminalSafe(f.after);
    } else if (f.op == '-') {
      os << TerminalSafe(f.before);
    } else if (f.after.empty()) {
      os << TerminalSafe(f.before);
    } else {
      os << TerminalSafe(f.before) << " -> " << TerminalSafe(f.after);
    }
    os << "\n";
  }
}

void FieldsJson(const std::vector<edit::FieldChange>& list, json::Writer& w) {
  w.BeginArray();
  for (const edit::FieldChange& f : list) {
    w.BeginObject();
    w.Name("op");
    w.String(std::string_view(&f.op, 1));
    w.Name("field");
    w.String(f.field);
    w.Name("before");
    w.String(f.before);
    w.Name("after");
    w.String(f.after);
    w.EndObject();
  }
  w.EndArray();
}

void ElementsJson(const std::vector<edit::ElementChange>& list,
                  json::Writer& w) {
  w.BeginArray();
  for (const edit::ElementChange& c : list) {
    w.BeginObject();
    w.Name("op");
    w.String(std::string_view(&c.op, 1));
    w.Name("what");
    w.String(c.what);
    w.Name("fields");
    FieldsJson(c.fields, w);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

void RenderEditText(const edit::Outcome& o, std::ostream& os) {
  if (!o.changes.envelope.empty()) {
    os << "~ (envelope)\n";
    FieldsText(o.changes.envelope, os);
  }
  for (const auto* list : {&o.changes.resources, &o.changes.pending}) {
    for (const edit::ElementChange& c : *list) {
      os << c.op << " " << TerminalSafe(c.what) << "\n";
      FieldsText(c.fields, os);
    }
  }
  for (const std::string& n : o.notes) {
    os << "note: " << TerminalSafe(n) << "\n";
  }
}

void RenderEditJson(const edit::Config& config, const edit::Outcome& o,
                    std::ostream& os) {
  json::StringSink sink(&os);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginObject();
  w.Name("file");
  w.String(config.input);
  w.Name("operation");
  w.String(edit::OperationName(config.request.op));
  w.Name("refused");
  w.Bool(o.refused);
  if (o.refused) {
    w.Name("reason");
    w.String(o.refusal);
  }
  w.Name("envelope");
  FieldsJson(o.changes.envelope, w);
  w.Name("resources");
  ElementsJson(o.changes.resources, w);
  w.Name("pending_operations");
  ElementsJson(o.changes.pending, w);
  w.Name("notes");
  w.BeginArray();
  for (const std::string& n : o.notes) w.String(n);
  w.EndArray();
  w.Name("new_findings");
  w.BeginArray();
  for (const diag::Finding& f : o.new_findings) {
    w.BeginObject();
    w.Name("code");
    w.String(diag::Info(f.code).name);
    w.Name("message");
    w.String(f.message);
    w.Name("urn");
    w.String(f.urn);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  sink.Put('\n');
}

void RenderEditFindings(const edit::Outcome& o, std::ostream& os) {
  for (const diag::Finding& f : o.new_findings) {
    os << "  error[" << diag::Info(f.code).name << "] "
       << TerminalSafe(f.message);
    if (!f.urn.empty()) os << " (" << TerminalSafe(f.urn) << ")";
    os << "\n";
  }
}

}  // namespace pstate::report
