// Inputs in an encoding other than UTF-8 without a byte-order mark: named
// as such, with the fix, instead of "unexpected byte 0xEF".
#ifndef PSTATE_IO_ENCODING_H_
#define PSTATE_IO_ENCODING_H_

#include <optional>
#include <string>
#include <string_view>

namespace pstate::io {

/// When `head` (the first bytes of an input) starts with a UTF-8
/// byte-order mark, or is UTF-16 or UTF-32 (with a byte-order mark, or
/// ASCII JSON with NUL bytes between), the message explaining it and how to
/// fix it; otherwise nothing. Pulumi rejects such inputs too: Go's
/// encoding/json reads only UTF-8 without a BOM (golang/go#12254), and
/// Windows PowerShell 5.1's `>` writes UTF-16 (pulumi/pulumi#4561).
std::optional<std::string> ForeignEncoding(std::string_view head);

}  // namespace pstate::io

#endif  // PSTATE_IO_ENCODING_H_
