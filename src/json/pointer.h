// RFC 6901 JSON pointers: built incrementally as the reader descends, and
// resolved against a value tree.
#ifndef PSTATE_JSON_POINTER_H_
#define PSTATE_JSON_POINTER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "json/value.h"

namespace pstate::json {

/// Appends "/" + `token` with ~ and / escaped as ~0 and ~1.
void AppendPointerToken(std::string* pointer, std::string_view token);
void AppendPointerIndex(std::string* pointer, std::size_t index);

/// A pointer under construction; Push/Pop keep it in step with recursion.
class PointerBuilder {
 public:
  explicit PointerBuilder(std::string base = {}) : path_(std::move(base)) {}
  /// Returns the previous length, to be passed to Pop.
  std::size_t PushKey(std::string_view key) {
    std::size_t n = path_.size();
    AppendPointerToken(&path_, key);
    return n;
  }
  std::size_t PushIndex(std::size_t index) {
    std::size_t n = path_.size();
    AppendPointerIndex(&path_, index);
    return n;
  }
  void Pop(std::size_t length) { path_.resize(length); }
  const std::string& str() const { return path_; }

 private:
  std::string path_;
};

/// A pointer kept as a stack of segments while a walk descends, and spelled
/// out only when asked: most walks never need the text (it is for the rare
/// finding or error), so descending builds no string. Segments reference
/// what they name: a key must outlive its segment.
class PointerPath {
 public:
  /// `base`: an escaped pointer the path starts with (referenced).
  explicit PointerPath(std::string_view base = {}) : base_(base) {}

  /// Each Push returns a mark for Pop: the depth before it.
  /// An object member's key as the parser stored it (escaped JSON text).
  /// A `hidden` key is spelled "*": the keys of a secret's plaintext are
  /// part of the secret.
  std::size_t PushKey(const Value& key, bool hidden = false) {
    return Push({hidden ? Kind::kHidden : Kind::kKey, {}, &key, 0});
  }
  /// A decoded key (a name a schema or a type gives, a field name).
  std::size_t PushName(std::string_view name, bool hidden = false) {
    return Push({hidden ? Kind::kHidden : Kind::kName, name, nullptr, 0});
  }
  std::size_t PushIndex(std::size_t index) {
    return Push({Kind::kIndex, {}, nullptr, index});
  }
  /// An escaped pointer suffix ("/a/0/~1b"), appended as it is.
  std::size_t PushSuffix(std::string_view suffix) {
    return Push({Kind::kSuffix, suffix, nullptr, 0});
  }
  void Pop(std::size_t mark) { segments_.resize(mark); }
  void Pop() { segments_.pop_back(); }
  /// The number of segments below the base.
  std::size_t size() const { return segments_.size(); }

  /// The pointer's text (built on each call).
  std::string str() const;
  /// Appends the pointer's text to `out` (no allocation of its own).
  void AppendTo(std::string* out) const;

 private:
  enum class Kind : unsigned char { kKey, kHidden, kName, kIndex, kSuffix };
  struct Segment {
    Kind kind;
    std::string_view text;  ///< kName, kSuffix
    const Value* key;       ///< kKey
    std::size_t index;      ///< kIndex
  };
  std::size_t Push(const Segment& s) {
    std::size_t mark = segments_.size();
    segments_.push_back(s);
    return mark;
  }

  std::string_view base_;
  std::vector<Segment> segments_;
};

/// The unescaped reference tokens of `pointer` ("" has none; "/" has one,
/// the empty key): "/a~1b/~0/0" gives {"a/b", "~", "0"}. kInvalidArgument
/// when the pointer does not start with '/' or a '~' is not followed by
/// '0' or '1'.
Result<std::vector<std::string>> SplitPointer(std::string_view pointer);

/// The value `pointer` designates inside `root` (RFC 6901), or nullptr
/// when it designates nothing or is malformed. Object members are matched
/// by unescaped key, the last duplicate winning (as Value::Find and Go's
/// decoder); array indices are decimal digits without leading zeros, and
/// "-" (the position after the last element) designates nothing.
const Value* Resolve(const Value& root, std::string_view pointer);

/// The same, saying why it failed: kInvalidArgument for a malformed pointer
/// or array index, kNotFound for a missing member or element or a scalar in
/// the way. The message names the pointer, the failing segment (1-based)
/// and the reason, e.g. `JSON pointer "/a/b": segment 2 ("b"): no member
/// "b" in the object at "/a"`. `*out` is set only on success.
[[nodiscard]] Status Resolve(const Value& root, std::string_view pointer,
                             const Value** out);

}  // namespace pstate::json

#endif  // PSTATE_JSON_POINTER_H_
