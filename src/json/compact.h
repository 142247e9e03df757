// A value as one line of compact JSON text, in memory.
//
// For messages, cache keys, a secret's plaintext and test expectations:
// places that need the text of a (small) value as a std::string. Whole
// states are written with json::Writer through an io::Output instead.
//
// Why not json::Writer with Layout::kCompact: the writer rewrites every
// string that has escapes into Go's canonical escaping ("\u0041" becomes
// "A"), which is right for rewriting a state but not for a text that must
// keep each string exactly as stored, and it needs an io::Output, whose
// in-memory form allocates a 1 MiB buffer per use.
#ifndef PSTATE_JSON_COMPACT_H_
#define PSTATE_JSON_COMPACT_H_

#include <string>

#include "json/string_codec.h"
#include "json/value.h"

namespace pstate::json {

/// How the compact text spells strings and keys.
enum class CompactStrings {
  /// As stored, escapes and all (with kHtmlSafe's extra escapes, below).
  kAsStored,
  /// Re-escaped the way Go writes the decoded text (AppendCanonical): the
  /// text a secret's plaintext or a fingerprint is compared in, so that two
  /// spellings of one string give one text.
  kCanonical,
};

/// `value` without insignificant whitespace, members in their order,
/// duplicates kept; numbers keep their text as stored, and with
/// CompactStrings::kAsStored keys and strings do too. This is what Go's
/// json.Marshal writes for a json.RawMessage holding the value's text
/// (encoding/json indent.go, appendCompact), where EscapeStyle::kHtmlSafe
/// (json.Marshal's default) additionally escapes the characters <, >, &
/// and U+2028, U+2029 inside strings as \u003c, \u003e, \u0026, \u2028,
/// \u2029. EscapeStyle::kExport changes no string byte.
std::string ToCompactJson(const Value& value,
                          EscapeStyle style = EscapeStyle::kExport,
                          CompactStrings strings = CompactStrings::kAsStored);

/// Appends the same text to `*out`.
void AppendCompactJson(const Value& value, std::string* out,
                       EscapeStyle style = EscapeStyle::kExport,
                       CompactStrings strings = CompactStrings::kAsStored);

}  // namespace pstate::json

#endif  // PSTATE_JSON_COMPACT_H_
