// A temporary directory removed (with its contents) when the test ends.
#ifndef PSTATE_TESTS_UNIT_TESTING_TEMP_DIR_H_
#define PSTATE_TESTS_UNIT_TESTING_TEMP_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace pstate::testing {

class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "pstate-unit-XXXXXX")
            .string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string File(std::string_view name) const {
    return (path_ / name).string();
  }

  std::string Write(std::string_view name, std::string_view bytes) const {
    std::string p = File(name);
    std::ofstream out(p, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }

 private:
  std::filesystem::path path_;
};

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace pstate::testing

#endif  // PSTATE_TESTS_UNIT_TESTING_TEMP_DIR_H_
