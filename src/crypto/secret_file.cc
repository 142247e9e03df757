#include "crypto/secret_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <system_error>

namespace pstate::crypto {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

Result<std::string> ReadSecretFile(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    if (ec && ec != std::errc::no_such_file_or_directory) {
      return Result<std::string>(
          Errc::kIo, "cannot stat " + path.string() + ": " + ec.message());
    }
    return Result<std::string>(Errc::kNotFound,
                               "no such file: " + path.string());
  }
  if (std::filesystem::is_directory(status)) {
    return Result<std::string>(Errc::kIo, path.string() + " is a directory");
  }
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    return Result<std::string>(Errc::kIo, "cannot open " + path.string() +
                                              ": " + std::strerror(errno));
  }
  std::string bytes;
  char buffer[4096];
  while (true) {
    const std::size_t n = std::fread(buffer, 1, sizeof buffer, file.get());
    bytes.append(buffer, n);
    if (bytes.size() > kMaxSecretFileBytes) {
      return Result<std::string>(Errc::kLimit,
                                 path.string() + " is larger than " +
                                     std::to_string(kMaxSecretFileBytes) +
                                     " bytes; not a secret file");
    }
    if (n < sizeof buffer) break;
  }
  if (std::ferror(file.get())) {
    return Result<std::string>(Errc::kIo, "cannot read " + path.string());
  }
  return bytes;
}

}  // namespace pstate::crypto
