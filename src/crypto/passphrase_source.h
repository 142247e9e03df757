// Where the passphrase comes from. pstate is non-interactive, so where
// Pulumi would prompt, pstate fails with a message naming the variables.
#ifndef PSTATE_CRYPTO_PASSPHRASE_SOURCE_H_
#define PSTATE_CRYPTO_PASSPHRASE_SOURCE_H_

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace pstate::crypto {

inline constexpr char kPassphraseEnv[] = "PULUMI_CONFIG_PASSPHRASE";
inline constexpr char kPassphraseFileEnv[] = "PULUMI_CONFIG_PASSPHRASE_FILE";

/// The passphrase, in this order (Pulumi's readPassphrase in
/// pkg/secrets/passphrase/manager.go, with the explicit file first):
///  1. `passphrase_file` when given: its contents, trimmed like (2b);
///  2a. PULUMI_CONFIG_PASSPHRASE when set, even to "" (used verbatim);
///  2b. PULUMI_CONFIG_PASSPHRASE_FILE when set and non-empty: the file's
///      contents with surrounding white space removed as Go's
///      strings.TrimSpace does (Unicode White_Space, so a trailing newline,
///      CRLF or no-break space goes; inner spaces stay);
///  3. otherwise kInvalidArgument naming both variables.
/// File errors are those of ReadSecretFile (kNotFound, kIo, kLimit).
Result<std::string> ResolvePassphrase(
    const std::optional<std::filesystem::path>& passphrase_file);

/// Go's strings.TrimSpace: strips leading and trailing Unicode White_Space
/// (ASCII \t \n \v \f \r and space, U+0085, U+00A0, U+1680, U+2000..U+200A,
/// U+2028, U+2029, U+202F, U+205F, U+3000) from UTF-8 text. Invalid UTF-8
/// is never white space.
std::string_view TrimSpaceLikeGo(std::string_view text);

}  // namespace pstate::crypto

#endif  // PSTATE_CRYPTO_PASSPHRASE_SOURCE_H_
