// Files for the fuzz targets that run a command on a temporary file, as the
// CLI does: one private directory per target and process, and whole-file
// reads and writes.
#ifndef PSTATE_FUZZ_FUZZ_FILES_H_
#define PSTATE_FUZZ_FUZZ_FILES_H_

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

namespace pstate_fuzz {

/// $TMPDIR/pstate-fuzz-<tag>-<pid>, created on first use.
inline std::filesystem::path MakeWorkDir(std::string_view tag) {
  std::filesystem::path d =
      std::filesystem::temp_directory_path() /
      ("pstate-fuzz-" + std::string(tag) + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

inline bool WriteFile(const std::filesystem::path& path,
                      std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

}  // namespace pstate_fuzz

#endif  // PSTATE_FUZZ_FUZZ_FILES_H_
