// Blobs over files and in-memory text.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "asset_hash/member_source.h"

namespace pstate::asset_hash {
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

pstate::Status OutsideRootStatus(const std::string& path) {
  return pstate::Status(Errc::kUnsupported,
                        "'" + path +
                            "' is outside --root, so it was not read "
                            "(--allow-outside-root reads it; its hash is "
                            "never shown)");
}

Result<Blob> OpenFileBlob(const std::string& path, const Options* options) {
  const bool confined =
      options != nullptr && options->outside_root != OutsideRoot::kRead;
  std::string root;
  bool outside = false;
  if (confined) {
    root = options->run ? options->run->canonical_root()
                        : RunBudget(*options).canonical_root();
    outside = !InsideRoot(path, root);
    // Not even stat'ed: whether it exists is not for the state to learn.
    if (outside && options->outside_root == OutsideRoot::kRefuse) {
      return OutsideRootStatus(path);
    }
  }
  // Only regular files are opened: the type is checked before open(2),
  // which for a device can have effects of its own.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ELOOP) {
      return pstate::Status(Errc::kIo, "failed to open '" + path +
                                           "': too many levels of symbolic "
                                           "links (symlink loop)");
    }
    return ErrnoStatus(errno, "failed to open '" + path + "'");
  }
  if (S_ISDIR(st.st_mode)) {
    return pstate::Status(Errc::kIo, "'" + path +
                                         "' is a directory; try using an "
                                         "archive");
  }
  if (!S_ISREG(st.st_mode)) {
    return pstate::Status(Errc::kIo,
                          "'" + path +
                              "' is not a regular file (a device, FIFO or "
                              "socket); it was not opened");
  }
  // O_NONBLOCK so that a FIFO swapped in after the check cannot block; it
  // has no effect on regular files.
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
  struct stat opened {};
  if (::fstat(fd, &opened) != 0) {
    const int err = errno;
    ::close(fd);
    return ErrnoStatus(err, "failed to stat '" + path + "'");
  }
  if (!S_ISREG(opened.st_mode) || opened.st_dev != st.st_dev ||
      opened.st_ino != st.st_ino) {
    ::close(fd);
    return pstate::Status(Errc::kIo, "'" + path +
                                         "' changed while it was being "
                                         "opened");
  }
  if (confined && !outside) {
    // The name may have been switched to a link leading out between the
    // check above and open(2): judge the file actually opened.
    char link[64];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    if (!InsideRoot(link, root)) {
      outside = true;
      if (options->outside_root == OutsideRoot::kRefuse) {
        ::close(fd);
        return OutsideRootStatus(path);
      }
    }
  }
  Blob blob;
  blob.size = static_cast<std::uint64_t>(opened.st_size);
  blob.content = std::make_unique<FileReader>(fd, path);
  blob.file = FileIdentity{
      static_cast<std::uint64_t>(opened.st_dev),
      static_cast<std::uint64_t>(opened.st_ino),
      static_cast<std::uint64_t>(opened.st_size),
      static_cast<std::int64_t>(opened.st_mtim.tv_sec) * 1000000000 +
          opened.st_mtim.tv_nsec,
      static_cast<std::int64_t>(opened.st_ctim.tv_sec) * 1000000000 +
          opened.st_ctim.tv_nsec};
  blob.outside_root = outside;
  return blob;
}

Blob TextBlob(std::string_view text) {
  Blob blob;
  blob.size = text.size();
  blob.content = std::make_unique<TextReader>(text);
  return blob;
}

}  // namespace pstate::asset_hash
