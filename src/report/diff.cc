#include "report/diff.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/color.h"
#include "report/terminal.h"
#include "report/value.h"

namespace pstate::report {
namespace {

using diff::ChangeKind;
using diff::FieldChange;
using diff::PropertyChange;
using diff::SecretTransition;

/// The members "before" and "after", each where that side has a value.
void WriteSides(json::Writer& w, const std::optional<diff::Value>& before,
                const std::optional<diff::Value>& after) {
  if (before) {
    w.Name("before");
    WriteValue(*before, w);
  }
  if (after) {
    w.Name("after");
    WriteValue(*after, w);
  }
}

std::string Shown(const std::optional<diff::Value>& v, std::size_t width) {
  return v ? ValueText(*v, width) : std::string();
}

std::string Values(ChangeKind kind, const std::optional<diff::Value>& before,
                   const std::optional<diff::Value>& after, std::size_t width) {
  switch (kind) {
    case ChangeKind::kAdd: return Shown(after, width);
    case ChangeKind::kDelete: return Shown(before, width);
    case ChangeKind::kUpdate:
      return Shown(before, width) + " => " + Shown(after, width);
  }
  return {};
}

/// One field or envelope change as JSON: {NAME_KEY: name, "kind", and
/// "before"/"after" where that side has a value}.
void WriteNamedChange(json::Writer& w, std::string_view name_key,
                      std::string_view name, diff::ChangeKind kind,
                      const std::optional<diff::Value>& before,
                      const std::optional<diff::Value>& after) {
  w.BeginObject();
  w.Name(name_key);
  w.String(name);
  w.Name("kind");
  w.String(diff::ChangeKindName(kind));
  WriteSides(w, before, after);
  w.EndObject();
}

/// A field update between two arrays (dependencies, aliases, replaceWith,
/// ...) element by element, as Pulumi's preview shows array diffs: the
/// header, then "- X" for each element only the old array has and "+ Y"
/// for each only the new one has (compared as compact JSON, duplicates
/// counted). False when the values are not both arrays.
bool ArrayFieldLines(const FieldChange& c, std::string_view indent,
                     std::size_t width, std::string* out) {
  if (c.kind != ChangeKind::kUpdate || !c.before || !c.after ||
      c.before->kind != diff::ValueKind::kArray ||
      c.after->kind != diff::ValueKind::kArray) {
    return false;
  }
  std::map<std::string, std::int64_t> balance;  // new count - old count
  for (const diff::Value& e : c.before->elements) --balance[CompactJson(e)];
  for (const diff::Value& e : c.after->elements) ++balance[CompactJson(e)];
  std::string lines;
  auto side = [&](const diff::Value& array, bool added) {
    for (const diff::Value& e : array.elements) {
      std::int64_t& n = balance[CompactJson(e)];
      if (added ? n <= 0 : n >= 0) continue;
      n += added ? -1 : 1;
      lines += std::string(indent) + "    ";
      lines +=
          TerminalSafe(std::string(added ? "+ " : "- ") + ValueText(e, width));
      lines += '\n';
    }
  };
  side(*c.before, false);
  side(*c.after, true);
  if (lines.empty()) return false;  // the same elements, reordered
  *out += std::string(indent) + TerminalSafe("~ " + c.name + ":") + "\n";
  *out += lines;
  return true;
}

}  // namespace

std::string_view Symbol(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::kAdd: return "+";
    case ChangeKind::kDelete: return "-";
    case ChangeKind::kUpdate: return "~";
  }
  return "~";
}

std::string ChangeLine(const PropertyChange& c, std::size_t width) {
  std::string line(Symbol(c.kind));
  line += ' ';
  line += diff::SectionName(c.section);
  if (!c.path.empty() && c.path[0] != '[') line += '.';
  line += c.path;
  line += ": ";
  line += Values(c.kind, c.before, c.after, width);
  if (c.unknown) line += " (unknown: different ciphertexts)";
  if (c.transition == SecretTransition::kToSecret) line += " (became secret)";
  if (c.transition == SecretTransition::kToPlaintext) {
    line += " (no longer secret)";
  }
  return TerminalSafe(line);
}

std::string ChangeLine(const FieldChange& c, std::size_t width) {
  std::string line(Symbol(c.kind));
  line += ' ';
  line += c.name;
  line += ": ";
  line += Values(c.kind, c.before, c.after, width);
  return TerminalSafe(line);
}

