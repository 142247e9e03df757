// Where rewritten states go: standard output, or a file written through a
// temporary file and renamed into place only when everything succeeded.
#ifndef PSTATE_IO_OUTPUT_H_
#define PSTATE_IO_OUTPUT_H_

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
    if (buffer_.size() + bytes.size() > kBufferSize) Flush();
    if (bytes.size() >= kBufferSize) {
      WriteOut(bytes);
    } else {
      buffer_.append(bytes);
    }
  }
  void Put(char c) {
    if (buffer_.size() + 1 > kBufferSize) Flush();
    buffer_.push_back(c);
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
    if (!buffer_.empty()) WriteOut(buffer_);
    buffer_.clear();
  }
  virtual void WriteOut(std::string_view bytes) = 0;

  std::string name_;
  std::string buffer_;
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
