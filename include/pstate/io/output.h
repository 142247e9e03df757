// Where rewritten states go: standard output, or a file written through a
// temporary file and renamed into place only when everything succeeded.
#ifndef PSTATE_IO_OUTPUT_H_
#define PSTATE_IO_OUTPUT_H_

#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "pstate/base/result.h"

namespace pstate::io {

/// A buffered byte sink. Errors are sticky: after the first failed write
/// every call is a no-op and Commit() reports the failure.
class Output {
 public:
  virtual ~Output() = default;
  void Write(std::string_view bytes) {
    std::size_t n = bytes.size();
    if (n <= kBufferSize - used_) {
      // Most writes are a few bytes (quotes, ": ", indentation): a plain
      // loop beats a memcpy call for those.
      char* d = buffer_.get() + used_;
      if (n <= 16) {
        for (std::size_t i = 0; i < n; ++i) d[i] = bytes[i];
      } else {
        std::memcpy(d, bytes.data(), n);
      }
      used_ += n;
      return;
    }
    Flush();
    if (n >= kBufferSize) {
      WriteOut(bytes);
    } else {
      std::memcpy(buffer_.get(), bytes.data(), n);
      used_ = n;
    }
  }
  void Put(char c) {
    if (used_ == kBufferSize) Flush();
    buffer_[used_++] = c;
  }
  /// Flushes and makes the output final (renames the temporary file).
  virtual Status Commit() = 0;
  /// Throws the output away (removes the temporary file). Called by the
  /// destructor when Commit() was not.
  virtual void Abandon() = 0;
  const std::string& name() const { return name_; }

 protected:
  static constexpr std::size_t kBufferSize = 1 << 20;
  void Flush() {
    if (used_ > 0) WriteOut(std::string_view(buffer_.get(), used_));
    used_ = 0;
  }
  /// Drops buffered bytes without writing them.
  void DiscardBuffer() { used_ = 0; }
  virtual void WriteOut(std::string_view bytes) = 0;

  std::string name_;
  std::unique_ptr<char[]> buffer_{new char[kBufferSize]};
  std::size_t used_ = 0;
};

/// Opens `path` for writing ("-" is standard output). A file is written to
/// a temporary file beside it and renamed over `path` by Commit(); if the
/// Output is destroyed without Commit(), no file appears and an existing
/// `path` is untouched.
Result<std::unique_ptr<Output>> OpenOutput(const std::string& path);

/// An output collecting bytes in memory (tests).
class StringOutput : public Output {
 public:
  StringOutput() { name_ = "<memory>"; }
  Status Commit() override {
    Flush();
    return Status::Ok();
  }
  void Abandon() override {}
  const std::string& str() {
    Flush();
    return data_;
  }

 private:
  void WriteOut(std::string_view bytes) override { data_.append(bytes); }
  std::string data_;
};

}  // namespace pstate::io

#endif  // PSTATE_IO_OUTPUT_H_
