// Adding an entry to an ignore file (.pstateignore), in the format
// ParseIgnoreFile reads (diag/fingerprint.h): `pstate ignore add`.
#ifndef PSTATE_DIAG_IGNORE_FILE_H_
#define PSTATE_DIAG_IGNORE_FILE_H_

#include <string>
#include <string_view>

#include "base/result.h"

namespace pstate::diag {

struct IgnoreAddition {
  /// The whole new file: `text` (with a final newline added when it had
  /// none) and one more line "FINGERPRINT  # REASON". Equal to `text` when
  /// the fingerprint was already listed.
  std::string text;
  bool already_listed = false;
};

/// `text` is the ignore file's current content ("" for a new file) and
/// `name` its name for messages. Fails (kInvalidArgument) when
/// `fingerprint` is not 32 lowercase hex digits (upper case is accepted and
/// written in lower case) or `reason` spans lines or holds a control
/// character, and (kFormat, with the line) when `text` is not an ignore
/// file, so a broken file is never extended.
[[nodiscard]] Result<IgnoreAddition> AddToIgnoreFile(
    std::string_view text, std::string_view name, std::string_view fingerprint,
    std::string_view reason);

}  // namespace pstate::diag

#endif  // PSTATE_DIAG_IGNORE_FILE_H_
