// A strict RFC 8259 parser for one JSON value held in memory, building a
// json::Value tree without unescaping or converting anything.
//
// It is the only JSON parser in pstate: the streaming state reader cuts the
// input into pieces (the envelope's members, each resource, ...) and hands
// each piece here. It reports the exact byte offset and a plain-language
// cause for every syntax error, tells "the bytes ran out" apart from "the
// bytes are wrong" so the reader can fetch more input and retry, validates
// UTF-8 inside strings, and records duplicate object keys.
#ifndef PSTATE_JSON_PARSER_H_
#define PSTATE_JSON_PARSER_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/value.h"

namespace pstate::json {

/// Readable bytes the caller guarantees after `end` (any content). Lets the
/// scanners load 32 bytes at a time without bounds checks.
inline constexpr std::size_t kParserPadding = 64;

/// Deeper nesting is rejected (code json-too-deep) instead of risking the
/// stack. Pulumi state nests a few dozen levels at most.
inline constexpr int kDefaultMaxDepth = 512;

enum class ParseStatus {
  kOk,
  kIncomplete,  ///< more input is needed (only when !at_eof)
  kError,
};

/// Why a text is not JSON. The state reader maps each to a finding code.
enum class SyntaxCode {
  kSyntax,       ///< not JSON grammar (includes an early end of input)
  kInvalidUtf8,  ///< a string holds bytes that are not UTF-8
  kTooDeep,      ///< nesting beyond the parser's depth limit
};

struct SyntaxError {
  SyntaxCode code = SyntaxCode::kSyntax;
  std::string message;
  std::uint64_t offset = 0;  ///< absolute offset of the offending byte
};

struct DuplicateKey {
  std::uint64_t offset = 0;  ///< absolute offset of the second occurrence
  std::string key;           ///< unescaped
};

class Parser {
 public:
  explicit Parser(int max_depth = kDefaultMaxDepth) : max_depth_(max_depth) {}

  /// Parses one value starting at `begin` (leading whitespace is skipped),
  /// stopping right after it; `*stop` receives that position. `end` bounds
  /// the available bytes (kParserPadding readable bytes must follow it);
  /// `base_offset` is the absolute offset of `begin`. The tree is allocated
  /// in `arena` and points into [begin, end).
  ParseStatus Parse(const char* begin, const char* end, bool at_eof,
                    std::uint64_t base_offset, Arena& arena, Value* out,
                    const char** stop);

  /// Parses a complete in-memory document (e.g. a secret's plaintext):
  /// one value and nothing but whitespace after it. Copies `text` into
  /// `arena` so the tree does not depend on the caller's buffer.
  ParseStatus ParseDocument(std::string_view text, std::uint64_t base_offset,
                            Arena& arena, Value* out);

  /// Valid after kError.
  const SyntaxError& error() const { return error_; }
  /// Duplicate keys found by the last successful Parse.
  std::span<const DuplicateKey> duplicates() const { return duplicates_; }

 private:
  bool ParseValue(const char*& p, Value* out, int depth);
  bool ParseString(const char*& p, Value* out);
  bool ParseNumber(const char*& p, Value* out);
  bool ParseLiteral(const char*& p, std::string_view word, Type type,
                    Value* out);
  bool ParseArray(const char*& p, Value* out, int depth);
  bool ParseObject(const char*& p, Value* out, int depth);
  void CheckDuplicates(std::size_t first, std::size_t count);
  const char* SkipWhitespace(const char* p) const;
  bool Fail(const char* at, SyntaxCode code, std::string message);
  bool NeedMore(const char* at, std::string_view what);
  std::uint64_t OffsetOf(const char* p) const {
    return base_ + static_cast<std::uint64_t>(p - begin_);
  }

  int max_depth_;
  const char* begin_ = nullptr;
  const char* end_ = nullptr;
  bool at_eof_ = true;
  bool incomplete_ = false;
  std::uint64_t base_ = 0;
  Arena* arena_ = nullptr;
  SyntaxError error_;
  std::vector<DuplicateKey> duplicates_;
  std::vector<Value> element_stack_;
  std::vector<Member> member_stack_;
  std::string scratch_;
  std::vector<std::pair<std::uint64_t, std::size_t>> dup_order_;
};

/// Human-readable name of a byte for error messages: 'x', or U+000A / 0xFF.
std::string DescribeByte(unsigned char c);

}  // namespace pstate::json

#endif  // PSTATE_JSON_PARSER_H_