void RenderChangesText(ChangesView changes, std::string* out,
                       const ChangesTextOptions& options) {
  for (const PropertyChange& c : changes.properties) {
    out->append(options.indent);
    out->append(ChangeLine(c, options.max_value_width));
    out->push_back('\n');
  }
  for (const FieldChange& c : changes.fields) {
    if (ArrayFieldLines(c, options.indent, options.max_value_width, out)) {
      continue;
    }
    out->append(options.indent);
    out->append(ChangeLine(c, options.max_value_width));
    out->push_back('\n');
  }
}

void WriteChangesJson(ChangesView changes, json::Writer& w) {
  w.Name("properties");
  w.BeginArray();
  for (const PropertyChange& c : changes.properties) {
    w.BeginObject();
    w.Name("section");
    w.String(diff::SectionName(c.section));
    w.Name("path");
    w.String(c.path);
    w.Name("kind");
    w.String(diff::ChangeKindName(c.kind));
    if (c.secret) {
      w.Name("secret");
      w.Bool(true);
    }
    if (c.unknown) {
      w.Name("unknown");
      w.Bool(true);
    }
    if (c.transition == SecretTransition::kToSecret) {
      w.Name("transition");
      w.String("to-secret");
    } else if (c.transition == SecretTransition::kToPlaintext) {
      w.Name("transition");
      w.String("to-plaintext");
    }
    WriteSides(w, c.before, c.after);
    w.EndObject();
  }
  w.EndArray();
  w.Name("fields");
  w.BeginArray();
  for (const FieldChange& c : changes.fields) w.String(c.name);
  w.EndArray();
  w.Name("field_changes");
  w.BeginArray();
  for (const FieldChange& c : changes.fields) {
    WriteNamedChange(w, "name", c.name, c.kind, c.before, c.after);
  }
  w.EndArray();
}

// ---- a whole diff ----------------------------------------------------------

namespace {

std::string SummaryLine(const diff::DiffSummary& s) {
  return std::to_string(s.added) + " added, " + std::to_string(s.removed) +
         " removed, " + std::to_string(s.renamed) + " renamed, " +
         std::to_string(s.changed) + " changed, " +
         std::to_string(s.order_only) + " order-only, " +
         (s.order_broken == 0
              ? std::string()
              : std::to_string(s.order_broken) + " order-broken, ") +
         std::to_string(s.unchanged) + " unchanged; " +
         std::to_string(s.envelope) + " envelope change" +
         (s.envelope == 1 ? "" : "s") + "\n";
}

std::string_view EntrySymbol(diff::ResourceChangeKind kind) {
  switch (kind) {
    case diff::ResourceChangeKind::kAdded: return "+";
    case diff::ResourceChangeKind::kRemoved: return "-";
    default: return "~";
  }
}

/// Per type: "  TYPE: N added, N changed", most entries first.
std::string StatByType(const ::pstate::DiffResult& result) {
  struct Counts {
    std::uint64_t n[6] = {0, 0, 0, 0, 0, 0};
    std::uint64_t total = 0;
  };
  std::map<std::string, Counts> by_type;
  for (const ::pstate::ResourceChange& e : result.resources) {
    Counts& c = by_type[e.type];
    ++c.n[static_cast<std::size_t>(e.kind)];
    ++c.total;
  }
  std::vector<std::pair<std::string, Counts>> rows(by_type.begin(),
                                                   by_type.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.total > b.second.total;
  });
  static constexpr diff::ResourceChangeKind kKinds[] = {
      diff::ResourceChangeKind::kAdded,
      diff::ResourceChangeKind::kRemoved,
      diff::ResourceChangeKind::kRenamed,
      diff::ResourceChangeKind::kChanged,
      diff::ResourceChangeKind::kOrderOnly,
      diff::ResourceChangeKind::kOrderBroken};
  std::string out;
  for (const auto& [type, c] : rows) {
    std::string counts;
    for (diff::ResourceChangeKind k : kKinds) {
      std::uint64_t n = c.n[static_cast<std::size_t>(k)];
      if (n == 0) continue;
      counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " +
                std::string(diff::ResourceChangeKindName(k));
    }
    out += "  " + TerminalSafe(type) + ": " + counts + "\n";
  }
  return out;
}

}  // namespace

std::string RenderDiffText(const ::pstate::DiffResult& result,
                           const DiffTextOptions& options) {
  if (options.stat_only) {
    return StatByType(result) + SummaryLine(result.summary);
  }
  std::string text = RenderDiffText(result, false, options.limit);
  return options.color ? sgr::ColorBySymbol(text) : text;
}

