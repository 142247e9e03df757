#include "diag/ignore_file.h"

#include <algorithm>
#include <vector>

#include "base/ascii.h"
#include "base/hex.h"
#include "diag/fingerprint.h"

namespace pstate::diag {

Result<IgnoreAddition> AddToIgnoreFile(std::string_view text,
                                       std::string_view name,
                                       std::string_view fingerprint,
                                       std::string_view reason) {
  std::string fp = ascii::ToLower(fingerprint);
  const bool hex = IsLowerHex(fp, 32);
  if (!hex) {
    return Result<IgnoreAddition>(
        Errc::kInvalidArgument,
        "expected a fingerprint of 32 hex digits, as text output shows it "
        "(\"fingerprint:\") and --format json writes it");
  }
  for (char c : reason) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return Result<IgnoreAddition>(
          Errc::kInvalidArgument,
          "--reason: one line of text without control characters");
    }
  }
  Result<std::vector<std::string>> listed = ParseIgnoreFile(text, name);
  if (!listed.ok()) return listed.status();
  IgnoreAddition out;
  out.text = std::string(text);
  if (std::find(listed->begin(), listed->end(), fp) != listed->end()) {
    out.already_listed = true;
    return out;
  }
  if (!out.text.empty() && out.text.back() != '\n') out.text += '\n';
  out.text += fp;
  if (!reason.empty()) {
    out.text += "  # ";
    out.text += reason;
  }
  out.text += '\n';
  return out;
}

}  // namespace pstate::diag
