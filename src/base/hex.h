// Lowercase hexadecimal encoding, as Pulumi writes hashes.
#ifndef PSTATE_BASE_HEX_H_
#define PSTATE_BASE_HEX_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace pstate {

/// Lowercase hex of `bytes` (two characters per byte).
std::string HexEncode(std::span<const std::uint8_t> bytes);

/// True when `s` is exactly `digits` characters of [0-9a-f].
bool IsLowerHex(std::string_view s, std::size_t digits);

}  // namespace pstate

#endif  // PSTATE_BASE_HEX_H_
