// The state-JSON layer every type language shares (type-systems.md §1):
// a property value as Pulumi stores it, decoded one level at a time.
//
// Decode() looks at one json::Value and says what Pulumi would read there:
// a plain JSON kind, the unknown sentinel, or a signature object (secret,
// asset, archive, resource reference, special float, byte string), with
// malformed signatures reported as kUnrecognized and a reason. A secret's
// plaintext is parsed (into the caller's arena) so languages can descend
// into it; a ciphertext-only secret has no inner value (content unknown).
//
// Numbers keep their source text in json::Value; json/number.h compares them
// exactly and rounds them as Go does.
#ifndef PSTATE_TYPES_STATE_VALUE_H_
#define PSTATE_TYPES_STATE_VALUE_H_

#include <string>
#include <string_view>

#include "json/value.h"
#include "state/property.h"

namespace pstate::types {

/// The model's kinds (state/property.h). A value Pulumi would refuse to
/// read (a malformed signature object, an unrecognized signature, the
/// gRPC-only output value) is kUnrecognized here, with the reason.
using state::PropertyKind;

struct Node {
  PropertyKind kind = PropertyKind::kNull;
  const json::Value* value = nullptr;  ///< the value as stored
  /// kSecret: the parsed plaintext (in the arena passed to Decode), or
  /// nullptr for a ciphertext-only secret.
  const json::Value* secret_inner = nullptr;
  /// kSpecialFloat: the IEEE-754 value.
  double special = 0;
  /// kUnrecognized: why Pulumi would refuse it (never quotes secret text).
  std::string reason;
};

/// Decodes one value. `arena` receives a secret's parsed plaintext.
Node Decode(const json::Value& value, json::Arena& arena);

}  // namespace pstate::types

#endif  // PSTATE_TYPES_STATE_VALUE_H_
