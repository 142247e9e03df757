#include "asset_hash/tar_stream.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "asset_hash/go_path.h"

namespace pstate::asset_hash {
namespace {

// Field offsets and sizes of a ustar header block.
constexpr std::size_t kNameOff = 0, kNameLen = 100;
constexpr std::size_t kModeOff = 100, kModeLen = 8;
constexpr std::size_t kUidOff = 108, kUidLen = 8;
constexpr std::size_t kGidOff = 116, kGidLen = 8;
constexpr std::size_t kSizeOff = 124, kSizeLen = 12;
constexpr std::size_t kMtimeOff = 136, kMtimeLen = 12;
constexpr std::size_t kChksumOff = 148, kChksumLen = 8;
constexpr std::size_t kTypeOff = 156;
constexpr std::size_t kMagicOff = 257;
constexpr std::size_t kDevMajorOff = 329, kDevMajorLen = 8;
constexpr std::size_t kDevMinorOff = 337, kDevMinorLen = 8;
constexpr std::size_t kPrefixOff = 345, kPrefixLen = 155;

// Go's maxSpecialFileSize: PAX record data larger than this is refused.
constexpr std::size_t kMaxPaxData = 1 << 20;

using Block = std::array<char, kTarBlockSize>;

// Go formatter.formatString: copies what fits, NUL-terminates when there is
// room, and when a cut leaves a '/' in the last byte, NULs the first slash of
// the trailing run (so buggy readers do not see a directory).
void FormatString(Block& b, std::size_t off, std::size_t len,
                  std::string_view s) {
  if (!s.empty())
    std::memcpy(b.data() + off, s.data(), std::min(len, s.size()));
  if (s.size() < len) b[off + s.size()] = '\0';
  if (s.size() > len && b[off + len - 1] == '/') {
    std::size_t n = len - 1;
    while (n > 0 && s[n - 1] == '/') --n;
    b[off + n] = '\0';
  }
}

// Go formatter.formatOctal: zero-padded octal leaving room for a final NUL;
// a value that does not fit is written as zero.
void FormatOctal(Block& b, std::size_t off, std::size_t len, std::uint64_t x) {
  const unsigned bits = static_cast<unsigned>(len - 1) * 3;
  if (bits < 64 && x >= (std::uint64_t{1} << bits)) x = 0;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + (x & 7)));
    x >>= 3;
  } while (x != 0);
  if (digits.size() < len - 1) digits.insert(0, len - 1 - digits.size(), '0');
  FormatString(b, off, len, digits);
}

// Go block.SetFormat for USTAR/PAX: magic "ustar\0", version "00", checksum.
void SetUstarFormat(Block& b) {
  std::memcpy(b.data() + kMagicOff,
              "ustar\0"
              "00",
              8);
  unsigned sum = 0;
  for (std::size_t i = 0; i < kTarBlockSize; ++i) {
    const bool in_chksum = i >= kChksumOff && i < kChksumOff + kChksumLen;
    sum += static_cast<unsigned char>(in_chksum ? ' ' : b[i]);
  }
  FormatOctal(b, kChksumOff, kChksumLen - 1, sum);
  b[kChksumOff + 7] = ' ';
}

bool IsAscii(std::string_view s) {
  return std::none_of(s.begin(), s.end(), [](char c) {
    return static_cast<unsigned char>(c) >= 0x80 || c == '\0';
  });
}

// Go toASCII: drops every byte >= 0x80 (each invalid UTF-8 byte decodes to
// U+FFFD, so dropping per byte and per rune agree) and NUL.
std::string ToAscii(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x80 && c != '\0') out.push_back(c);
  }
  return out;
}

// Go splitUSTARPath: the prefix/name split, or false.
bool SplitUstarPath(std::string_view name, std::string_view* prefix,
                    std::string_view* suffix) {
  std::size_t length = name.size();
  if (length <= kNameLen || !IsAscii(name)) return false;
  if (length > kPrefixLen + 1) {
    length = kPrefixLen + 1;
  } else if (name[length - 1] == '/') {
    --length;
  }
  const std::size_t i = name.substr(0, length).rfind('/');
  if (i == std::string_view::npos || i == 0) return false;
  const std::size_t nlen = name.size() - i - 1;
  if (nlen > kNameLen || nlen == 0 || i > kPrefixLen) return false;
  *prefix = name.substr(0, i);
  *suffix = name.substr(i + 1);
  return true;
}

// Go formatPAXRecord: "LEN key=value\n" where LEN counts itself.
std::string FormatPaxRecord(std::string_view key, std::string_view value) {
  std::size_t size = key.size() + value.size() + 3;
  size += std::to_string(size).size();
  std::string record = std::to_string(size) + " " + std::string(key) + "=" +
                       std::string(value) + "\n";
  if (record.size() != size) {
    size = record.size();
    record = std::to_string(size) + " " + std::string(key) + "=" +
             std::string(value) + "\n";
  }
  return record;
}

