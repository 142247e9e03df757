// The PCL type language (`--system pcl`): the HCL2 model types of Pulumi's
// program code generator (pkg/codegen/hcl2/model, pkg/codegen/pcl), as
// written in docs/types.md.
//
// A type is parsed from its textual form (`list(string)`, `object({a =
// int})`, `union(number, none)`, `enum(string: "a", "b")`, ...). Checking a
// state value first classifies the conversion the model would allow from
// the value's own type (§4.2 of the reference: a literal is a ConstType, an
// array a tuple, an object an object type, a secret an output):
//   NoConversion       -> error;
//   Safe or Unsafe     -> the value is converted at run time with cty's
//                         primitive rules (PCL defines no run-time rules of
//                         its own), plus the int32 integrality rule for
//                         `int`; a run-time failure is an error, an
//                         unchanged value is ok, a changed one is convert.
//
// The type-level operations of the model (conversion kinds, assignability,
// unification) are exposed too, for tests and for tools that compare types.
#ifndef PSTATE_TYPES_PCL_H_
#define PSTATE_TYPES_PCL_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "json/value.h"
#include "types/type_system.h"

namespace pstate::types {

std::unique_ptr<TypeSystem> MakePclSystem();

namespace pcl {

/// Ordered as upstream (`type.go ConversionKind`): a larger kind is better.
enum class ConversionKind { kNone = 0, kUnsafe = 1, kSafe = 2 };

enum class Kind {
  kAny,   ///< `any` (the model's DynamicType)
  kNone,  ///< the type of null
  kString,
  kNumber,  ///< arbitrary precision
  kInt,     ///< 32-bit integers
  kBool,
  kAsset,    ///< opaque (pkg/codegen/pcl/type.go)
  kArchive,  ///< opaque
  kList,
  kSet,
  kMap,
  kObject,
  kTuple,
  kUnion,
  kOutput,
  kPromise,
  kEnum,
  kConst,  ///< a literal's type (only from TypeOfValue, never parsed)
};

/// A literal: an enum member or a ConstType's value.
struct Literal {
  enum class Kind { kString, kNumber, kBool };
  Kind kind = Kind::kString;
  /// kString: the decoded bytes; kNumber: the JSON number text; kBool:
  /// "true" or "false".
  std::string text;
};

class PclType;
using TypePtr = std::shared_ptr<const PclType>;

/// An immutable PCL type. Build types with the factories below (they
/// normalize unions and outputs as the model's constructors do).
class PclType final : public Type {
 public:
  Kind kind = Kind::kAny;
  /// list/set/map/output/promise: [element]; tuple/union: the members;
  /// enum/const: [underlying type].
  std::vector<TypePtr> elements;
  /// object: properties sorted by name (names unique).
  std::vector<std::pair<std::string, TypePtr>> properties;
  /// enum: the members; const: [value].
  std::vector<Literal> literals;
  /// The model's String() form (unions sort their members by it).
  std::string text;
};

// Factories. Unions are flattened, sorted by text and de-duplicated, and a
// union of one type is that type (`type_union.go NewUnionType`); output(T)
// and promise(T) resolve eventuals inside T (`NewOutputType`,
// `NewPromiseType`).
TypePtr Primitive(Kind kind);  ///< any, none, string, number, int, bool, ...
TypePtr ListOf(Kind kind, TypePtr element);  ///< list, set, map
TypePtr OutputOf(TypePtr element);
TypePtr PromiseOf(TypePtr element);
TypePtr OptionalOf(TypePtr element);  ///< union(T, none)
TypePtr UnionOf(std::vector<TypePtr> members);
TypePtr TupleOf(std::vector<TypePtr> elements);
TypePtr ObjectOf(std::vector<std::pair<std::string, TypePtr>> properties);
TypePtr EnumOf(TypePtr underlying, std::vector<Literal> members);
TypePtr ConstOf(TypePtr underlying, Literal value);

/// Parses the textual syntax (docs/types.md). Errors are Errc::kSyntax and
/// say "at offset N of the type: ...".
Result<TypePtr> ParseType(std::string_view text);

/// Structural equality (`Equals`).
bool Equal(const PclType& a, const PclType& b);

/// `ConversionFrom`: the kind of conversion from `src` to `dest`.
ConversionKind ConversionFrom(const PclType& dest, const PclType& src);

/// `AssignableFrom`: stricter than conversion.
bool AssignableFrom(const PclType& dest, const PclType& src);

/// `unify(t0, t1)`: the unified type and the kind of that unification.
struct Unified {
  TypePtr type;
  ConversionKind kind = ConversionKind::kNone;
};
Unified Unify(const TypePtr& t0, const TypePtr& t1);

/// `UnifyTypes`: the safe and the unsafe unification of all `types`
/// (none for an empty list).
std::pair<TypePtr, TypePtr> UnifyTypes(std::span<const TypePtr> types);

/// The type of a state JSON value (§4.2): literals are ConstTypes, arrays
/// tuples, objects object types, assets and archives the opaque types, a
/// secret output(T). The unknown sentinel, whose type depends on where it
/// is used, gets `any`; a malformed signature gets nullptr.
TypePtr TypeOfValue(const json::Value& value);

}  // namespace pcl
}  // namespace pstate::types

#endif  // PSTATE_TYPES_PCL_H_