std::string RenderDiffText(const ::pstate::DiffResult& result, bool stat_only,
                           std::size_t limit) {
  std::string out;
  if (!stat_only) {
    std::size_t shown = 0;
    for (const ::pstate::ResourceChange& e : result.resources) {
      if (limit > 0 && shown == limit) {
        std::size_t omitted = result.resources.size() - shown;
        out += "... " + std::to_string(omitted) + " more resource" +
               (omitted == 1 ? "" : "s") + " not shown (--limit " +
               std::to_string(limit) + ")\n";
        break;
      }
      ++shown;
      std::string line(EntrySymbol(e.kind));
      line += ' ';
      line += e.urn;
      line += " (";
      line += diff::ResourceChangeKindName(e.kind);
      if (e.kind == diff::ResourceChangeKind::kRenamed) {
        if (e.rename == diff::RenameKind::kStack) line += " with the stack";
        line += " from " + e.from;
      }
      if (e.deleted) line += ", delete: true";
      if (!e.id.empty() && (e.kind == diff::ResourceChangeKind::kAdded ||
                            e.kind == diff::ResourceChangeKind::kRemoved)) {
        line += ", id " + e.id;
      }
      line += ")";
      out += TerminalSafe(line);
      out += '\n';
      RenderChangesText(e, &out);
      for (const diff::OrderNote& n : e.order) {
        out += TerminalSafe("    ! " + n.field + " " + n.target +
                            " comes after it");
        out += '\n';
      }
    }
    if (!result.envelope.empty()) {
      out += "envelope:\n";
      for (const diff::EnvelopeEntry& e : result.envelope) {
        FieldChange c{e.field, e.kind, e.before, e.after};
        out += "    ";
        if (e.kind == ChangeKind::kUpdate && e.before == e.after) {
          // A pending operation whose resource changed: named once.
          c.kind = ChangeKind::kAdd;
          out += "~" + ChangeLine(c).substr(1) + " (changed)";
        } else {
          out += ChangeLine(c);
        }
        out += '\n';
      }
    }
  }
  out += SummaryLine(result.summary);
  return out;
}

std::string RenderDiffJson(const ::pstate::DiffResult& result,
                           std::size_t limit) {
  std::string out;
  json::StringSink sink(&out);
  json::Writer w(sink, json::Layout::kCompact);
  w.BeginObject();
  w.Name("resources");
  w.BeginArray();
  std::size_t shown = 0;
  for (const ::pstate::ResourceChange& e : result.resources) {
    if (limit > 0 && shown == limit) break;
    ++shown;
    w.BeginObject();
    w.Name("urn");
    w.String(e.urn);
    w.Name("change");
    w.String(diff::ResourceChangeKindName(e.kind));
    if (e.kind == diff::ResourceChangeKind::kRenamed) {
      w.Name("from");
      w.String(e.from);
      if (e.rename == diff::RenameKind::kStack) {
        w.Name("renamed_by");
        w.String("stack");
      }
    }
    w.Name("type");
    w.String(e.type);
    if (!e.id.empty()) {
      w.Name("id");
      w.String(e.id);
    }
    if (e.deleted) {
      w.Name("delete");
      w.Bool(true);
    }
    WriteChangesJson(e, w);
    if (!e.order.empty()) {
      w.Name("order");
      w.BeginArray();
      for (const diff::OrderNote& n : e.order) {
        w.BeginObject();
        w.Name("field");
        w.String(n.field);
        w.Name("target");
        w.String(n.target);
        w.EndObject();
      }
      w.EndArray();
    }
    w.EndObject();
  }
  w.EndArray();
  if (shown < result.resources.size()) {
    w.Name("truncated");
    w.Bool(true);
    w.Name("omitted");
    w.Uint(result.resources.size() - shown);
  }
  w.Name("envelope");
  w.BeginArray();
  for (const diff::EnvelopeEntry& e : result.envelope) {
    WriteNamedChange(w, "field", e.field, e.kind, e.before, e.after);
  }
  w.EndArray();
  const diff::DiffSummary& s = result.summary;
  w.Name("summary");
  w.BeginObject();
  w.Name("same");
  w.Bool(result.same());
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
  w.Name("order_only");
  w.Uint(s.order_only);
  if (s.order_broken > 0) {
    w.Name("order_broken");
    w.Uint(s.order_broken);
  }
  w.Name("unchanged");
  w.Uint(s.unchanged);
  w.Name("envelope");
  w.Uint(s.envelope);
  w.EndObject();
  w.EndObject();
  sink.Put('\n');
  (void)sink.Commit();
  return out;
}
}  // namespace pstate::report
