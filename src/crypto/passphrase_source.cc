#include "crypto/passphrase_source.h"

#include <cstdlib>
#include <filesystem>

#include "base/utf8.h"
#include "crypto/secret_file.h"

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

Result<std::string> ReadTrimmed(const std::filesystem::path& path) {
  Result<std::string> bytes = ReadSecretFile(path);
  if (!bytes.ok()) return bytes;
  return std::string(TrimSpaceLikeGo(*bytes));
}

}  // namespace

std::string_view TrimSpaceLikeGo(std::string_view text) {
  // strings.TrimSpace: runes as utf8.DecodeRuneInString and
  // DecodeLastRuneInString read them (an ill-formed byte is U+FFFD, which
  // is not white space).
  while (!text.empty()) {
    utf8::Char c = utf8::Decode(text);
    if (!IsUnicodeSpace(c.code_point)) break;
    text.remove_prefix(c.size);
  }
  while (!text.empty()) {
    utf8::Char c = utf8::DecodeLast(text);
    if (!IsUnicodeSpace(c.code_point)) break;
    text.remove_suffix(c.size);
  }
  return text;
}

Result<std::string> ResolvePassphrase(const PassphraseInputs& inputs) {
  if (inputs.file.has_value()) return ReadTrimmed(*inputs.file);
  if (inputs.passphrase.has_value()) return *inputs.passphrase;
  if (inputs.env_file.has_value()) {
    Result<std::string> phrase = ReadTrimmed(*inputs.env_file);
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
