#include "report/history.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "backend/backend.h"
#include "json/writer.h"
#include "report/diff.h"
#include "report/terminal.h"

namespace pstate::report {
namespace {

using backend::FormatUnixSeconds;
using backend::HistoryEntry;

std::string Time(const HistoryEntry& e) {
  return FormatUnixSeconds(e.unix_nano / 1000000000);
}

/// "42s", "3m12s", "1h02m": the update's wall time; "" when unknown.
std::string Duration(const backend::UpdateInfo& info) {
  if (info.start_time == 0 || info.end_time < info.start_time) return "";
  std::int64_t s = info.end_time - info.start_time;
  auto two = [](std::int64_t n) {
    return (n < 10 ? "0" : "") + std::to_string(n);
  };
  if (s < 60) return std::to_string(s) + "s";
  if (s < 3600) return std::to_string(s / 60) + "m" + two(s % 60) + "s";
  return std::to_string(s / 3600) + "h" + two(s / 60 % 60) + "m";
}

/// "+1 ~2 -0" (create, update, delete) and "+-N" for replacements.
std::string Counts(const backend::UpdateInfo& info) {
  std::string out = "+" + std::to_string(info.Changes("create")) + " ~" +
                    std::to_string(info.Changes("update")) + " -" +
                    std::to_string(info.Changes("delete"));
  if (std::int64_t r = info.Changes("replace"); r != 0) {
    out += " +-" + std::to_string(r);
  }
  return out;
}

void EntryJson(const HistoryEntry& e, json::Writer& w) {
  w.Name("number");
  w.Int(e.number);
  w.Name("time");
  w.String(Time(e));
  w.Name("unix_nano");
  w.Int(e.unix_nano);
  w.Name("kind");
  w.String(e.info.kind);
  w.Name("result");
  w.String(e.info.result);
  w.Name("message");
  w.String(e.info.message);
  w.Name("start_time");
  w.Int(e.info.start_time);
  w.Name("end_time");
  w.Int(e.info.end_time);
  w.Name("resource_changes");
  w.BeginObject();
  for (const auto& [op, n] : e.info.resource_changes) {
    w.Name(op);
    w.Int(n);
  }
  w.EndObject();
  w.Name("history_file");
  w.String(e.history_path);
  w.Name("checkpoint_file");
  if (e.checkpoint_path.empty()) {
    w.Null();
  } else {
    w.String(e.checkpoint_path);
  }
}

void SummaryJson(const diff::DiffSummary& s, json::Writer& w) {
  w.BeginObject();
  w.Name("before_resources");
  w.Uint(s.before_resources);
  w.Name("after_resources");
  w.Uint(s.after_resources);
  w.Name("added");
  w.Uint(s.added);
  w.Name("removed");
  w.Uint(s.removed);
  w.Name("renamed");
  w.Uint(s.renamed);
  w.Name("changed");
  w.Uint(s.changed);
  w.Name("unchanged");
  w.Uint(s.unchanged);
  w.EndObject();
}

}  // namespace

void RenderBackendText(const std::vector<history::StackSummary>& stacks,
                       std::ostream& out) {
  std::vector<std::vector<std::string>> rows = {
      {"STACK", "UPDATES", "LAST UPDATE", "RESOURCES", "HISTORY BYTES",
       "BACKUP BYTES"}};
  std::uint64_t updates = 0, history = 0, backups = 0;
  for (const history::StackSummary& s : stacks) {
    std::string last = "-";
    if (s.last) {
      last =
          Time(*s.last) + " " + s.last->info.kind + " " + s.last->info.result;
    }
    std::string name = s.stack.QualifiedName();
    if (s.locked) name += " (locked)";
    rows.push_back({name, std::to_string(s.updates), last,
                    s.resources ? std::to_string(*s.resources) : "?",
                    std::to_string(s.history_bytes),
                    std::to_string(s.backup_bytes)});
    updates += s.updates;
    history += s.history_bytes;
    backups += s.backup_bytes;
  }
  Table(rows, out);
  out << stacks.size() << (stacks.size() == 1 ? " stack, " : " stacks, ")
      << updates << (updates == 1 ? " update, " : " updates, ") << history
      << " bytes of history, " << backups << " bytes of backups\n";
  for (const history::StackSummary& s : stacks) {
    if (!s.error.empty()) {
      out << "note: " << TerminalSafe(s.stack.QualifiedName()) << ": "
          << TerminalSafe(s.error) << "\n";
    }
  }
}

void RenderBackendJson(const std::vector<history::StackSummary>& stacks,
                       std::ostream& os) {
  json::StringSink sink(&os);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginObject();
  w.Name("stacks");
  w.BeginArray();
  for (const history::StackSummary& s : stacks) {
    w.BeginObject();
    w.Name("stack");
    w.String(s.stack.QualifiedName());
    w.Name("checkpoint_path");
    w.String(s.stack.checkpoint);
    w.Name("updates");
    w.Uint(s.updates);
    w.Name("last_update");
    if (s.last) {
      w.BeginObject();
      EntryJson(*s.last, w);
      w.EndObject();
    } else {
      w.Null();
    }
    w.Name("resources");
    if (s.resources) {
      w.Uint(*s.resources);
    } else {
      w.Null();
    }
    w.Name("history_bytes");
    w.Uint(s.history_bytes);
    w.Name("backup_bytes");
    w.Uint(s.backup_bytes);
    w.Name("locked");
    w.Bool(s.locked);
    if (!s.error.empty()) {
      w.Name("error");
      w.String(s.error);
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.Finish();
  sink.Write("\n");
}

void RenderUpdatesText(const history::Target& target,
                       const std::vector<history::UpdateRow>& rows,
                       std::ostream& out) {
  out << TerminalSafe(target.stack.QualifiedName()) << ": " << rows.size()
      << (rows.size() == 1 ? " update" : " updates") << " in "
      << TerminalSafe(target.stack.HistoryDir()) << "\n";
  std::vector<std::vector<std::string>> table = {{"#", "TIME", "KIND", "RESULT",
                                                  "DURATION", "CHANGES",
                                                  "CHECKPOINT", "MESSAGE"}};
  for (const history::UpdateRow& r : rows) {
    const HistoryEntry& e = r.entry;
    std::string copy(history::CopyStateName(r.copy));
    if (r.copy == history::CopyState::kInvalid) {
      copy += " (" + std::to_string(r.errors) + " errors)";
    }
    std::string message = e.info.message;
    if (std::size_t nl = message.find('\n'); nl != std::string::npos) {
      message = message.substr(0, nl) + " ...";
    }
    table.push_back({std::to_string(e.number), Time(e), e.info.kind,
                     e.info.result, Duration(e.info), Counts(e.info), copy,
                     message});
  }
  Table(table, out);
}

void RenderUpdatesJson(const history::Target& target,
                       const std::vector<history::UpdateRow>& rows,
                       std::ostream& os) {
  json::StringSink sink(&os);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginObject();
  w.Name("stack");
  w.String(target.stack.QualifiedName());
  w.Name("checkpoint_path");
  w.String(target.stack.checkpoint);
  w.Name("updates");
  w.BeginArray();
  for (const history::UpdateRow& r : rows) {
    w.BeginObject();
    EntryJson(r.entry, w);
    w.Name("checkpoint_state");
    w.String(history::CopyStateName(r.copy));
    w.Name("errors");
    w.Uint(r.errors);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.Finish();
  sink.Write("\n");
}

void RenderRestoreText(const history::RestoreResult& r, std::ostream& out) {
  const diff::DiffSummary& s = r.changes;
  out << "restored " << TerminalSafe(r.version_file) << " -> "
      << TerminalSafe(r.written) << "\n";
  out << "against the current state: " << s.added << " added, " << s.removed
      << " removed, " << s.renamed << " renamed, " << s.changed << " changed, "
      << s.unchanged << " unchanged (" << s.before_resources << " -> "
      << s.after_resources << " resources)\n";
  if (!r.backup.empty()) {
    out << "the previous checkpoint is kept as " << TerminalSafe(r.backup)
        << "\n";
  }
}

void RenderRestoreJson(const history::RestoreResult& r, std::ostream& os) {
  json::StringSink sink(&os);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginObject();
  w.Name("version_file");
  w.String(r.version_file);
  w.Name("written");
  w.String(r.written);
  w.Name("backup");
  if (r.backup.empty()) {
    w.Null();
  } else {
    w.String(r.backup);
  }
  w.Name("changes");
  SummaryJson(r.changes, w);
  w.EndObject();
  w.Finish();
  sink.Write("\n");
}

void RenderPruneText(const history::PruneResult& r, std::ostream& out) {
  for (const history::PruneFile& f : r.files) {
    out << (r.deleted ? "deleted " : "would delete ") << f.kind << " "
        << TerminalSafe(f.path) << " (" << f.bytes << " bytes)\n";
  }
  for (const std::string& s : r.locked) {
    out << "skipped " << TerminalSafe(s)
        << ": locked (an update may be running)\n";
  }
  out << r.files.size() << (r.files.size() == 1 ? " file, " : " files, ")
      << r.bytes << " bytes " << (r.deleted ? "freed" : "to free");
  if (!r.deleted && !r.files.empty())
    out << " (run again with --yes to delete)";
  out << "\n";
}

void RenderPruneJson(const history::PruneResult& r, std::ostream& os) {
  json::StringSink sink(&os);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginObject();
  w.Name("deleted");
  w.Bool(r.deleted);
  w.Name("bytes");
  w.Uint(r.bytes);
  w.Name("files");
  w.BeginArray();
  for (const history::PruneFile& f : r.files) {
    w.BeginObject();
    w.Name("stack");
    w.String(f.stack);
    w.Name("kind");
    w.String(f.kind);
    w.Name("path");
    w.String(f.path);
    w.Name("bytes");
    w.Uint(f.bytes);
    w.EndObject();
  }
  w.EndArray();
  w.Name("locked");
  w.BeginArray();
  for (const std::string& s : r.locked) w.String(s);
  w.EndArray();
  w.EndObject();
  w.Finish();
  sink.Write("\n");
}

void RenderBlameText(const history::BlameResult& r, std::ostream& out) {
  for (const history::BlameEvent& ev : r.events) {
    const HistoryEntry& e = ev.entry;
    std::string head = "update " + std::to_string(e.number) + "  " + Time(e) +
                       "  " + e.info.kind + "  " +
                       std::string(history::BlameKindName(ev.kind));
    if (ev.kind == history::BlameKind::kRenamed) {
      head += " from " + ev.from + " to " + ev.urn;
    }
    if (!e.info.message.empty()) head += "  \"" + e.info.message + "\"";
    out << TerminalSafe(head) << "\n";
    if (!ev.uncertain.empty()) {
      std::string list;
      for (int n : ev.uncertain) {
        list += (list.empty() ? "" : ", ") + std::to_string(n);
      }
      out << "    (or in update " << list
          << ", which kept no checkpoint copy)\n";
    }
    std::string lines;
    RenderChangesText({ev.properties, ev.fields}, &lines);
    out << lines;
  }
  out << r.events.size()
      << (r.events.size() == 1 ? " event in " : " events in ") << r.versions
      << (r.versions == 1 ? " version\n" : " versions\n");
}

void RenderBlameJson(const history::BlameResult& r, std::ostream& os) {
  json::StringSink sink(&os);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginObject();
  w.Name("versions");
  w.Uint(r.versions);
  w.Name("events");
  w.BeginArray();
  for (const history::BlameEvent& ev : r.events) {
    w.BeginObject();
    w.Name("event");
    w.String(history::BlameKindName(ev.kind));
    w.Name("urn");
    w.String(ev.urn);
    if (!ev.from.empty()) {
      w.Name("from");
      w.String(ev.from);
    }
    w.Name("update");
    w.BeginObject();
    EntryJson(ev.entry, w);
    w.EndObject();
    w.Name("uncertain");
    w.BeginArray();
    for (int n : ev.uncertain) w.Int(n);
    w.EndArray();
    WriteChangesJson({ev.properties, ev.fields}, w);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.Finish();
  sink.Write("\n");
}

}  // namespace pstate::report
