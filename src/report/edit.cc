#include "report/edit.h"

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "diag/codes.h"
#include "json/writer.h"
#include "report/diff.h"
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

/// `list`: a std::vector<edit::ElementChange> or edit::ElementChanges
/// (whose typed records are rendered one at a time, as they are written).
template <typename List>
void ElementsJson(const List& list, json::Writer& w) {
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

/// "envelope", "resources" and "pending_operations" of one file's change.
void ChangeMembers(const edit::Outcome& o, json::Writer& w) {
  w.Name("envelope");
  FieldsJson(o.changes.envelope, w);
  w.Name("resources");
  ElementsJson(o.changes.resources, w);
  w.Name("pending_operations");
  ElementsJson(o.changes.pending, w);
}

/// "new_findings": [{"code", "message", "urn"}].
void NewFindingsMember(const edit::Outcome& o, json::Writer& w) {
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
}

/// `list`: a std::vector<std::string> or edit::Notes.
template <typename List>
void StringsMember(std::string_view name, const List& list, json::Writer& w) {
  w.Name(name);
  w.BeginArray();
  for (const std::string& s : list) w.String(s);
  w.EndArray();
}

/// NAME: [{"from", "to"}].
void RenamesMember(std::string_view name,
                   const std::vector<std::pair<std::string, std::string>>& list,
                   json::Writer& w) {
  w.Name(name);
  w.BeginArray();
  for (const auto& [from, to] : list) {
    w.BeginObject();
    w.Name("from");
    w.String(from);
    w.Name("to");
    w.String(to);
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
  auto elements = [&](const auto& list) {
    for (const edit::ElementChange& c : list) {
      os << c.op << " " << TerminalSafe(c.what) << "\n";
      FieldsText(c.fields, os);
    }
  };
  elements(o.changes.resources);
  elements(o.changes.pending);
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
  ChangeMembers(o, w);
  StringsMember("notes", o.notes, w);
  NewFindingsMember(o, w);
  w.EndObject();
  sink.Put('\n');
}

void RenderMoveJson(const edit::MoveConfig& config, const edit::MoveOutcome& o,
                    std::ostream& os) {
  json::StringSink sink(&os);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginObject();
  w.Name("operation");
  w.String("move");
  w.Name("dry_run");
  w.Bool(config.dry_run);
  w.Name("refused");
  w.Bool(o.refused);
  if (o.refused) {
    w.Name("reason");
    w.String(o.refusal);
  }
  StringsMember("selected", o.selected, w);
  RenamesMember("moved", o.moved, w);
  RenamesMember("providers_copied", o.providers_copied, w);
  RenamesMember("providers_reused", o.providers_reused, w);
  w.Name("broken_dependencies");
  w.BeginArray();
  for (const edit::BrokenDependency& b : o.broken) {
    w.BeginObject();
    w.Name("resource");
    w.String(b.resource);
    w.Name("moving");
    w.Bool(b.moving);
    w.Name("depends_on");
    w.String(b.target);
    w.EndObject();
  }
  w.EndArray();
  StringsMember("notes", o.notes, w);
  for (auto [role, path, side] :
       {std::tuple{"source", &config.source, &o.source},
        std::tuple{"destination", &config.destination, &o.destination}}) {
    w.Name(role);
    w.BeginObject();
    w.Name("file");
    w.String(*path);
    w.Name("written");
    w.Bool(side->written);
    if (!side->backup.empty()) {
      w.Name("backup");
      w.String(side->backup);
    }
    ChangeMembers(*side, w);
    NewFindingsMember(*side, w);
    if (side->diff) {
      // --dry-run: the file's change as `pstate diff --format json` has it.
      std::string diffed = RenderDiffJson(*side->diff);
      if (!diffed.empty() && diffed.back() == '\n') diffed.pop_back();
      w.Name("diff");
      w.RawValue(diffed);
    }
    w.EndObject();
  }
  w.EndObject();
  sink.Put('\n');
}

namespace {

void RenderNewError(std::string_view code, const std::string& message,
                    const std::string& urn, std::ostream& os) {
  os << "  error[" << code << "] " << TerminalSafe(message);
  if (!urn.empty()) os << " (" << TerminalSafe(urn) << ")";
  os << "\n";
}

}  // namespace

void RenderEditFindings(const edit::Outcome& o, std::ostream& os) {
  for (const diag::Finding& f : o.new_findings) {
    RenderNewError(diag::Info(f.code).name, f.message, f.urn, os);
  }
}

void RenderNewErrors(const std::vector<Finding>& errors, std::ostream& os) {
  for (const Finding& f : errors)
    RenderNewError(f.code_name(), f.message, f.urn, os);
}

}  // namespace pstate::report
