#include "report/edit.h"

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "edit/plan.h"
#include "json/writer.h"
#include "report/diff.h"
#include "report/terminal.h"

namespace pstate::report {
namespace {

/// The change's mark: '+' added, '-' removed, '~' changed.
char Op(EditChangeKind kind) {
  switch (kind) {
    case EditChangeKind::kAdded: return '+';
    case EditChangeKind::kRemoved: return '-';
    case EditChangeKind::kChanged: break;
  }
  return '~';
}

void FieldsText(const std::vector<EditFieldChange>& list, std::ostream& os) {
  for (const EditFieldChange& f : list) {
    os << "    " << Op(f.kind) << " " << TerminalSafe(f.field) << ": ";
    if (f.kind == EditChangeKind::kAdded) {
      os << TerminalSafe(f.after);
    } else if (f.kind == EditChangeKind::kRemoved) {
      os << TerminalSafe(f.before);
    } else if (f.after.empty()) {
      os << TerminalSafe(f.before);
    } else {
      os << TerminalSafe(f.before) << " -> " << TerminalSafe(f.after);
    }
    os << "\n";
  }
}

/// The mark as a JSON string.
void OpJson(EditChangeKind kind, json::Writer& w) {
  const char op = Op(kind);
  w.String(std::string_view(&op, 1));
}

void FieldsJson(const std::vector<EditFieldChange>& list, json::Writer& w) {
  w.BeginArray();
  for (const EditFieldChange& f : list) {
    w.BeginObject();
    w.Name("op");
    OpJson(f.kind, w);
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

/// `list`: EditResult's resources (an EditList) or pending (a vector).
template <typename List>
void ElementsJson(const List& list, json::Writer& w) {
  w.BeginArray();
  for (const EditElementChange& c : list) {
    w.BeginObject();
    w.Name("op");
    OpJson(c.kind, w);
    w.Name("what");
    w.String(c.what);
    w.Name("fields");
    FieldsJson(c.fields, w);
    w.EndObject();
  }
  w.EndArray();
}

/// "envelope", "resources" and "pending_operations" of one file's change.
void ChangeMembers(const EditResult& o, json::Writer& w) {
  w.Name("envelope");
  FieldsJson(o.envelope, w);
  w.Name("resources");
  ElementsJson(o.resources, w);
  w.Name("pending_operations");
  ElementsJson(o.pending, w);
}

/// "new_findings": [{"code", "message", "urn"}].
void NewFindingsMember(const EditResult& o, json::Writer& w) {
  w.Name("new_findings");
  w.BeginArray();
  for (const Finding& f : o.new_errors) {
    w.BeginObject();
    w.Name("code");
    w.String(f.code_name());
    w.Name("message");
    w.String(f.message);
    w.Name("urn");
    w.String(f.urn);
    w.EndObject();
  }
  w.EndArray();
}

/// `list`: a vector of strings or an EditList of them.
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

void RenderEditText(const EditResult& o, std::ostream& os) {
  if (!o.envelope.empty()) {
    os << "~ (envelope)\n";
    FieldsText(o.envelope, os);
  }
  auto element = [&os](const EditElementChange& c) {
    os << Op(c.kind) << " " << TerminalSafe(c.what) << "\n";
    FieldsText(c.fields, os);
  };
  for (const EditElementChange& c : o.resources) element(c);
  for (const EditElementChange& c : o.pending) element(c);
  for (const std::string& n : o.notes) {
    os << "note: " << TerminalSafe(n) << "\n";
  }
}

void RenderEditJson(std::string_view file, EditOperation operation,
                    const EditResult& o, std::ostream& os) {
  json::StringSink sink(&os);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginObject();
  w.Name("file");
  w.String(file);
  w.Name("operation");
  w.String(edit::OperationName(operation));
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

void RenderMoveJson(const MoveFiles& files, const EditMoveResult& o,
                    std::ostream& os) {
  json::StringSink sink(&os);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginObject();
  w.Name("operation");
  w.String("move");
  w.Name("dry_run");
  w.Bool(files.dry_run);
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
  for (const MoveBrokenDependency& b : o.broken) {
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
       {std::tuple{"source", files.source, &o.source},
        std::tuple{"destination", files.destination, &o.destination}}) {
    w.Name(role);
    w.BeginObject();
    w.Name("file");
    w.String(path);
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

void RenderNewErrors(const std::vector<Finding>& errors, std::ostream& os) {
  for (const Finding& f : errors) {
    os << "  error[" << f.code_name() << "] " << TerminalSafe(f.message);
    if (!f.urn.empty()) os << " (" << TerminalSafe(f.urn) << ")";
    os << "\n";
  }
}

}  // namespace pstate::report
