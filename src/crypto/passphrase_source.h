// Where the passphrase comes from. The core is non-interactive and reads no
// environment: the caller gives what it found, and where Pulumi would
// prompt, resolving fails with a message naming the variables.
#ifndef PSTATE_CRYPTO_PASSPHRASE_SOURCE_H_
#define PSTATE_CRYPTO_PASSPHRASE_SOURCE_H_

#include <string>
#include <string_view>

#include "base/result.h"

namespace pstate::crypto {

// The variables' names and the inputs are the API's (pstate.h).
using ::pstate::kPassphraseEnv;
using ::pstate::kPassphraseFileEnv;
using PassphraseInputs = ::pstate::PassphraseInputs;

/// The passphrase, in this order (Pulumi's readPassphrase in
/// pkg/secrets/passphrase/manager.go, with the explicit file first):
///  1. `inputs.file`: its contents, trimmed like (2b);
///  2a. `inputs.passphrase` (used verbatim, "" included);
///  2b. `inputs.env_file`: the file's contents with surrounding white
///      space removed as Go's strings.TrimSpace does (Unicode White_Space,
///      so a trailing newline, CRLF or no-break space goes; inner spaces
///      stay);
///  3. otherwise kInvalidArgument naming both variables.
/// File errors are those of ReadSecretFile (kNotFound, kIo, kLimit).
Result<std::string> ResolvePassphrase(const PassphraseInputs& inputs);

/// Go's strings.TrimSpace: strips leading and trailing Unicode White_Space
/// (ASCII \t \n \v \f \r and space, U+0085, U+00A0, U+1680, U+2000..U+200A,
/// U+2028, U+2029, U+202F, U+205F, U+3000) from UTF-8 text. Invalid UTF-8
/// is never white space.
std::string_view TrimSpaceLikeGo(std::string_view text);

}  // namespace pstate::crypto

#endif  // PSTATE_CRYPTO_PASSPHRASE_SOURCE_H_
