// RFC 6901 JSON pointers: built incrementally as the reader descends, and
// resolved against a value tree.
#ifndef PSTATE_JSON_POINTER_H_
#define PSTATE_JSON_POINTER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "pstate/base/result.h"
#include "pstate/json/value.h"

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
