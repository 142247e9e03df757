// The one way report/ writes XML (JUnit): elements, attributes and text
// escaped as XML 1.0 requires, so no text from a state can open, close or
// break an element.
#ifndef PSTATE_REPORT_XML_WRITER_H_
#define PSTATE_REPORT_XML_WRITER_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace pstate::report {

/// `s` as XML 1.0 character data (`attribute` false) or as an attribute
/// value in double quotes (`attribute` true): & < > escaped (and " and the
/// whitespace characters tab, LF and CR in an attribute, so a parser's
/// attribute-value normalisation keeps them). Characters XML 1.0 cannot
/// carry at all (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF)
/// are written as the text \u00XX (\uFFFE), and ill-formed UTF-8 bytes as
/// U+FFFD, so the document always parses.
std::string XmlEscape(std::string_view s, bool attribute);

/// Writes one UTF-8 XML document, indented by two spaces per level.
/// Element and attribute names are the caller's constants; every value and
/// text goes through XmlEscape.
class XmlWriter {
 public:
  /// Writes the XML declaration.
  explicit XmlWriter(std::ostream& out);

  /// Starts an element; Attribute calls follow, then children or Text.
  void Open(std::string_view name);
  void Attribute(std::string_view name, std::string_view value);
  void Attribute(std::string_view name, std::uint64_t value);
  /// Character data of the element opened last (no children after it).
  void Text(std::string_view text);
  /// Ends the element opened last (<x/> when it has no content).
  void Close();

 private:
  /// Ends a pending start tag ("<x a='1'" -> "<x a='1'>").
  void FinishStartTag();

  std::ostream& out_;
  struct Element {
    std::string name;
    bool has_children = false;
    bool has_text = false;
  };
  std::vector<Element> open_;
  bool start_tag_pending_ = false;
};

}  // namespace pstate::report

#endif  // PSTATE_REPORT_XML_WRITER_H_
