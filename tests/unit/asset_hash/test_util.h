// Helpers shared by the asset tests: a temporary directory removed at the end
// of each test, and Spec builders.
#ifndef PSTATE_TESTS_UNIT_ASSET_HASH_TEST_UTIL_H_
#define PSTATE_TESTS_UNIT_ASSET_HASH_TEST_UTIL_H_

#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "asset_hash/spec.h"
#include "asset_hash/tar_stream.h"
#include "base/sha256.h"

namespace pstate::asset_hash::testing {

inline std::filesystem::path FixturesDir() {
  const char* env = std::getenv("PSTATE_FIXTURES_DIR");
  return std::filesystem::path(env ? env : PSTATE_FIXTURES_DIR) / "assets";
}

inline std::filesystem::path PulumiFixture(std::string_view name) {
  return FixturesDir() / "pulumi" / name;
}

class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "pstate-asset-XXXXXX")
            .string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    // Restore permissions a test may have removed, so cleanup succeeds.
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(std::string_view rel) const {
    return path_ / rel;
  }

  /// Writes `content` at `rel`, creating parent directories.
  std::filesystem::path Write(std::string_view rel,
                              std::string_view content) const {
    const std::filesystem::path p = path_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    return p;
  }

 private:
  std::filesystem::path path_;
};

/// Options that read files wherever they are, as Pulumi's engine does. The
/// default (OutsideRoot::kRefuse) skips every file outside the root, and
/// most tests hash files under temporary directories by absolute path.
inline Options EngineOptions() {
  Options options;
  options.outside_root = OutsideRoot::kRead;
  return options;
}

inline Spec TextAsset(std::string text) {
  Spec s;
  s.text = std::move(text);
  return s;
}
inline Spec PathAsset(std::string path) {
  Spec s;
  s.path = std::move(path);
  return s;
}
inline Spec UriAsset(std::string uri) {
  Spec s;
  s.uri = std::move(uri);
  return s;
}
inline Spec PathArchive(std::string path) {
  Spec s;
  s.kind = Kind::kArchive;
  s.path = std::move(path);
  return s;
}
inline Spec UriArchive(std::string uri) {
  Spec s;
  s.kind = Kind::kArchive;
  s.uri = std::move(uri);
  return s;
}
inline Spec MapArchive(std::vector<std::pair<std::string, Spec>> members) {
  Spec s;
  s.kind = Kind::kArchive;
  s.has_assets = true;
  s.assets = std::move(members);
  return s;
}
inline Spec WithHash(Spec s, std::string hash) {
  s.hash = std::move(hash);
  return s;
}

struct Entry {
  std::string name;
  std::string content;
  unsigned type = AE_IFREG;  // AE_IFDIR, AE_IFLNK (content = target), ...
};

/// Writes a test archive with libarchive: "tar" (pax), "tgz" or "zip".
inline bool WriteArchive(const std::filesystem::path& path,
                         std::string_view format,
                         const std::vector<Entry>& entries) {
  archive* a = archive_write_new();
  if (format == "zip") {
    archive_write_set_format_zip(a);
  } else {
    archive_write_set_format_pax_restricted(a);
    if (format == "tgz") archive_write_add_filter_gzip(a);
  }
  if (archive_write_open_filename(a, path.c_str()) != ARCHIVE_OK) {
    archive_write_free(a);
    return false;
  }
  for (const Entry& e : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.name.c_str());
    archive_entry_set_filetype(entry, e.type);
    archive_entry_set_perm(entry, 0644);
    if (e.type == AE_IFLNK) {
      archive_entry_set_symlink(entry, e.content.c_str());
      archive_entry_set_size(entry, 0);
    } else if (e.type == AE_IFREG) {
      archive_entry_set_size(entry, static_cast<la_int64_t>(e.content.size()));
    } else {
      archive_entry_set_size(entry, 0);
    }
    archive_write_header(a, entry);
    if (e.type == AE_IFREG && !e.content.empty()) {
      archive_write_data(a, e.content.data(), e.content.size());
    }
    archive_entry_free(entry);
  }
  const bool ok = archive_write_close(a) == ARCHIVE_OK;
  archive_write_free(a);
  return ok;
}

/// SHA-256 of the Pulumi tar stream of `members`, in the order given.
inline std::string TarHash(
    const std::vector<std::pair<std::string, std::string>>& members) {
  Sha256 sha;
  TarStream tar([&sha](std::string_view d) { sha.Update(d); });
  for (const auto& [name, content] : members) {
    if (!tar.BeginMember(name, content.size()).ok()) return "begin failed";
    if (!IsDirectoryEntryName(name) && !tar.Write(content).ok())
      return "write failed";
    if (!tar.EndMember().ok()) return "end failed";
  }
  tar.Finish();
  return sha.FinishHex();
}

}  // namespace pstate::asset_hash::testing

#endif  // PSTATE_TESTS_UNIT_ASSET_HASH_TEST_UTIL_H_
