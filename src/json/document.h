// A JSON document that owns its bytes: text, arena and tree in one movable
// object, for values that must outlive a reader callback (a secret's
// plaintext, a schema file, a value given on the command line).
#ifndef PSTATE_JSON_DOCUMENT_H_
#define PSTATE_JSON_DOCUMENT_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "io/window.h"
#include "json/parser.h"
#include "json/value.h"

namespace pstate::json {

/// Where and why a text is not a JSON document.
struct DocumentError {
  SyntaxCode code = SyntaxCode::kSyntax;
  std::string message;       ///< the parser's message, without location
  std::uint64_t offset = 0;  ///< of the offending byte, from 0
  io::LineColumn at;         ///< 1-based line and byte column of `offset`
};

class Document {
 public:
  /// Parses `text` as one complete JSON value (whitespace around it only),
  /// with the strict parser of parser.h. On failure the Status is kSyntax
  /// (kLimit for nesting deeper than `max_depth`) with the message
  /// "line L, column C (offset O): <cause>"; `*error`, when given, receives
  /// the same parts separately. Value offsets count from the start of
  /// `text`.
  static Result<Document> Parse(std::string text,
                                int max_depth = kDefaultMaxDepth,
                                DocumentError* error = nullptr);

  Document(Document&&) noexcept = default;
  Document& operator=(Document&&) noexcept = default;
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  /// The tree. Valid as long as the Document (moves included: the tree
  /// lives in the arena, which a move does not relocate).
  const Value& root() const { return root_; }
  /// The text as given.
  std::string_view text() const { return text_; }
  /// The arena holding the tree; values built from it (Clone, builders)
  /// may be allocated here to share the document's lifetime.
  Arena& arena() { return *arena_; }
  /// Duplicate object keys the parser saw (each second occurrence).
  std::span<const DuplicateKey> duplicates() const { return duplicates_; }
  /// Line and column of a byte offset in text() (clamped to its end).
  io::LineColumn Locate(std::uint64_t offset) const;

 private:
  Document() = default;

  std::string text_;
  std::unique_ptr<Arena> arena_;
  Value root_;
  std::vector<DuplicateKey> duplicates_;
};

}  // namespace pstate::json

#endif  // PSTATE_JSON_DOCUMENT_H_
