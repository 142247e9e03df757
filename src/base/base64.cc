#include "base/base64.h"

#include <array>
#include <cstdint>

namespace pstate {
namespace {

constexpr char kAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kUrlAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

constexpr std::uint8_t kInvalid = 0xFF;

constexpr std::array<std::uint8_t, 256> MakeDecodeTable(const char* alphabet) {
  std::array<std::uint8_t, 256> table{};
  for (auto& entry : table) entry = kInvalid;
  for (std::uint8_t i = 0; i < 64; ++i) {
    table[static_cast<unsigned char>(alphabet[i])] = i;
  }
  return table;
}

constexpr std::array<std::uint8_t, 256> kDecodeTable =
    MakeDecodeTable(kAlphabet);
constexpr std::array<std::uint8_t, 256> kUrlDecodeTable =
    MakeDecodeTable(kUrlAlphabet);

bool IsNewline(char c) { return c == '\r' || c == '\n'; }

// Emits the 1 or 2 bytes of a last group of 2 or 3 characters (Go ignores
// non-zero unused bits).
template <typename Emit>
void EmitPartial(const std::uint8_t* sextets, int count, Emit&& emit) {
  emit(static_cast<char>((sextets[0] << 2) | (sextets[1] >> 4)));
  if (count == 3) {
    emit(static_cast<char>(((sextets[1] & 0x0F) << 4) | (sextets[2] >> 2)));
  }
}

// Walks `text` with Go's rules for `encoding`. Calls `emit(byte)` for each
// decoded byte. On failure returns false and sets `error_offset` to the offset
// of the offending character (or text.size() for truncated input).
template <typename Emit>
bool DecodeInto(std::string_view text, Base64Encoding encoding, Emit&& emit,
                std::size_t& error_offset) {
  const bool padded = encoding == Base64Encoding::kStd;
  const std::array<std::uint8_t, 256>& table =
      padded ? kDecodeTable : kUrlDecodeTable;
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (true) {
    // Gather one quantum of up to four alphabet characters.
    std::uint8_t sextets[4] = {0, 0, 0, 0};
    int count = 0;
    while (count < 4) {
      while (i < n && IsNewline(text[i])) ++i;
      if (i == n) {
        if (count == 0) return true;  // clean end between quanta
        if (padded || count == 1) {
          error_offset = n;  // padding is required, or a byte is cut
          return false;
        }
        EmitPartial(sextets, count, emit);
        return true;
      }
      const char c = text[i];
      if (c == '=' && padded) {
        // Padding may only stand in for the 3rd and 4th characters.
        if (count < 2) {
          error_offset = i;
          return false;
        }
        ++i;
        if (count == 2) {
          // "xx=" must be followed by a second '='.
          while (i < n && IsNewline(text[i])) ++i;
          if (i == n || text[i] != '=') {
            error_offset = i;
            return false;
          }
          ++i;
        }
        // Nothing but newlines may follow the padding.
        while (i < n && IsNewline(text[i])) ++i;
        if (i != n) {
          error_offset = i;
          return false;
        }
        EmitPartial(sextets, count, emit);
        return true;
      }
      const std::uint8_t v = table[static_cast<unsigned char>(c)];
      if (v == kInvalid) {
        error_offset = i;
        return false;
      }
      sextets[count++] = v;
      ++i;
    }
    emit(static_cast<char>((sextets[0] << 2) | (sextets[1] >> 4)));
    emit(static_cast<char>(((sextets[1] & 0x0F) << 4) | (sextets[2] >> 2)));
    emit(static_cast<char>(((sextets[2] & 0x03) << 6) | sextets[3]));
  }
}

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  auto byte = [&](std::size_t k) -> std::uint32_t {
    return static_cast<unsigned char>(bytes[k]);
  };
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    out.push_back(kAlphabet[(v >> 18) & 0x3F]);
    out.push_back(kAlphabet[(v >> 12) & 0x3F]);
    out.push_back(kAlphabet[(v >> 6) & 0x3F]);
    out.push_back(kAlphabet[v & 0x3F]);
  }
  const std::size_t rest = bytes.size() - i;
  if (rest == 1) {
    const std::uint32_t v = byte(i) << 16;
    out.push_back(kAlphabet[(v >> 18) & 0x3F]);
    out.push_back(kAlphabet[(v >> 12) & 0x3F]);
    out.append("==");
  } else if (rest == 2) {
    const std::uint32_t v = (byte(i) << 16) | (byte(i + 1) << 8);
    out.push_back(kAlphabet[(v >> 18) & 0x3F]);
    out.push_back(kAlphabet[(v >> 12) & 0x3F]);
    out.push_back(kAlphabet[(v >> 6) & 0x3F]);
    out.push_back('=');
  }
  return out;
}

Result<std::string> Base64Decode(std::string_view text,
                                 Base64Encoding encoding) {
  std::string out;
  out.reserve(text.size() / 4 * 3);
  std::size_t error_offset = 0;
  if (!DecodeInto(
          text, encoding, [&out](char c) { out.push_back(c); }, error_offset)) {
    return Result<std::string>(
        Errc::kSyntax,
        "illegal base64 data at input byte " + std::to_string(error_offset));
  }
  return out;
}

bool IsBase64(std::string_view text, Base64Encoding encoding) {
  return Base64DecodedSize(text, encoding) >= 0;
}

long long Base64DecodedSize(std::string_view text, Base64Encoding encoding) {
  long long size = 0;
  std::size_t error_offset = 0;
  if (!DecodeInto(
          text, encoding, [&size](char) { ++size; }, error_offset))
    return -1;
  return size;
}

}  // namespace pstate
