#include "cli/stdout_stream.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <streambuf>

namespace pstate::cli {
namespace {

class FdStreambuf : public std::streambuf {
 public:
  explicit FdStreambuf(int fd) : fd_(fd) { setp(buffer_, buffer_ + kSize); }

  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!Drain()) return traits_type::eof();
    if (traits_type::eq_int_type(c, traits_type::eof())) {
      return traits_type::not_eof(c);
    }
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    return c;
  }

  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n > epptr() - pptr()) {
      // Larger than the room left: drain, then write big pieces directly.
      if (!Drain()) return 0;
      if (n >= static_cast<std::streamsize>(kSize)) {
        return WriteAll(s, static_cast<std::size_t>(n)) ? n : 0;
      }
    }
    std::memcpy(pptr(), s, static_cast<std::size_t>(n));
    pbump(static_cast<int>(n));
    return n;
  }

  int sync() override { return Drain() ? 0 : -1; }

 private:
  static constexpr std::size_t kSize = std::size_t{1} << 16;

  bool Drain() {
    auto n = static_cast<std::size_t>(pptr() - pbase());
    setp(buffer_, buffer_ + kSize);
    return n == 0 || WriteAll(buffer_, n);
  }

  bool WriteAll(const char* p, std::size_t n) {
    if (error_ != 0) return false;  // the output is already lost
    while (n > 0) {
      ssize_t w = ::write(fd_, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        error_ = errno;
        return false;
      }
      if (w == 0) {  // no progress and no reason: call it an I/O error
        error_ = EIO;
        return false;
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    return true;
  }

  int fd_;
  int error_ = 0;
  char buffer_[kSize];
};

FdStreambuf* g_stdout = nullptr;

}  // namespace

void InstallStdoutBuffer() {
  if (g_stdout != nullptr) return;
  // Never destroyed: the runtime flushes std::cout after static
  // destructors may have run.
  g_stdout = new FdStreambuf(
      STDOUT_FILENO);  // NOLINT(cppcoreguidelines-owning-memory)
  std::cout.rdbuf(g_stdout);
}

int StdoutWriteError() { return g_stdout != nullptr ? g_stdout->error() : 0; }

}  // namespace pstate::cli
