// Helpers every type language uses to write results in state-JSON
// encoding (type-systems.md §0, §1): compact JSON text of a value, a
// converted secret wrapped back into a plaintext secret object, Pulumi's
// float64 view of a number, and copy-on-write rebuilding of arrays and
// objects whose children were converted.
#ifndef PSTATE_TYPES_ENCODE_H_
#define PSTATE_TYPES_ENCODE_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "pstate/json/value.h"

namespace pstate::types {

/// The value as compact JSON (no whitespace), strings and numbers written
/// as stored.
std::string CompactJson(const json::Value& value);
/// Appends the compact JSON of `value` to `out`.
void AppendCompactJson(const json::Value& value, std::string* out);

/// {"4dabf…": "1b47…", "plaintext": <compact JSON of inner>} allocated in
/// `arena`: how a converted secret is written back (Pulumi's
/// SerializePropertyValue with the plaintext shown).
json::Value MakePlaintextSecret(const json::Value& inner, json::Arena& arena);

/// A number Value with the given text, copied into `arena`.
json::Value MakeNumber(std::string_view text, json::Arena& arena);

/// What Pulumi's engine makes of a JSON number text: it decodes it into a
/// float64 (pkg/resource/stack/deployment.go DeserializePropertyValue) and
/// writes that float64 back as Go's encoding/json does.
struct Float64Reading {
  enum class Kind {
    kExact,       ///< the float64 holds the value (or Go writes it back equal)
    kRounded,     ///< the value changes: `text` is what Go writes back
    kOutOfRange,  ///< beyond float64: Go's json.Unmarshal fails
  };
  Kind kind = Kind::kExact;
  double value = 0;
  std::string text;  ///< kRounded only
};
Float64Reading ReadFloat64(std::string_view number_text);

/// Copy-on-write rebuilding of an array: elements are shared until one is
/// replaced, then the element array is copied once into the arena.
class ArrayRewrite {
 public:
  explicit ArrayRewrite(const json::Value& original) : original_(original) {}
  void Set(std::size_t index, const json::Value& value, json::Arena& arena);
  bool changed() const { return elements_ != nullptr; }
  /// The rebuilt array (the original when nothing was replaced).
  json::Value Build() const;

 private:
  const json::Value& original_;
  json::Value* elements_ = nullptr;
};

/// The same for an object's member values (keys and order are kept).
class ObjectRewrite {
 public:
  explicit ObjectRewrite(const json::Value& original) : original_(original) {}
  void Set(std::size_t index, const json::Value& value, json::Arena& arena);
  bool changed() const { return members_ != nullptr; }
  json::Value Build() const;

 private:
  const json::Value& original_;
  json::Member* members_ = nullptr;
};

}  // namespace pstate::types

#endif  // PSTATE_TYPES_ENCODE_H_
