// Helpers every type language uses to write results in state-JSON
// encoding (type-systems.md §0, §1): a converted secret wrapped back into a
// plaintext secret object and Pulumi's float64 view of a number. Compact
// JSON text is json::AppendCompactJson's (json/compact.h): it keeps every
// string as stored, so a converted value differs from the input only where
// a conversion changed it.
#ifndef PSTATE_TYPES_ENCODE_H_
#define PSTATE_TYPES_ENCODE_H_

#include <string>
#include <string_view>

#include "json/value.h"

namespace pstate::types {

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

}  // namespace pstate::types

#endif  // PSTATE_TYPES_ENCODE_H_
