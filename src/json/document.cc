#include "json/document.h"

#include <algorithm>
#include <utility>

namespace pstate::json {

Result<Document> Document::Parse(std::string text, int max_depth,
                                 DocumentError* error) {
  Document doc;
  doc.text_ = std::move(text);
  doc.arena_ = std::make_unique<Arena>();
  Parser parser(max_depth);
  // ParseDocument copies the text into the arena, so the tree never points
  // into text_ (whose bytes a move of the std::string may relocate).
  ParseStatus status =
      parser.ParseDocument(doc.text_, 0, *doc.arena_, &doc.root_);
  if (status != ParseStatus::kOk) {
    const SyntaxError& e = parser.error();
    io::LineColumn at = doc.Locate(e.offset);
    std::string message = "line " + std::to_string(at.line) + ", column " +
                          std::to_string(at.column) + " (offset " +
                          std::to_string(e.offset) + "): " + e.message;
    if (error != nullptr) *error = {e.code, e.message, e.offset, at};
    return Status(e.code == SyntaxCode::kTooDeep ? Errc::kLimit : Errc::kSyntax,
                  std::move(message));
  }
  auto dups = parser.duplicates();
  doc.duplicates_.assign(dups.begin(), dups.end());
  return doc;
}

io::LineColumn Document::Locate(std::uint64_t offset) const {
  std::size_t end =
      static_cast<std::size_t>(std::min<std::uint64_t>(offset, text_.size()));
  std::string_view before(text_.data(), end);
  std::uint64_t line = 1 + static_cast<std::uint64_t>(
                               std::count(before.begin(), before.end(), '\n'));
  std::size_t nl = before.rfind('\n');
  std::size_t line_start = nl == std::string_view::npos ? 0 : nl + 1;
  return {line, static_cast<std::uint64_t>(end - line_start) + 1};
}

}  // namespace pstate::json
