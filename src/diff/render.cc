#include "pstate/diff/render.h"

#include "pstate/base/utf8.h"
#include "pstate/diag/render.h"

namespace pstate::diff {
namespace {

std::string Shown(std::string_view json_text, std::size_t width) {
  std::string text = json_text == "\"[secret]\"" ? std::string("[secret]")
                                                 : std::string(json_text);
  if (width > 3 && text.size() > width) {
    text.resize(utf8::CutPoint(text, width - 3));  // whole characters only
    text += "...";
  }
  return text;
}

std::string Values(ChangeKind kind, std::string_view before,
                   std::string_view after, std::size_t width) {
  switch (kind) {
    case ChangeKind::kAdd: return Shown(after, width);
    case ChangeKind::kDelete: return Shown(before, width);
    case ChangeKind::kUpdate:
      return Shown(before, width) + " => " + Shown(after, width);
  }
  return {};
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
  line += SectionName(c.section);
  if (!c.path.empty() && c.path[0] != '[') line += '.';
  line += c.path;
  line += ": ";
  line += Values(c.kind, c.before, c.after, width);
  if (c.unknown) line += " (unknown: different ciphertexts)";
  if (c.transition == SecretTransition::kToSecret) line += " (became secret)";
  if (c.transition == SecretTransition::kToPlaintext) {
    line += " (no longer secret)";
  }
  return diag::TerminalSafe(line);
}

std::string ChangeLine(const FieldChange& c, std::size_t width) {
  std::string line(Symbol(c.kind));
  line += ' ';
  line += c.name;
  line += ": ";
  line += Values(c.kind, c.before, c.after, width);
  return diag::TerminalSafe(line);
}

void RenderChangesText(const ResourceChanges& changes, std::string* out,
                       const TextOptions& options) {
  for (const PropertyChange& c : changes.properties) {
    out->append(options.indent);
    out->append(ChangeLine(c, options.max_value_width));
    out->push_back('\n');
  }
  for (const FieldChange& c : changes.fields) {
    out->append(options.indent);
    out->append(ChangeLine(c, options.max_value_width));
    out->push_back('\n');
  }
}

void AppendChangesJson(const ResourceChanges& changes, std::string* out) {
  out->append("\"properties\":[");
  bool first = true;
  for (const PropertyChange& c : changes.properties) {
    if (!first) out->push_back(',');
    first = false;
    out->append("{\"section\":\"");
    out->append(SectionName(c.section));
    out->append("\",\"path\":");
    out->append(diag::JsonString(c.path));
    out->append(",\"kind\":\"");
    out->append(ChangeKindName(c.kind));
    out->push_back('"');
    if (c.secret) out->append(",\"secret\":true");
    if (c.unknown) out->append(",\"unknown\":true");
    if (c.transition == SecretTransition::kToSecret) {
      out->append(",\"transition\":\"to-secret\"");
    } else if (c.transition == SecretTransition::kToPlaintext) {
      out->append(",\"transition\":\"to-plaintext\"");
    }
    if (!c.before.empty()) out->append(",\"before\":").append(c.before);
    if (!c.after.empty()) out->append(",\"after\":").append(c.after);
    out->push_back('}');
  }
  out->append("],\"fields\":[");
  first = true;
  for (const FieldChange& c : changes.fields) {
    if (!first) out->push_back(',');
    first = false;
    out->append(diag::JsonString(c.name));
  }
  out->append("],\"field_changes\":[");
  first = true;
  for (const FieldChange& c : changes.fields) {
    if (!first) out->push_back(',');
    first = false;
    out->append("{\"name\":");
    out->append(diag::JsonString(c.name));
    out->append(",\"kind\":\"");
    out->append(ChangeKindName(c.kind));
    out->push_back('"');
    if (!c.before.empty()) out->append(",\"before\":").append(c.before);
    if (!c.after.empty()) out->append(",\"after\":").append(c.after);
    out->push_back('}');
  }
  out->push_back(']');
}

}  // namespace pstate::diff
