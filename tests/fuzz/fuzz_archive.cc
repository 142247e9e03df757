// Fuzz target: the archive file reading of src/asset_hash/ (libarchive behind
// OpenArchiveFileMembers, then the engine's tar stream in Hash) over
// arbitrary bytes stored as a .tar, .tgz and .zip file in turn.
//
// Invariants beyond "no crash, no sanitizer report":
//  - every member's reader yields exactly the member's announced size or
//    fails;
//  - enumeration stops within the member and byte limits it is given;
//  - Hash() of an archive naming the file never reports kOk (no hash is
//    recorded) and, when it computes a hash, gives 64 lowercase hex digits.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "asset_hash/hasher.h"
#include "asset_hash/member_source.h"
#include "asset_hash/spec.h"
#include "fuzz/fuzz_check.h"

namespace {

namespace fs = std::filesystem;
using pstate::asset_hash::ArchiveFormat;

// Small limits: a few KiB of fuzz input can claim gigabytes of members.
constexpr std::uint64_t kMaxMembers = 1000;
constexpr std::uint64_t kMaxBytes = std::uint64_t{4} << 20;

const fs::path& WorkDir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() /
                 ("pstate-fuzz-archive-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

pstate::asset_hash::Options LimitedOptions() {
  pstate::asset_hash::Options options;
  options.root = WorkDir();
  options.max_expanded_bytes = kMaxBytes;
  options.max_members = kMaxMembers;
  options.max_total_bytes = 4 * kMaxBytes;
  options.max_total_members = 4 * kMaxMembers;
  options.max_total_expanded_bytes = 4 * kMaxBytes;
  return options;
}

void ReadMembers(const std::string& path, ArchiveFormat format) {
  const pstate::asset_hash::Options options = LimitedOptions();
  auto source =
      pstate::asset_hash::OpenArchiveFileMembers(path, format, options);
  if (!source.ok()) return;
  std::uint64_t members = 0;
  std::uint64_t bytes = 0;
  static char buffer[4096];
  for (;;) {
    auto member = (*source)->Next();
    if (!member.ok() || !member->has_value()) return;
    ++members;
    PSTATE_FUZZ_CHECK(members <= kMaxMembers);
    pstate::asset_hash::Blob& blob = (*member)->blob;
    if (!blob.content) continue;
    std::uint64_t read = 0;
    bool failed = false;
    for (;;) {
      auto n = blob.content->Read(buffer, sizeof(buffer));
      if (!n.ok()) {
        failed = true;
        break;
      }
      if (*n == 0) break;
      PSTATE_FUZZ_CHECK(*n <= sizeof(buffer));
      read += *n;
    }
    if (!failed) PSTATE_FUZZ_CHECK(read == blob.size);
    bytes += read;
    PSTATE_FUZZ_CHECK(bytes <= kMaxBytes);
  }
}

bool IsLowerHex(std::string_view text) {
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

void HashArchive(const std::string& name) {
  pstate::asset_hash::Spec spec;
  spec.kind = pstate::asset_hash::Kind::kArchive;
  spec.path = name;
  const pstate::asset_hash::Outcome outcome =
      pstate::asset_hash::Hash(spec, LimitedOptions());
  PSTATE_FUZZ_CHECK(outcome.status != pstate::asset_hash::Status::kOk);
  if (outcome.actual) {
    PSTATE_FUZZ_CHECK(outcome.actual->size() == 64);
    PSTATE_FUZZ_CHECK(IsLowerHex(*outcome.actual));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  struct Kind {
    const char* name;
    ArchiveFormat format;
  };
  for (const Kind& kind : {Kind{"in.tar", ArchiveFormat::kTar},
                           Kind{"in.tgz", ArchiveFormat::kTarGzip},
                           Kind{"in.zip", ArchiveFormat::kZip}}) {
    const fs::path path = WorkDir() / kind.name;
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char*>(data),
                static_cast<std::streamsize>(size));
      PSTATE_FUZZ_CHECK(static_cast<bool>(out));
    }
    ReadMembers(path.string(), kind.format);
    HashArchive(kind.name);
  }
  return 0;
}
