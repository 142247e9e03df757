// The formal Pulumi type system (Pulumi's docs/architecture/types/README.md)
// in pstate's textual syntax, `system: "pulumi"` (docs/types.md):
//
//   Null Bool Number String Asset Archive ResourceReference
//   Array<T> Map<T> Promise<T> Output<T> Input<T>
//   Tuple<T, ...> Union<T, T, ...> Object<"k", T, ...> Enum<T, lit, ...>
//   inputShape(T) outputShape(T) plainShape(T)
//
// Whitespace between tokens is ignored; keys and string literals are JSON
// strings; literals are JSON strings, numbers, true or false.
//
// Values are checked as §2.4 of the contract says: numbers are float64
// (an integer that float64 rounds is a convert), Object<...> is closed and
// a missing key counts as null, unknowns and secrets are Output metadata
// (accepted only under Output or Input), Promise carries no metadata, and
// the shape functions are expanded when the type is parsed, stopping at the
// first Output or Promise they unwrap.
#ifndef PSTATE_TYPES_PULUMI_H_
#define PSTATE_TYPES_PULUMI_H_

#include <memory>

#include "types/type_system.h"

namespace pstate::types {

std::unique_ptr<TypeSystem> MakePulumiSystem();

}  // namespace pstate::types

#endif  // PSTATE_TYPES_PULUMI_H_
