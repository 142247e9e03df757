// Converting between JSON string text (escaped) and the bytes it denotes.
#ifndef PSTATE_JSON_STRING_CODEC_H_
#define PSTATE_JSON_STRING_CODEC_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "base/utf8.h"

namespace pstate::json {

/// Appends the bytes denoted by `escaped` (the text between the quotes of a
/// JSON string the parser accepted) to `out`. A \u escape of a lone UTF-16
/// surrogate becomes U+FFFD, as Go's encoding/json decodes it.
void AppendUnescaped(std::string_view escaped, std::string* out);
std::string Unescape(std::string_view escaped);

/// True when `escaped` (JSON string text the parser accepted) holds a \u
/// escape of a lone UTF-16 surrogate: the one thing Go's decoder (and so
/// AppendUnescaped and AppendCanonical) cannot keep, since it becomes
/// U+FFFD. Rewriting commands note such strings, as they note numbers.
bool HasLoneSurrogate(std::string_view escaped);

/// How AppendEscaped writes characters Go treats specially.
enum class EscapeStyle {
  /// `pulumi stack export`: json.Encoder with SetEscapeHTML(false).
  kExport,
  /// json.Marshal (checkpoints before v3.238, secrets' plaintext): also
  /// escapes <, > and & as \u003c, \u003e, \u0026.
  kHtmlSafe,
};

/// Appends `decoded` escaped the way Go's encoding/json writes strings:
/// \" \\ \n \r \t \b \f (\b and \f since Go 1.22), other control
/// characters as \u00XX, U+2028 and U+2029 as \u2028 and \u2029, and each
/// invalid UTF-8 byte as \ufffd.
void AppendEscaped(std::string_view decoded, std::string* out,
                   EscapeStyle style = EscapeStyle::kExport);

/// Appends `escaped` (JSON string text the parser accepted) rewritten to
/// the form AppendEscaped(Unescape(escaped)) gives, in one pass without
/// decoding the whole string: runs of plain text are copied as they are.
void AppendCanonical(std::string_view escaped, std::string* out,
                     EscapeStyle style = EscapeStyle::kExport);

/// Bytes WriteCanonical may touch at its output for `escaped_size` bytes
/// of input: the largest result plus kCanonicalSlack (it stores sixteen
/// bytes at a time).
inline constexpr std::size_t kCanonicalSlack = 16;
std::size_t CanonicalBound(std::size_t escaped_size,
                           EscapeStyle style = EscapeStyle::kExport);

/// AppendCanonical into raw memory: writes the canonical form of `escaped`
/// at `out`, which must have CanonicalBound(escaped.size(), style) bytes
/// of room, and returns the end of what it wrote. Writers use it to
/// rewrite a string straight into their output buffer.
char* WriteCanonical(std::string_view escaped, char* out,
                     EscapeStyle style = EscapeStyle::kExport);

}  // namespace pstate::json

#endif  // PSTATE_JSON_STRING_CODEC_H_
