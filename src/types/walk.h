// State shared by a check while it descends into a value: where it is (a
// JSON pointer, spelled only for an error), whether it is inside a secret's
// plaintext, the first error, and the arena for decoded secrets and converted
// values.
//
// Inside a secret, object keys in pointers are written as "*" (the keys of
// a secret's plaintext are part of the secret, as `pstate verify` treats
// them) and messages say "inside a secret" instead of quoting anything.
#ifndef PSTATE_SRC_TYPES_WALK_H_
#define PSTATE_SRC_TYPES_WALK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pstate/json/pointer.h"
#include "pstate/json/value.h"
#include "pstate/types/encode.h"
#include "pstate/types/state_value.h"
#include "pstate/types/type_system.h"

namespace pstate::types {

class Walk {
 public:
  json::Arena& arena() { return arena_; }

  /// `key` is an object member's key Value (escaped text); it must stay
  /// alive until popped. The pointer is kept as a stack of segments and
  /// spelled only when an error is recorded: descending costs no string
  /// building.
  std::size_t PushKey(const json::Value& key) {
    std::size_t mark = segments_.size();
    if (secret_depth_ > 0) {
      segments_.push_back({Segment::Kind::kName, nullptr, "*", 0});
    } else {
      segments_.push_back({Segment::Kind::kKey, &key, {}, 0});
    }
    return mark;
  }
  /// A decoded key (for keys a type names but the value lacks); the text
  /// must stay alive until popped.
  std::size_t PushName(std::string_view name) {
    std::size_t mark = segments_.size();
    segments_.push_back({Segment::Kind::kName, nullptr,
                         secret_depth_ > 0 ? std::string_view("*") : name, 0});
    return mark;
  }
  std::size_t PushIndex(std::size_t index) {
    std::size_t mark = segments_.size();
    segments_.push_back({Segment::Kind::kIndex, nullptr, {}, index});
    return mark;
  }
  void Pop(std::size_t mark) { segments_.resize(mark); }

  void EnterSecret() { ++secret_depth_; }
  void LeaveSecret() { --secret_depth_; }
  bool in_secret() const { return secret_depth_ > 0; }

  /// Records an error at the current place (the first one recorded since
  /// the last ClearError wins) and returns kError.
  Outcome Fail(std::string_view message) {
    if (!failed_) {
      failed_ = true;
      error_pointer_.clear();
      for (const Segment& s : segments_) {
        switch (s.kind) {
          case Segment::Kind::kKey:
            json::AppendPointerToken(&error_pointer_, s.key->has_escapes
                                                          ? s.key->Str()
                                                          : s.key->raw());
            break;
          case Segment::Kind::kName:
            json::AppendPointerToken(&error_pointer_, s.name);
            break;
          case Segment::Kind::kIndex:
            json::AppendPointerIndex(&error_pointer_, s.index);
            break;
        }
      }
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

  /// Ready for another check: no place, no error, an empty arena (values
  /// from an earlier check are gone).
  void Reset() {
    segments_.clear();
    secret_depth_ = 0;
    failed_ = false;
    arena_.Reset();
  }

 private:
  struct Segment {
    enum class Kind : std::uint8_t { kKey, kName, kIndex } kind;
    const json::Value* key;
    std::string_view name;
    std::size_t index;
  };
  json::Arena arena_;
  std::vector<Segment> segments_;
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
