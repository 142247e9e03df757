// The value side every type language shares: a check descends a property
// value in step with a type node, and this is the state of that descent
// and its moves. A language's checker is a switch over its own type nodes
// (`Check(type, value)`); where it goes into an array, an object or a
// secret's plaintext it calls Elements, Members or Secret here, which keep
// the place (a json::PointerPath, spelled only for an error), enter and
// leave secrets, stop at the first error and rebuild converted containers
// copy-on-write.
//
// Why not a visitor of state::WalkProperties: a type check is not a
// pre-order pass. A union checks one value against several types and
// forgets the errors of the members that did not fit; a result (ok,
// convert, error) and a converted value flow up from the children; a
// converted secret is written back as a new plaintext secret; an object
// type looks its fields up in type order, and reports the fields the value
// lacks. The decoding of each node is the model's (state::DecodeProperty
// through types::Decode), and the kinds are state::PropertyKind.
//
// Inside a secret, object keys in pointers are written as "*" (the keys of
// a secret's plaintext are part of the secret, as `pstate verify` treats
// them) and messages say "inside a secret" instead of quoting anything.
#ifndef PSTATE_SRC_TYPES_CHECK_WALK_H_
#define PSTATE_SRC_TYPES_CHECK_WALK_H_

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "json/compact.h"
#include "json/pointer.h"
#include "json/value.h"
#include "state/property.h"
#include "types/encode.h"
#include "types/state_value.h"
#include "types/type_system.h"

namespace pstate::types {

/// Copy-on-write rebuilding of an array's elements (T = json::Value) or an
/// object's member values (T = json::Member; keys and order are kept): the
/// children are shared until one is replaced, then copied once into the
/// arena.
template <typename T>
class Rebuild {
 public:
  explicit Rebuild(const json::Value& original) : original_(original) {}
  void Set(std::size_t index, const json::Value& value, json::Arena& arena) {
    if (copy_ == nullptr) {
      copy_ = arena.Allocate<T>(original_.size);
      const T* from;
      if constexpr (std::is_same_v<T, json::Member>) {
        from = original_.members;
      } else {
        from = original_.elements;
      }
      std::uninitialized_copy(from, from + original_.size, copy_);
    }
    if constexpr (std::is_same_v<T, json::Member>) {
      copy_[index].value = value;
    } else {
      copy_[index] = value;
    }
  }
  bool changed() const { return copy_ != nullptr; }
  /// The rebuilt container (the original when nothing was replaced).
  json::Value Build() const {
    json::Value v = original_;
    if (copy_ != nullptr) {
      if constexpr (std::is_same_v<T, json::Member>) {
        v.members = copy_;
      } else {
        v.elements = copy_;
      }
    }
    return v;
  }
  /// kConvert with the rebuilt container in *out when a child was
  /// replaced, else kOk.
  Outcome Finish(json::Value* out) const {
    if (!changed()) return Outcome::kOk;
    *out = Build();
    return Outcome::kConvert;
  }

 private:
  const json::Value& original_;
  T* copy_ = nullptr;
};

/// A recorded error: where and why (see CheckWalk::Fail).
struct CheckError {
  std::string pointer;
  std::string message;
  std::size_t depth = 0;  ///< path segments at the error
};

class CheckWalk {
 public:
  /// Decoded secrets and converted values go to the walk's own arena, or
  /// to `arena` (which must outlive what is read into it).
  CheckWalk() : arena_(own_arena_) {}
  explicit CheckWalk(json::Arena& arena) : arena_(arena) {}
  CheckWalk(const CheckWalk&) = delete;
  CheckWalk& operator=(const CheckWalk&) = delete;

  json::Arena& arena() { return arena_; }

  // ------------------------------------------------------------ the place
  /// `key` is an object member's key Value (escaped text); it must stay
  /// alive until popped. Each Push returns the mark Pop takes.
  std::size_t PushKey(const json::Value& key) {
    return path_.PushKey(key, /*hidden=*/in_secret());
  }
  /// A decoded key (a field a type names); alive until popped.
  std::size_t PushName(std::string_view name) {
    return path_.PushName(name, /*hidden=*/in_secret());
  }
  std::size_t PushIndex(std::size_t index) { return path_.PushIndex(index); }
  void Pop(std::size_t mark) { path_.Pop(mark); }
  /// Segments below the checked value.
  std::size_t depth() const { return path_.size(); }

  void EnterSecret() { ++secret_depth_; }
  void LeaveSecret() { --secret_depth_; }
  bool in_secret() const { return secret_depth_ > 0; }

  // ------------------------------------------------------------ the error
  /// Records an error at the current place (the first one recorded since
  /// the last ClearError wins) and returns kError.
  Outcome Fail(std::string_view message) {
    if (!failed_) {
      failed_ = true;
      error_.pointer = path_.str();
      error_.depth = path_.size();
      error_.message.clear();
      if (in_secret()) error_.message = "inside a secret: ";
      error_.message.append(message);
    }
    return Outcome::kError;
  }
  /// Forgets a recorded error (a union member that did not fit).
  void ClearError() { failed_ = false; }
  bool failed() const { return failed_; }
  const CheckError& error() const { return error_; }
  const std::string& error_pointer() const { return error_.pointer; }
  const std::string& error_message() const { return error_.message; }
  /// Replaces the recorded error (a union reporting the error of the
  /// member that came closest).
  void SetError(CheckError error) {
    failed_ = true;
    error_ = std::move(error);
  }
  /// Puts `prefix` before the recorded message ("the key ...").
  void PrefixError(std::string_view prefix) {
    error_.message.insert(0, prefix);
  }

