// Helpers shared by the asset tests: a temporary directory removed at the end
// of each test, and Spec builders.
#ifndef PSTATE_TESTS_UNIT_ASSET_TEST_UTIL_H_
#define PSTATE_TESTS_UNIT_ASSET_TEST_UTIL_H_

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>

#include "pstate/asset/spec.h"

namespace pstate::asset::testing {

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
        (std::filesystem::temp_directory_path() / "pstate-asset-XXXXXX").string();
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
  std::filesystem::path operator/(std::string_view rel) const { return path_ / rel; }

  /// Writes `content` at `rel`, creating parent directories.
  std::filesystem::path Write(std::string_view rel, std::string_view content) const {
    const std::filesystem::path p = path_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    return p;
  }

 private:
  std::filesystem::path path_;
};

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

}  // namespace pstate::asset::testing

#endif  // PSTATE_TESTS_UNIT_ASSET_TEST_UTIL_H_
