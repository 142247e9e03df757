#include "report/value.h"

#include "report/terminal.h"

namespace pstate::report {

void WriteValue(const diff::Value& v, json::Writer& w) {
  using diff::ValueKind;
  switch (v.kind) {
    case ValueKind::kNull: w.Null(); return;
    case ValueKind::kBool: w.Bool(v.boolean); return;
    case ValueKind::kNumber: w.RawValue(v.text); return;
    case ValueKind::kString: {
      // As stored (said to have no escapes, the writer keeps them as they
      // are; an HTML-safe writer still escapes <, > and &).
      json::Value s;
      s.type = json::Type::kString;
      s.text = v.text.data();
      s.size = static_cast<std::uint32_t>(v.text.size());
      w.Write(s);
      return;
    }
    case ValueKind::kArray:
      w.BeginArray();
      for (const diff::Value& e : v.elements) WriteValue(e, w);
      w.EndArray();
      return;
    case ValueKind::kObject:
      w.BeginObject();
      for (const pstate::ValueMember& m : v.members) {
        w.Key(m.key, /*has_escapes=*/false);  // as stored, as strings are
        WriteValue(m.value, w);
      }
      w.EndObject();
      return;
    case ValueKind::kSecret:
      if (v.hidden()) {
        w.String(kHiddenText);
      } else {
        WriteValue(v.elements.front(), w);
      }
      return;
  }
}

std::string CompactJson(const diff::Value& value) {
  std::string out;
  json::StringSink sink(&out);
  json::Writer w(sink, json::Layout::kCompact);
  WriteValue(value, w);
  (void)sink.Commit();
  return out;
}

std::string ValueText(const diff::Value& value, std::size_t width) {
  if (value.hidden()) return Shorten(kHiddenText, width);
  return Shorten(CompactJson(value), width);
}

}  // namespace pstate::report
