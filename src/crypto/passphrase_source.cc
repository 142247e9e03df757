#include "pstate/crypto/passphrase_source.h"

#include <cstdlib>

#include "pstate/crypto/secret_file.h"

namespace pstate::crypto {
namespace {

bool IsUnicodeSpace(char32_t r) {
  switch (r) {
    case U'\t':
    case U'\n':
    case U'\v':
    case U'\f':
    case U'\r':
    case U' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000: return true;
    default: return r >= 0x2000 && r <= 0x200A;
  }
}

// Decodes the UTF-8 sequence of `len` bytes at `s`; returns U+FFFD when it is
// not a valid, shortest-form sequence (such a rune is never white space).
char32_t DecodeRune(const unsigned char* s, std::size_t len) {
  constexpr char32_t kError = 0xFFFD;
  if (len == 1) return s[0] < 0x80 ? s[0] : kError;
  for (std::size_t i = 1; i < len; ++i) {
    if ((s[i] & 0xC0) != 0x80) return kError;
  }
  char32_t r = 0;
  if (len == 2 && (s[0] & 0xE0) == 0xC0) {
    r = ((s[0] & 0x1Fu) << 6) | (s[1] & 0x3Fu);
    return r >= 0x80 ? r : kError;
  }
  if (len == 3 && (s[0] & 0xF0) == 0xE0) {
    r = ((s[0] & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
    return (r >= 0x800 && (r < 0xD800 || r > 0xDFFF)) ? r : kError;
  }
  return kError;  // 4-byte runes are never white space
}

std::size_t LeadingLength(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) return 2;
  if ((c & 0xF0) == 0xE0) return 3;
  if ((c & 0xF8) == 0xF0) return 4;
  return 1;
}

std::optional<std::string> NonEmptyEnv(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

Result<std::string> ReadTrimmed(const std::filesystem::path& path) {
  Result<std::string> bytes = ReadSecretFile(path);
  if (!bytes.ok()) return bytes;
  return std::string(TrimSpaceLikeGo(*bytes));
}

}  // namespace

std::string_view TrimSpaceLikeGo(std::string_view text) {
  const auto* data = reinterpret_cast<const unsigned char*>(text.data());
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end) {
    std::size_t len = LeadingLength(data[begin]);
    if (len > end - begin) len = 1;
    if (!IsUnicodeSpace(DecodeRune(data + begin, len))) break;
    begin += len;
  }
  while (end > begin) {
    // Find the start of the last rune: up to 3 continuation bytes back.
    std::size_t start = end - 1;
    while (start > begin && end - start < 4 && (data[start] & 0xC0) == 0x80)
      --start;
    std::size_t len = end - start;
    if (LeadingLength(data[start]) != len) {
      start = end - 1;  // not a whole rune: the last byte alone is invalid
      len = 1;
    }
    if (!IsUnicodeSpace(DecodeRune(data + start, len))) break;
    end = start;
  }
  return text.substr(begin, end - begin);
}

Result<std::string> ResolvePassphrase(
    const std::optional<std::filesystem::path>& passphrase_file) {
  if (passphrase_file.has_value()) return ReadTrimmed(*passphrase_file);
  if (const char* phrase = std::getenv(kPassphraseEnv); phrase != nullptr) {
    return std::string(phrase);
  }
  if (auto file = NonEmptyEnv(kPassphraseFileEnv)) {
    Result<std::string> phrase = ReadTrimmed(*file);
    if (!phrase.ok()) {
      return Result<std::string>(phrase.status().code(),
                                 std::string("unable to read ") +
                                     kPassphraseFileEnv + ": " +
                                     phrase.status().message());
    }
    return phrase;
  }
  return Result<std::string>(Errc::kInvalidArgument,
                             std::string("a passphrase is needed: set ") +
                                 kPassphraseEnv + " or " + kPassphraseFileEnv +
                                 " (or pass a passphrase file)");
}

}  // namespace pstate::crypto