// Go's templateV7Plus for a header {Name, Mode 0600, Size}; the caller sets
// the name (and prefix) and then the format.
Block MainTemplate(char typeflag, std::uint64_t size) {
  Block b{};
  b[kTypeOff] = typeflag;
  FormatOctal(b, kModeOff, kModeLen, 0600);
  FormatOctal(b, kUidOff, kUidLen, 0);
  FormatOctal(b, kGidOff, kGidLen, 0);
  FormatOctal(b, kSizeOff, kSizeLen, size);
  FormatOctal(b, kMtimeOff, kMtimeLen, 0);
  FormatOctal(b, kDevMajorOff, kDevMajorLen, 0);
  FormatOctal(b, kDevMinorOff, kDevMinorLen, 0);
  return b;
}

void AppendBlock(std::string& out, const Block& b) {
  out.append(b.data(), b.size());
}

std::uint64_t Padding(std::uint64_t size) {
  return (kTarBlockSize - size % kTarBlockSize) % kTarBlockSize;
}

}  // namespace

Result<std::string> EncodeMemberHeader(std::string_view name,
                                       std::uint64_t size) {
  if (name.find('\0') != std::string_view::npos) {
    return pstate::Status(
        Errc::kFormat, "member name contains a NUL byte; tar cannot encode it");
  }
  const char typeflag = IsDirectoryEntryName(name) ? '5' : '0';
  // fitsInOctal(12, size): 11 octal digits.
  const bool size_needs_pax = size >= (std::uint64_t{1} << 33);
  std::string_view prefix, suffix;
  const bool splittable = SplitUstarPath(name, &prefix, &suffix);
  const bool path_needs_pax =
      !IsAscii(name) || (name.size() > kNameLen && !splittable);

  std::string out;
  if (!size_needs_pax && !path_needs_pax) {
    Block b = MainTemplate(typeflag, size);
    if (splittable) {
      FormatString(b, kNameOff, kNameLen, suffix);
      FormatString(b, kPrefixOff, kPrefixLen, prefix);
    } else {
      FormatString(b, kNameOff, kNameLen, name);
    }
    SetUstarFormat(b);
    AppendBlock(out, b);
    return out;
  }

  // Records sorted by key: "path" before "size".
  std::string data;
  if (path_needs_pax) data += FormatPaxRecord("path", name);
  if (size_needs_pax) data += FormatPaxRecord("size", std::to_string(size));
  if (data.size() > kMaxPaxData) {
    return pstate::Status(Errc::kFormat,
                          "member name too long for a PAX header (over 1 MiB)");
  }
  auto [dir, file] = GoSplit(name);
  std::string pax_name = ToAscii(GoJoin(dir, "PaxHeaders.0", file));
  if (pax_name.size() > kNameLen) pax_name.resize(kNameLen);
  while (!pax_name.empty() && pax_name.back() == '/') pax_name.pop_back();

  Block pax{};
  pax[kTypeOff] = 'x';
  FormatString(pax, kNameOff, kNameLen, pax_name);
  FormatOctal(pax, kModeOff, kModeLen, 0);
  FormatOctal(pax, kUidOff, kUidLen, 0);
  FormatOctal(pax, kGidOff, kGidLen, 0);
  FormatOctal(pax, kSizeOff, kSizeLen, data.size());
  FormatOctal(pax, kMtimeOff, kMtimeLen, 0);
  SetUstarFormat(pax);
  AppendBlock(out, pax);
  out += data;
  out.append(Padding(data.size()), '\0');

  Block b = MainTemplate(typeflag, size);
  FormatString(b, kNameOff, kNameLen, ToAscii(name));
  SetUstarFormat(b);
  AppendBlock(out, b);
  return out;
}

pstate::Status TarStream::BeginMember(std::string_view name,
                                      std::uint64_t size) {
  if (in_member_) {
    return pstate::Status(Errc::kInvalidArgument, "tar member not ended");
  }
  Result<std::string> header = EncodeMemberHeader(name, size);
  if (!header.ok()) return header.status();
  std::uint64_t content = size;
  if (IsDirectoryEntryName(name)) {
    // Go writes the header, then refuses any content for a directory.
    if (size != 0) {
      return pstate::Status(
          Errc::kFormat,
          "member '" + std::string(name) +
              "' ends in '/' (a directory entry) but has content");
    }
    content = 0;
  }
  sink_(*header);
  name_ = std::string(name);
  remaining_ = content;
  padding_ = Padding(content);
  in_member_ = true;
  return pstate::Status::Ok();
}

pstate::Status TarStream::Write(std::string_view data) {
  if (!in_member_ || data.size() > remaining_) {
    return pstate::Status(Errc::kIo, "incorrect blob size for " + name_ +
                                         ": more bytes than announced");
  }
  remaining_ -= data.size();
  sink_(data);
  return pstate::Status::Ok();
}

pstate::Status TarStream::EndMember() {
  if (!in_member_)
    return pstate::Status(Errc::kInvalidArgument, "no tar member");
  in_member_ = false;
  if (remaining_ != 0) {
    return pstate::Status(Errc::kIo, "incorrect blob size for " + name_ + ": " +
                                         std::to_string(remaining_) +
                                         " bytes fewer than announced");
  }
  static constexpr Block kZeros{};
  sink_(std::string_view(kZeros.data(), padding_));
  return pstate::Status::Ok();
}

void TarStream::Finish() {
  static constexpr Block kZeros{};
  sink_(std::string_view(kZeros.data(), kZeros.size()));
  sink_(std::string_view(kZeros.data(), kZeros.size()));
}

}  // namespace pstate::asset_hash
