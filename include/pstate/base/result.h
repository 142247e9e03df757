// Status and Result<T>: how failures travel between pstate modules.
//
// Findings about an input (a bad hash, a dangling parent) are data and go to a
// diag::Sink. A Status is for failures that stop an operation: an unreadable
// file, a corrupt archive, a wrong passphrase. No exception crosses a pstate
// API; the only catch is in the CLI's main.
#ifndef PSTATE_BASE_RESULT_H_
#define PSTATE_BASE_RESULT_H_

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace pstate {

/// Broad failure classes. The CLI maps them to exit codes; callers branch on
/// them (e.g. kNotFound becomes the `missing` asset status).
enum class Errc {
  kOk = 0,
  kInvalidArgument,  ///< the caller asked for something meaningless
  kNotFound,         ///< a file or directory does not exist
  kIo,               ///< reading or writing failed
  kSyntax,           ///< bytes are not valid JSON (or not valid base64, ...)
  kFormat,           ///< valid JSON but not the expected shape or version
  kCorrupt,          ///< an archive or compressed stream is damaged
  kLimit,            ///< a safety limit was hit (depth, size, member count)
  kCrypto,           ///< decryption failed: wrong key or tampered data
  kUnsupported,      ///< well-formed but not something pstate can handle
  /// The input is readable, but doing what was asked would produce an
  /// unsafe result (e.g. encrypt beside a plaintext it cannot drop); the
  /// command refuses and writes nothing.
  kRefused,
};

/// Success, or a failure class with a human-readable message.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Errc code, std::string message)
      : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == Errc::kOk; }
  Errc code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Errc code_ = Errc::kOk;
  std::string message_;
};

/// A value or the Status explaining its absence. Mirrors the parts of
/// std::expected that pstate uses, so a move to C++23 is mechanical.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : data_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(data_).ok());
  }
  Result(Errc code, std::string message)
      : data_(Status(code, std::move(message))) {}

  bool ok() const { return std::holds_alternative<T>(data_); }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<T>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  /// The failure; Status::Ok() when a value is held.
  Status status() const {
    return ok() ? Status::Ok() : std::get<Status>(data_);
  }

 private:
  std::variant<T, Status> data_;
};

}  // namespace pstate

#endif  // PSTATE_BASE_RESULT_H_
