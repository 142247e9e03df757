// The JSON tree pstate builds for one piece of a state (a resource, the
// manifest, ...), and the arena that owns it.
//
// IMPORTANT: lifetimes. Strings and numbers are views into the input window
// the value was parsed from, or into the Arena for values a pass rewrote; a
// Value is valid only until the reader moves past it (see state::Leaf) or the
// Arena is reset. Nothing is unescaped or converted up front: strings keep
// their escaped JSON text and numbers keep their exact source text, so a
// value can be written back byte for byte and big integers never lose digits.
#ifndef PSTATE_JSON_VALUE_H_
#define PSTATE_JSON_VALUE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pstate::json {

enum class Type : std::uint8_t {
  kNull,
  kFalse,
  kTrue,
  kNumber,
  kString,
  kArray,
  kObject,
};

/// "null", "boolean", "number", "string", "array" or "object".
std::string_view TypeName(Type type);

struct Member;

/// One JSON value. Trivially copyable; children live in an Arena.
struct Value {
  Type type = Type::kNull;
  /// For strings: the text contains at least one backslash escape.
  bool has_escapes = false;
  /// For strings: the parser saw only ASCII bytes (false when unknown).
  /// Lets writers copy the text without looking for U+2028/U+2029.
  bool ascii = false;
  /// Elements of an array, members of an object, bytes of a string or number.
  std::uint32_t size = 0;
  /// Absolute byte offset of the value's first byte in the decoded input.
  std::uint64_t offset = 0;
  union {
    const char* text;  ///< kString (between the quotes, escaped) or kNumber
    const Value* elements;
    const Member* members;
  };

  Value() : text(nullptr) {}

  bool is_null() const { return type == Type::kNull; }
  bool is_bool() const { return type == Type::kTrue || type == Type::kFalse; }
  bool is_string() const { return type == Type::kString; }
  bool is_number() const { return type == Type::kNumber; }
  bool is_array() const { return type == Type::kArray; }
  bool is_object() const { return type == Type::kObject; }

  /// The escaped string contents or the number's source text.
  std::string_view raw() const { return {text, size}; }
  /// For a string without escapes parsed from the input itself (not from
  /// text inside a string): where the input holds its text byte for byte,
  /// the offset after its opening quote; 0 for anything else.
  std::uint64_t verbatim_at() const {
    return is_string() && !has_escapes ? offset + 1 : 0;
  }
  std::span<const Value> array() const { return {elements, size}; }
  std::span<const Member> object() const;

  /// The value of the member named `key` (compared unescaped), or nullptr.
  /// With duplicate keys, the LAST occurrence: Go's encoding/json, and so
  /// Pulumi, keeps the last one. Linear: state objects are small and their
  /// keys are usually compared once.
  const Value* Find(std::string_view key) const;
  /// The decoded string (escapes resolved). Only for kString.
  std::string Str() const;
  /// True when this is a string equal to `s` once unescaped.
  bool StrEquals(std::string_view s) const;
};

/// An object member. `key` is a kString value (escaped text, with offset).
struct Member {
  Value key;
  Value value;

  std::string_view raw_key() const { return key.raw(); }
};

inline std::span<const Member> Value::object() const { return {members, size}; }

/// Values that need no storage.
Value MakeNull(std::uint64_t offset = 0);
Value MakeBool(bool b, std::uint64_t offset = 0);

/// Bump allocator for Values and rewritten strings. Reset() frees everything
/// at once, which is how pstate releases a resource after its passes ran.
class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  /// Uninitialized storage for `n` objects of trivially copyable T.
  template <typename T>
  T* Allocate(std::size_t n) {
    // T may be a pointer type; then the size of the pointer is meant.
    // NOLINTNEXTLINE(bugprone-sizeof-expression)
    return static_cast<T*>(AllocateBytes(n * sizeof(T), alignof(T)));
  }
  /// A copy of `text` owned by the arena.
  std::string_view Copy(std::string_view text);
  /// A string Value holding `decoded`, escaped for JSON.
  Value MakeString(std::string_view decoded, std::uint64_t offset = 0);
  /// A number Value whose text is a copy of `text`, which must be a JSON
  /// number text (json::IsNumberText; checked in debug builds). The text is
  /// kept as given, so "1.50" stays "1.50".
  Value MakeNumber(std::string_view text, std::uint64_t offset = 0);
  /// An array Value whose element array is a copy of `elements` (the
  /// elements' own children are shared, not copied).
  Value MakeArray(std::span<const Value> elements, std::uint64_t offset = 0);
  /// An object Value whose member array is a copy of `members`, in order,
  /// duplicates included (children are shared, not copied).
  Value MakeObject(std::span<const Member> members, std::uint64_t offset = 0);
  /// Frees everything; keeps the largest block for reuse.
  void Reset();
  /// Bytes handed out since the last Reset (for limits and tests).
  std::size_t used() const { return used_; }

 private:
  void* AllocateBytes(std::size_t bytes, std::size_t align);

  std::vector<std::unique_ptr<char[]>> blocks_;
  std::vector<std::size_t> block_sizes_;
  char* cursor_ = nullptr;
  char* limit_ = nullptr;
  std::size_t used_ = 0;
};

/// A deep copy of `value` whose string and number texts, keys, elements and
/// members all live in `arena`, so it outlives the input window or arena
/// the original points into. Offsets and flags (has_escapes, ascii) are
/// kept; duplicate members are kept in order.
Value Clone(const Value& value, Arena& arena);

}  // namespace pstate::json

#endif  // PSTATE_JSON_VALUE_H_
