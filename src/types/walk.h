// State shared by a check while it descends into a value: where it is (a
// JSON pointer), whether it is inside a secret's plaintext, the first
// error, and the arena for decoded secrets and converted values.
//
// Inside a secret, object keys in pointers are written as "*" (the keys of
// a secret's plaintext are part of the secret, as `pstate verify` treats
// them) and messages say "inside a secret" instead of quoting anything.
#ifndef PSTATE_SRC_TYPES_WALK_H_
#define PSTATE_SRC_TYPES_WALK_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "pstate/json/pointer.h"
#include "pstate/json/value.h"
#include "pstate/types/encode.h"
#include "pstate/types/state_value.h"
#include "pstate/types/type_system.h"

namespace pstate::types {

class Walk {
 public:
  json::Arena& arena() { return arena_; }

  /// `key` is an object member's key Value (escaped text).
  std::size_t PushKey(const json::Value& key) {
    if (secret_depth_ > 0) return pointer_.PushKey("*");
    if (!key.has_escapes) return pointer_.PushKey(key.raw());
    return pointer_.PushKey(key.Str());
  }
  /// A decoded key (for keys a type names but the value lacks).
  std::size_t PushName(std::string_view name) {
    return pointer_.PushKey(secret_depth_ > 0 ? std::string_view("*") : name);
  }
  std::size_t PushIndex(std::size_t index) { return pointer_.PushIndex(index); }
  void Pop(std::size_t length) { pointer_.Pop(length); }

  void EnterSecret() { ++secret_depth_; }
  void LeaveSecret() { --secret_depth_; }
  bool in_secret() const { return secret_depth_ > 0; }

  /// Records an error at the current place (the first one recorded since
  /// the last ClearError wins) and returns kError.
  Outcome Fail(std::string_view message) {
    if (!failed_) {
      failed_ = true;
      error_pointer_ = pointer_.str();
      error_message_.clear();
      if (secret_depth_ > 0) error_message_ = "inside a secret: ";
      error_message_.append(message);
    }
    return Outcome::kError;
  }
  /// Forgets a recorded error (a union member that did not match).
  void ClearError() { failed_ = false; }
  bool failed() const { return failed_; }
  const std::string& error_pointer() const { return error_pointer_; }
  const std::string& error_message() const { return error_message_; }

  /// The verdict for a finished check of the whole value.
  Verdict Finish(Outcome outcome, const json::Value& converted) {
    switch (outcome) {
      case Outcome::kOk: return Verdict::Ok();
      case Outcome::kConvert: return Verdict::Convert(CompactJson(converted));
      case Outcome::kError:
        return Verdict::Error(error_pointer_, error_message_);
    }
    return Verdict::Ok();
  }

 private:
  json::Arena arena_;
  json::PointerBuilder pointer_;
  int secret_depth_ = 0;
  bool failed_ = false;
  std::string error_pointer_;
  std::string error_message_;
};

/// "null", "a bool", "a number", "a string", "the unknown value", "an
/// array", "an object", "a secret", "an asset", ... for messages.
std::string_view DescribeKind(NodeKind kind);

}  // namespace pstate::types

#endif  // PSTATE_SRC_TYPES_WALK_H_
