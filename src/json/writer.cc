#include "json/writer.h"

#include <charconv>
#include <cstring>

namespace pstate::json {
namespace {

/// True when Go would write `escaped` differently: it has escapes (Go's
/// set may differ), or raw characters Go escapes (U+2028, U+2029, and in
/// the HTML-safe style <, > and &).
bool NeedsCanonicalForm(std::string_view escaped, bool has_escapes, bool ascii,
                        EscapeStyle style) {
  if (has_escapes) return true;
  if (ascii && style == EscapeStyle::kExport) return false;
  // U+2028 and U+2029 start with 0xE2; memchr is vectorized.
  if (std::memchr(escaped.data(), 0xE2, escaped.size()) != nullptr) return true;
  if (style == EscapeStyle::kHtmlSafe) {
    return escaped.find_first_of("<>&") != std::string_view::npos;
  }
  return false;
}

}  // namespace

void Writer::Newline() {
  if (layout_ != Layout::kIndented) return;
  // One write of "\n" plus 4 spaces per level, from a growing template.
  std::size_t want = 1 + 4 * stack_.size();
  while (indent_.size() < want) indent_.append(indent_.empty() ? "\n" : "    ");
  out_.Write(std::string_view(indent_).substr(0, want));
}

void Writer::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  Frame& f = stack_.back();
  if (!f.empty) out_.Put(',');
  f.empty = false;
  Newline();
}

void Writer::BeginObject() {
  BeforeValue();
  out_.Put('{');
  stack_.push_back({true});
}

void Writer::EndObject() {
  bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) Newline();
  out_.Put('}');
}

void Writer::BeginArray() {
  BeforeValue();
  out_.Put('[');
  stack_.push_back({false});
}

void Writer::EndArray() {
  bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) Newline();
  out_.Put(']');
}

void Writer::Key(std::string_view escaped, bool has_escapes, bool ascii) {
  Frame& f = stack_.back();
  if (!f.empty) out_.Put(',');
  f.empty = false;
  Newline();
  WriteString(escaped, has_escapes, ascii);
  out_.Write(layout_ == Layout::kIndented ? ": " : ":");
  after_key_ = true;
}

void Writer::Key(const Value& key) {
  if (key.has_escapes && on_lossy_ && HasLoneSurrogate(key.raw())) {
    on_lossy_(key);
  }
  Key(key.raw(), key.has_escapes, key.ascii);
}

void Writer::WriteString(std::string_view escaped, bool has_escapes,
                         bool ascii) {
  out_.Put('"');
  if (!NeedsCanonicalForm(escaped, has_escapes, ascii, style_)) {
    out_.Write(escaped);
  } else if (std::size_t bound = CanonicalBound(escaped.size(), style_);
             bound <= io::Output::kMaxReserve) {
    // Rewritten straight into the output buffer.
    char* at = out_.Reserve(bound);
    out_.Advance(
        static_cast<std::size_t>(WriteCanonical(escaped, at, style_) - at));
  } else {
    scratch_.clear();
    AppendCanonical(escaped, &scratch_, style_);
    out_.Write(scratch_);
  }
  out_.Put('"');
}

void Writer::Write(const Value& value) { WriteValue(value); }

void Writer::Name(std::string_view bytes) {
  Frame& f = stack_.back();
  if (!f.empty) out_.Put(',');
  f.empty = false;
  Newline();
  WriteDecoded(bytes);
  out_.Write(layout_ == Layout::kIndented ? ": " : ":");
  after_key_ = true;
}

void Writer::String(std::string_view bytes) {
  BeforeValue();
  WriteDecoded(bytes);
}

void Writer::WriteDecoded(std::string_view bytes) {
  scratch_.clear();
  scratch_.push_back('"');
  AppendEscaped(bytes, &scratch_, style_);
  scratch_.push_back('"');
  out_.Write(scratch_);
}

void Writer::Int(std::int64_t n) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), n);
  RawValue(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
}

void Writer::Uint(std::uint64_t n) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), n);
  RawValue(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
}

void Writer::Bool(bool b) { RawValue(b ? "true" : "false"); }

void Writer::Null() { RawValue("null"); }

void Writer::RawValue(std::string_view json_text) {
  BeforeValue();
  out_.Write(json_text);
}

void Writer::WriteValue(const Value& value) {
  switch (value.type) {
    case Type::kNull:
      BeforeValue();
      out_.Write("null");
      return;
    case Type::kTrue:
      BeforeValue();
      out_.Write("true");
      return;
    case Type::kFalse:
      BeforeValue();
      out_.Write("false");
      return;
    case Type::kNumber:
      BeforeValue();
      out_.Write(value.raw());
      return;
    case Type::kString:
      BeforeValue();
      if (value.has_escapes && on_lossy_ && HasLoneSurrogate(value.raw())) {
        on_lossy_(value);
      }
      WriteString(value.raw(), value.has_escapes, value.ascii);
      return;
    case Type::kArray:
      BeginArray();
      for (const Value& e : value.array()) WriteValue(e);
      EndArray();
      return;
    case Type::kObject:
      BeginObject();
      for (const Member& m : value.object()) {
        Key(m.key);
        WriteValue(m.value);
      }
      EndObject();
      return;
  }
}

void Writer::WriteVerbatim(const Value& value) {
  switch (value.type) {
    case Type::kString:
      BeforeValue();
      WriteVerbatimText(value.raw());
      return;
    case Type::kArray:
      BeginArray();
      for (const Value& e : value.array()) WriteVerbatim(e);
      EndArray();
      return;
    case Type::kObject:
      BeginObject();
      for (const Member& m : value.object()) {
        Frame& f = stack_.back();
        if (!f.empty) out_.Put(',');
        f.empty = false;
        Newline();
        WriteVerbatimText(m.key.raw());
        out_.Write(layout_ == Layout::kIndented ? ": " : ":");
        after_key_ = true;
        WriteVerbatim(m.value);
      }
      EndObject();
      return;
    default: WriteValue(value); return;
  }
}

void Writer::WriteVerbatimText(std::string_view text) {
  out_.Put('"');
  if (style_ != EscapeStyle::kHtmlSafe) {
    out_.Write(text);
  } else {
    // Go's compaction of raw JSON under SetEscapeHTML(true) escapes
    // these bytes and leaves every existing escape as it is.
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      std::string_view esc;
      std::size_t len = 1;
      if (c == '<') {
        esc = "\\u003c";
      } else if (c == '>') {
        esc = "\\u003e";
      } else if (c == '&') {
        esc = "\\u0026";
      } else if (c == '\xE2' && i + 2 < text.size() && text[i + 1] == '\x80' &&
                 (text[i + 2] == '\xA8' || text[i + 2] == '\xA9')) {
        esc = text[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
        len = 3;
      } else {
        continue;
      }
      out_.Write(text.substr(start, i - start));
      out_.Write(esc);
      i += len - 1;
      start = i + 1;
    }
    out_.Write(text.substr(start));
  }
  out_.Put('"');
}

void Writer::Finish() {
  if (layout_ == Layout::kIndented) out_.Put('\n');
}

}  // namespace pstate::json
