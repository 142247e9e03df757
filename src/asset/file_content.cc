// Blobs over files and in-memory text.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pstate/asset/member_source.h"

namespace pstate::asset {
namespace {

pstate::Status ErrnoStatus(int err, const std::string& what) {
  const Errc code =
      (err == ENOENT || err == ENOTDIR) ? Errc::kNotFound : Errc::kIo;
  return pstate::Status(code, what + ": " + std::strerror(err));
}

class FileReader : public ContentReader {
 public:
  FileReader(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~FileReader() override { ::close(fd_); }
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;

  Result<std::size_t> Read(char* buffer, std::size_t size) override {
    while (true) {
      const ssize_t n = ::read(fd_, buffer, size);
      if (n >= 0) return static_cast<std::size_t>(n);
      if (errno == EINTR) continue;
      return ErrnoStatus(errno, "failed to read '" + path_ + "'");
    }
  }

 private:
  int fd_;
  std::string path_;
};

class TextReader : public ContentReader {
 public:
  explicit TextReader(std::string_view text) : rest_(text) {}
  Result<std::size_t> Read(char* buffer, std::size_t size) override {
    const std::size_t n = std::min(size, rest_.size());
    if (n > 0) std::memcpy(buffer, rest_.data(), n);
    rest_.remove_prefix(n);
    return n;
  }

 private:
  std::string_view rest_;
};

}  // namespace

Result<Blob> OpenFileBlob(const std::string& path) {
  // O_NONBLOCK so that opening a FIFO cannot block (the engine would hang);
  // it has no effect on regular files.
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    if (errno == ELOOP) {
      return pstate::Status(Errc::kIo, "failed to open '" + path +
                                           "': too many levels of symbolic "
                                           "links (symlink loop)");
    }
    return ErrnoStatus(errno, "failed to open '" + path + "'");
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return ErrnoStatus(err, "failed to stat '" + path + "'");
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return pstate::Status(Errc::kIo, "'" + path +
                                         "' is a directory; try using an "
                                         "archive");
  }
  if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
    ::close(fd);
    return pstate::Status(Errc::kIo,
                          "'" + path + "' is not a regular file (FIFO or socket)");
  }
  Blob blob;
  blob.size = static_cast<std::uint64_t>(st.st_size);
  blob.content = std::make_unique<FileReader>(fd, path);
  return blob;
}

Blob TextBlob(std::string_view text) {
  Blob blob;
  blob.size = text.size();
  blob.content = std::make_unique<TextReader>(text);
  return blob;
}

}  // namespace pstate::asset
