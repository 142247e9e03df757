// ASCII character classes and case mapping, independent of the C locale.
//
// The <cctype> functions depend on the process locale and take an int that
// must be an unsigned char value; these take a char, never look at the
// locale and treat every byte >= 0x80 as "not a letter, digit or space".
// That is what the formats pstate reads define: Go's strconv, JSON, base64,
// URNs and RFC 3339 are all ASCII grammars.
#ifndef PSTATE_BASE_ASCII_H_
#define PSTATE_BASE_ASCII_H_

#include <string>
#include <string_view>

namespace pstate::ascii {

/// Whether a comparison folds ASCII letters (A-Z as a-z); other bytes always
/// compare as they are.
enum class Case { kSensitive, kFold };

constexpr bool IsDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
constexpr bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
constexpr bool IsAlpha(char c) { return IsLower(c) || IsUpper(c); }
constexpr bool IsAlnum(char c) { return IsAlpha(c) || IsDigit(c); }
/// [0-9a-fA-F].
constexpr bool IsHexDigit(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
/// [0-9a-f]: the spelling Pulumi writes hashes and ids in.
constexpr bool IsLowerHexDigit(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f');
}
/// Space, tab, newline, vertical tab, form feed, carriage return: the set
/// std::isspace has in the "C" locale.
constexpr bool IsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/// The value of hex digit `c` (0-15), or -1 when it is not one.
constexpr int HexValue(char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

constexpr char ToLower(char c) {
  return IsUpper(c) ? static_cast<char>(c - 'A' + 'a') : c;
}
constexpr char ToUpper(char c) {
  return IsLower(c) ? static_cast<char>(c - 'a' + 'A') : c;
}

/// `s` with ASCII letters lowercased; other bytes unchanged.
std::string ToLower(std::string_view s);

/// True when `a` and `b` are equal with ASCII letters compared
/// case-insensitively (Go's strings.EqualFold restricted to ASCII).
bool EqualFold(std::string_view a, std::string_view b);

/// True when `needle` occurs in `hay`, ASCII letters compared
/// case-insensitively. An empty needle occurs everywhere.
bool ContainsFold(std::string_view hay, std::string_view needle);

/// `s` without leading and trailing IsSpace bytes.
std::string_view TrimSpace(std::string_view s);

/// True when `s` is non-empty and every byte IsDigit.
bool AllDigits(std::string_view s);

}  // namespace pstate::ascii

#endif  // PSTATE_BASE_ASCII_H_
