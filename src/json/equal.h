// Value equality and hashing by meaning, not by spelling.
//
// Two values are equal when Go's encoding/json would decode them into the
// same thing, except that numbers are compared exactly (as decimals, see
// number.h) rather than as float64: "1.0" equals "1" and "1e0", but
// "9007199254740993" does not equal "9007199254740992". Strings and keys
// are compared after unescaping ("\u0041" equals "A"; a lone surrogate
// escape decodes to U+FFFD, as in Go). Objects are unordered, and when an
// object repeats a key only its LAST member counts, as Go's decoder keeps
// it, so {"a":1,"a":2} equals {"a":2}. Arrays compare in order. true, false
// and null equal only themselves: a boolean never equals a number.
//
// Hash is consistent with Equal: Equal(a, b) implies Hash(a) == Hash(b).
// It is deterministic (the same on every run and platform), so it may key
// caches, but it is not a cryptographic hash and may change between pstate
// versions: never store it.
#ifndef PSTATE_JSON_EQUAL_H_
#define PSTATE_JSON_EQUAL_H_

#include <cstddef>
#include <cstdint>

#include "json/value.h"

namespace pstate::json {

/// True when `a` and `b` mean the same JSON value (see above). Values that
/// share raw text (identical strings, keys or number texts) are compared
/// without unescaping or decimal arithmetic.
bool Equal(const Value& a, const Value& b);

/// A 64-bit hash consistent with Equal. Objects hash independently of
/// member order (and of shadowed duplicates); numbers hash through
/// CanonicalNumber; strings through their unescaped bytes.
std::uint64_t Hash(const Value& value);

/// Function objects for unordered containers of Values (or of pointers to
/// them, with ValueHash{}(*p)).
struct ValueHash {
  std::size_t operator()(const Value& v) const {
    return static_cast<std::size_t>(Hash(v));
  }
};
struct ValueEqual {
  bool operator()(const Value& a, const Value& b) const { return Equal(a, b); }
};

}  // namespace pstate::json

#endif  // PSTATE_JSON_EQUAL_H_
