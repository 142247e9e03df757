#include "pstate/io/output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace pstate::io {
namespace {

bool WriteAll(int fd, std::string_view bytes, int* err) {
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      *err = errno;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

class FdOutput : public Output {
 public:
  FdOutput(int fd, std::string name, std::string temp_path,
           std::string final_path)
      : fd_(fd), temp_(std::move(temp_path)), final_(std::move(final_path)) {
    name_ = std::move(name);
  }
  ~FdOutput() override {
    if (!committed_) Abandon();
  }

  Status Commit() override {
    Flush();
    if (error_ != 0) {
      Abandon();
      return Status(Errc::kIo, name_ + ": " + std::strerror(error_));
    }
    committed_ = true;
    if (temp_.empty()) return Status::Ok();  // standard output
    if (::fsync(fd_) != 0 || ::close(fd_) != 0) {
      int err = errno;
      fd_ = -1;
      ::unlink(temp_.c_str());
      return Status(Errc::kIo, name_ + ": " + std::strerror(err));
    }
    fd_ = -1;
    if (::rename(temp_.c_str(), final_.c_str()) != 0) {
      int err = errno;
      ::unlink(temp_.c_str());
      return Status(Errc::kIo, name_ + ": " + std::strerror(err));
    }
    return Status::Ok();
  }

  void Abandon() override {
    committed_ = true;
    DiscardBuffer();
    if (temp_.empty()) return;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    ::unlink(temp_.c_str());
  }

 private:
  void WriteOut(std::string_view bytes) override {
    if (error_ != 0) return;
    WriteAll(fd_, bytes, &error_);
  }

  int fd_;
  std::string temp_;
  std::string final_;
  int error_ = 0;
  bool committed_ = false;
};

}  // namespace

Result<std::unique_ptr<Output>> OpenOutput(const std::string& path) {
  if (path == "-") {
    return std::unique_ptr<Output>(new FdOutput(STDOUT_FILENO, "<stdout>", "", ""));
  }
  std::string temp = path + ".pstate-tmp-XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    int err = errno;
    return Status(err == ENOENT ? Errc::kNotFound : Errc::kIo,
                  path + ": cannot create output: " + std::strerror(err));
  }
  // Keep the permissions an ordinary new file would get.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  return std::unique_ptr<Output>(new FdOutput(fd, path, temp, path));
}

}  // namespace pstate::io
