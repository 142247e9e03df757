#include "json/compact.h"

#include <cstring>
#include <string_view>

namespace pstate::json {
namespace {

void AppendStringText(std::string_view escaped, EscapeStyle style,
                      CompactStrings strings, std::string* out) {
  out->push_back('"');
  if (strings == CompactStrings::kCanonical) {
    AppendCanonical(escaped, out, style);
    out->push_back('"');
    return;
  }
  if (style == EscapeStyle::kExport) {
    out->append(escaped);
    out->push_back('"');
    return;
  }
  // The characters Go's compact escapes can only occur inside strings, and
  // never right after a backslash in valid JSON, so plain replacement is
  // exact.
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t start = 0;
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    auto c = static_cast<unsigned char>(escaped[i]);
    if (c == '<' || c == '>' || c == '&') {
      out->append(escaped, start, i - start);
      out->append("\\u00");
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 0xF]);
      start = i + 1;
    } else if (c == 0xE2 && i + 2 < escaped.size() &&
               static_cast<unsigned char>(escaped[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(escaped[i + 2]) & 0xFE) == 0xA8) {
      // U+2028 (E2 80 A8) or U+2029 (E2 80 A9).
      out->append(escaped, start, i - start);
      out->append(escaped[i + 2] == '\xA8' ? "\\u2028" : "\\u2029");
      start = i + 3;
      i += 2;
    }
  }
  out->append(escaped, start, escaped.size() - start);
  out->push_back('"');
}

void AppendValue(const Value& value, EscapeStyle style, CompactStrings strings,
                 std::string* out) {
  switch (value.type) {
    case Type::kNull: out->append("null"); return;
    case Type::kTrue: out->append("true"); return;
    case Type::kFalse: out->append("false"); return;
    case Type::kNumber: out->append(value.raw()); return;
    case Type::kString:
      AppendStringText(value.raw(), style, strings, out);
      return;
    case Type::kArray: {
      out->push_back('[');
      bool first = true;
      for (const Value& e : value.array()) {
        if (!first) out->push_back(',');
        first = false;
        AppendValue(e, style, strings, out);
      }
      out->push_back(']');
      return;
    }
    case Type::kObject: {
      out->push_back('{');
      bool first = true;
      for (const Member& m : value.object()) {
        if (!first) out->push_back(',');
        first = false;
        AppendStringText(m.key.raw(), style, strings, out);
        out->push_back(':');
        AppendValue(m.value, style, strings, out);
      }
      out->push_back('}');
      return;
    }
  }
}

}  // namespace

void AppendCompactJson(const Value& value, std::string* out, EscapeStyle style,
                       CompactStrings strings) {
  AppendValue(value, style, strings, out);
}

std::string ToCompactJson(const Value& value, EscapeStyle style,
                          CompactStrings strings) {
  std::string out;
  AppendValue(value, style, strings, &out);
  return out;
}

}  // namespace pstate::json
