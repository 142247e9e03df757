// The tar stream Pulumi's engine hashes for archives that are not hashed as
// raw files: Go's archive/tar writer fed headers {Name, Mode 0600, Size}
// (reference section 3.3). Bytes go to a sink as they are produced, so the
// stream is never held in memory or written anywhere.
#ifndef PSTATE_ASSET_HASH_TAR_STREAM_H_
#define PSTATE_ASSET_HASH_TAR_STREAM_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace pstate::asset_hash {

/// Receives consecutive slices of the stream.
using ByteSink = std::function<void(std::string_view)>;

inline constexpr std::size_t kTarBlockSize = 512;

/// The header bytes (ustar block, or PAX header block + records + ustar
/// block) Go's writer emits before the content of a member named `name`
/// holding `size` bytes. Exposed so tests can check fields byte by byte.
/// Fails (kFormat) for names containing NUL or PAX records over 1 MiB,
/// which Go's writer refuses too.
Result<std::string> EncodeMemberHeader(std::string_view name,
                                       std::uint64_t size);

/// True when Go's writer would record `name` as a directory entry (typeflag
/// '5', no content): a name ending in '/'.
inline bool IsDirectoryEntryName(std::string_view name) {
  return !name.empty() && name.back() == '/';
}

/// Writes members one after another. Contract per member: BeginMember, then
/// Write calls totalling exactly `size` bytes, then EndMember. After the last
/// member, Finish. Misuse (too many or too few bytes) yields an error Status,
/// as it makes the Go writer fail.
class TarStream {
 public:
  explicit TarStream(ByteSink sink) : sink_(std::move(sink)) {}

  pstate::Status BeginMember(std::string_view name, std::uint64_t size);
  pstate::Status Write(std::string_view data);
  pstate::Status EndMember();
  /// Two zero blocks (1024 bytes) and nothing else.
  void Finish();

 private:
  ByteSink sink_;
  std::string name_;
  std::uint64_t remaining_ = 0;
  std::uint64_t padding_ = 0;
  bool in_member_ = false;
};

}  // namespace pstate::asset_hash

#endif  // PSTATE_ASSET_HASH_TAR_STREAM_H_
