#include "report/xml_writer.h"

#include "base/utf8.h"

namespace pstate::report {
namespace {

/// Appends \uXXXX for a character XML 1.0 cannot carry.
void AppendUnicodeEscape(char32_t cp, std::string& out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) {
    out.push_back(kHex[(cp >> shift) & 0xF]);
  }
}

}  // namespace

std::string XmlEscape(std::string_view s, bool attribute) {
  std::string out;
  out.reserve(s.size());
  while (!s.empty()) {
    auto c = static_cast<unsigned char>(s.front());
    if (c < 0x80) {
      switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += attribute ? "&quot;" : "\""; break;
        case '\t': out += attribute ? "&#9;" : "\t"; break;
        case '\n': out += attribute ? "&#10;" : "\n"; break;
        case '\r': out += "&#13;"; break;
        default:
          if (c < 0x20) {
            AppendUnicodeEscape(c, out);
          } else {
            out.push_back(static_cast<char>(c));
          }
      }
      s.remove_prefix(1);
      continue;
    }
    utf8::Char ch = utf8::Decode(s);
    if (!ch.valid) {
      utf8::Append(utf8::kReplacement, &out);
    } else if (ch.code_point == 0xFFFE || ch.code_point == 0xFFFF) {
      AppendUnicodeEscape(ch.code_point, out);
    } else {
      out.append(s.substr(0, ch.size));
    }
    s.remove_prefix(ch.size);
  }
  return out;
}

XmlWriter::XmlWriter(std::ostream& out) : out_(out) {
  out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
}

void XmlWriter::FinishStartTag() {
  if (start_tag_pending_) {
    out_ << '>';
    start_tag_pending_ = false;
  }
}

void XmlWriter::Open(std::string_view name) {
  if (!open_.empty()) {
    FinishStartTag();
    open_.back().has_children = true;
    out_ << '\n';
  }
  out_ << std::string(open_.size() * 2, ' ') << '<' << name;
  open_.push_back({std::string(name)});
  start_tag_pending_ = true;
}

void XmlWriter::Attribute(std::string_view name, std::string_view value) {
  out_ << ' ' << name << "=\"" << XmlEscape(value, true) << '"';
}

void XmlWriter::Attribute(std::string_view name, std::uint64_t value) {
  out_ << ' ' << name << "=\"" << value << '"';
}

void XmlWriter::Text(std::string_view text) {
  FinishStartTag();
  open_.back().has_text = true;
  out_ << XmlEscape(text, false);
}

void XmlWriter::Close() {
  Element element = std::move(open_.back());
  open_.pop_back();
  if (start_tag_pending_) {
    out_ << "/>";
    start_tag_pending_ = false;
  } else {
    if (element.has_children && !element.has_text) {
      out_ << '\n' << std::string(open_.size() * 2, ' ');
    }
    out_ << "</" << element.name << '>';
  }
  if (open_.empty()) out_ << '\n';
}

}  // namespace pstate::report