  // ------------------------------------------------------------ descent
  // `check(i, child, &converted)` checks one child and returns its
  // Outcome, writing `converted` on kConvert. The first error ends the
  // descent unless `keep_going` (a collecting check that records every
  // problem); the result is kError if any child failed, else kConvert with
  // the rebuilt container in *out if any child converted, else kOk.

  template <typename F>
  Outcome Elements(const json::Value& array, json::Value* out, F&& check,
                   bool keep_going = false) {
    return Children<json::Value>(array, out, check, keep_going);
  }

  template <typename F>
  Outcome Members(const json::Value& object, json::Value* out, F&& check,
                  bool keep_going = false) {
    return Children<json::Member>(object, out, check, keep_going);
  }

  /// A secret's plaintext (`secret` decoded as kSecret): checked by
  /// `check(inner, &converted)` inside the secret; a conversion is written
  /// back as a plaintext secret object. A ciphertext-only secret cannot be
  /// looked into: kOk.
  template <typename F>
  Outcome Secret(const Node& secret, json::Value* out, F&& check) {
    if (secret.secret_inner == nullptr) return Outcome::kOk;
    EnterSecret();
    json::Value inner;
    Outcome o = check(*secret.secret_inner, &inner);
    LeaveSecret();
    if (o == Outcome::kConvert) *out = MakePlaintextSecret(inner, arena_);
    return o;
  }

  /// Fails at the first value inside `v` that Pulumi would refuse to read
  /// (kUnrecognized: a malformed or unknown signature object), looking
  /// where Pulumi's reader looks: array elements, the members of plain
  /// objects and resource references, secrets' plaintext. (An asset's or
  /// archive's own fields were checked when it was decoded.)
  Outcome Readable(const json::Value& v);

  /// The nesting guard of a recursive check: false, with an error, beyond
  /// kMaxNesting levels; each Enter that returned true needs a Leave.
  static constexpr int kMaxNesting = 512;
  bool Enter() {
    if (nesting_ >= kMaxNesting) {
      Fail("the value is nested too deeply");
      return false;
    }
    ++nesting_;
    return true;
  }
  void Leave() { --nesting_; }

  // ------------------------------------------------------------ the end
  /// The verdict for a finished check of the whole value.
  Verdict Finish(Outcome outcome, const json::Value& converted) const {
    switch (outcome) {
      case Outcome::kOk: return OkVerdict();
      case Outcome::kConvert:
        return ConvertVerdict(json::ToCompactJson(converted));
      case Outcome::kError: return ErrorVerdict(error_.pointer, error_.message);
    }
    return OkVerdict();
  }

  /// Ready for another check: no place, no error, an empty arena (values
  /// from an earlier check are gone).
  void Reset() {
    path_.Pop(0);
    secret_depth_ = 0;
    nesting_ = 0;
    failed_ = false;
    arena_.Reset();
  }

 private:
  // T = json::Value: an array's elements; json::Member: an object's members.
  template <typename T, typename F>
  Outcome Children(const json::Value& container, json::Value* out, F& check,
                   bool keep_going) {
    Rebuild<T> rebuilt(container);
    bool failed = false;
    for (std::size_t i = 0; i < container.size; ++i) {
      std::size_t mark;
      Outcome o;
      json::Value converted;
      if constexpr (std::is_same_v<T, json::Member>) {
        mark = PushKey(container.members[i].key);
        o = check(i, container.members[i], &converted);
      } else {
        mark = PushIndex(i);
        o = check(i, container.elements[i], &converted);
      }
      Pop(mark);
      if (o == Outcome::kError) {
        failed = true;
        if (!keep_going) break;
      } else if (o == Outcome::kConvert) {
        rebuilt.Set(i, converted, arena_);
      }
    }
    return failed ? Outcome::kError : rebuilt.Finish(out);
  }

  json::Arena own_arena_;
  json::Arena& arena_;
  json::PointerPath path_;
  int secret_depth_ = 0;
  int nesting_ = 0;
  bool failed_ = false;
  CheckError error_;
};

/// TypeSystem::Parse of a language whose types are text: `spec` must be a
/// JSON string (else kSyntax saying `not_text`), which `parse` reads
/// (decoded) into a Result of a shared_ptr to the language's Type.
template <typename ParseText>
Result<std::shared_ptr<const Type>> ParseTextType(const json::Value& spec,
                                                  std::string_view not_text,
                                                  ParseText&& parse) {
  if (!spec.is_string()) return Status(Errc::kSyntax, std::string(not_text));
  auto parsed = parse(spec.Str());
  if (!parsed.ok()) return parsed.status();
  return std::shared_ptr<const Type>(std::move(parsed).value());
}

/// "null", "a bool", "a number", "a string", "the unknown value", "an
/// array", "an object", "a secret", "an asset", ... for messages.
std::string_view DescribeKind(PropertyKind kind);

}  // namespace pstate::types

#endif  // PSTATE_SRC_TYPES_CHECK_WALK_H_
