// The cty type language (`--system cty`): go-cty's types, its JSON type
// encoding, its value model and its conversions (zclconf/go-cty, cty/ and
// cty/convert/), as written in docs/types.md. The Terraform language
// (terraform.h) reuses everything here.
//
// A check works in three steps, as go-cty does when it reads JSON:
//   1. the state value becomes a cty value of its *implied* type
//      (cty/json/type_implied.go): string, number (the exact decimal text),
//      bool, object, tuple (arrays), and null of `dynamic`. pstate adds the
//      state layer: the unknown sentinel is `DynamicVal`, a secret is its
//      plaintext value marked sensitive (a ciphertext-only secret is a
//      marked `DynamicVal`), a ±Inf special float is a cty infinity (NaN
//      is an error: cty has none), and every other signature object
//      (assets, archives, references, byte strings) is the plain JSON
//      object it is written as;
//   2. `convert.Convert(value, type)` in unsafe mode (cty/convert/public.go):
//      every rule of cty/convert, with marks carried through conversions
//      and set elements ordered and de-duplicated as cty.SetVal does;
//   3. the result is written back in state-JSON encoding (a marked value is
//      a plaintext secret object); a result that is the input unchanged is
//      kOk (a set counts as unchanged in any order: its order means
//      nothing), anything else kConvert.
//
// Everything lives in one json::Arena per check: types and values are
// trivially copyable nodes pointing into it, so a check costs a few bump
// allocations and no frees.
#ifndef PSTATE_TYPES_CTY_H_
#define PSTATE_TYPES_CTY_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "json/value.h"
#include "types/type_system.h"

namespace pstate::types {

std::unique_ptr<TypeSystem> MakeCtySystem();

namespace cty {

enum class Kind : std::uint8_t {
  kBool,
  kNumber,
  kString,
  kDynamic,  ///< cty.DynamicPseudoType (`any` in Terraform)
  kList,
  kMap,
  kSet,
  kObject,
  kTuple,
};

struct Type;

/// An object attribute. Attributes of an object type are sorted by name
/// (bytewise), so lookups are binary searches and printing is canonical.
struct Attr {
  std::string_view name;
  const Type* type = nullptr;
  bool optional = false;
};

/// A cty type. Immutable once built; children live in the same arena (or
/// are the static primitives below).
struct Type {
  Kind kind = Kind::kDynamic;
  std::uint32_t count = 0;             ///< attributes or tuple elements
  const Type* elem = nullptr;          ///< list, map, set
  const Attr* attrs = nullptr;         ///< object
  const Type* const* elems = nullptr;  ///< tuple

  bool is_primitive() const {
    return kind == Kind::kBool || kind == Kind::kNumber ||
           kind == Kind::kString;
  }
  bool is_collection() const {
    return kind == Kind::kList || kind == Kind::kMap || kind == Kind::kSet;
  }
  std::span<const Attr> attributes() const { return {attrs, count}; }
  std::span<const Type* const> elements() const { return {elems, count}; }
  /// The attribute named `name`, or nullptr.
  const Attr* FindAttr(std::string_view name) const;
  bool HasOptionalAttrsDeep() const;
};

const Type* BoolType();
const Type* NumberType();
const Type* StringType();
const Type* DynamicType();

/// A failed conversion or reading: where (RFC 6901 pointer inside the
/// checked value) and why.
struct Failure {
  std::string pointer;
  std::string message;
};

/// Structural equality, optional-attribute sets included (cty Type.Equals).
bool TypesEqual(const Type* a, const Type* b);
/// Equality after removing optional markers everywhere in `b`
/// (`in.Type().Equals(want.WithoutOptionalAttributesDeep())`).
bool TypesEqualIgnoringOptional(const Type* a, const Type* b);

/// Builds types in an arena.
class TypeBuilder {
 public:
  explicit TypeBuilder(json::Arena& arena) : arena_(arena) {}
  const Type* Collection(Kind kind, const Type* elem);
  /// `attrs` need not be sorted; names are copied into the arena. Duplicate
  /// names: the last one wins (as a Go map does).
  const Type* Object(std::span<const Attr> attrs);
  const Type* Tuple(std::span<const Type* const> elems);
  const Type* WithoutOptionalDeep(const Type* type);
  json::Arena& arena() { return arena_; }

 private:
  json::Arena& arena_;
};

/// Type.TestConformance (cty/type_conform.go): whether `given` is `want`,
/// where `dynamic` inside `want` matches anything. Every difference, with
/// its place as a pointer into the type ("/*" for any collection element):
/// "unsupported attribute", "missing required attribute", "N elements are
/// required, but got M", "T required, but received U". Empty = conforms.
std::vector<Failure> TestConformance(const Type* given, const Type* want);

/// "string", "list of number", "map of object", ... (Type.FriendlyName);
/// `for_constraint` names `dynamic` "any type".
std::string FriendlyName(const Type* type, bool for_constraint = false);

/// The canonical type-constraint spelling used by Terraform's TypeString:
/// `object({a=string,b=optional(number)})`, `tuple([string])`, `any`.
std::string TypeString(const Type* type);

/// Reads the JSON type encoding (cty/json.go Type.UnmarshalJSON):
/// "string", ["list", T], ["object", {...}, ["optional"]], ... An error is
/// Errc::kSyntax and says where: "at /1 of the type: ...".
Result<const Type*> ParseJsonType(const json::Value& spec, TypeBuilder& tb);

enum class State : std::uint8_t { kKnown, kNull, kUnknown };

/// A cty value. `src` is the state JSON this value reads back as when it
/// is unchanged (for a marked value: the secret object); converters keep it
/// only when the result is the same JSON, which is how kOk is told apart
/// from kConvert without comparing trees.
struct Val {
  const Type* type = nullptr;
  State state = State::kKnown;
  bool marked = false;      ///< the "sensitive" mark (a Pulumi secret)
  bool b = false;           ///< kBool
  std::int8_t inf = 0;      ///< kNumber: +1 / -1 for infinities
  std::uint32_t count = 0;  ///< elements or attributes
  /// kString: the decoded UTF-8 text. kNumber: a JSON number text.
  std::string_view str;
  /// list/set/tuple elements; map values (parallel to `keys`); object
  /// attribute values in the order of type->attrs.
  const Val* elems = nullptr;
  const std::string_view* keys = nullptr;  ///< map keys, sorted
  const json::Value* src = nullptr;
  /// For a marked value: the source of the unmarked content.
  const json::Value* inner_src = nullptr;

  bool is_known() const { return state == State::kKnown; }
  bool is_null() const { return state == State::kNull; }
  std::span<const Val> elements() const { return {elems, count}; }
};

/// Converts state JSON to a cty value of its implied type (step 1 above).
/// A malformed signature or a non-UTF-8 key fails with its pointer.
Result<Val> FromState(const json::Value& value, json::Arena& arena,
                      Failure* failure);

/// Conversion engine: go-cty's convert package over values in one arena.
class Converter {
 public:
  explicit Converter(json::Arena& arena) : tb_(arena) {}

  /// convert.Convert(in, want) (unsafe). On failure returns false and
  /// fills `failure` (pointer relative to the checked value).
  bool Convert(const Val& in, const Type* want, Val* out, Failure* failure);

  /// convert.UnifyUnsafe / Unify: the common type, or nullptr (NilType).
  const Type* Unify(std::span<const Type* const> types, bool unsafe);
  /// Whether GetConversion(Unsafe)(in, out) would give a conversion.
  bool HasConversion(const Type* in, const Type* out, bool unsafe);

  TypeBuilder& types() { return tb_; }
  json::Arena& arena() { return tb_.arena(); }

  // Value construction (cty.ListVal, SetVal, ... semantics).
  Val MakeNull(const Type* type) const;
  Val MakeUnknown(const Type* type) const;
  Val MakeString(std::string_view text);
  Val MakeNumber(std::string_view json_text);
  Val MakeBool(bool b) const;
  /// Tuple/object values from parts (object: attrs parallel to values,
  /// unsorted is fine).
  Val MakeTuple(std::span<const Val> elems);
  Val MakeObject(std::span<const std::string_view> names,
                 std::span<const Val> values);

  /// Applies a conversion whose existence the caller established (the
  /// per-element conversions of unification results). `pointer` is where
  /// `in` sits inside the checked value.
  bool ConvertKnownToExist(const Val& in, const Type* want,
                           std::string_view pointer, Val* out,
                           Failure* failure);

 private:
  friend struct ConvImpl;
  TypeBuilder tb_;
  std::string pointer_;   // where the conversion is, inside the value
  int secret_depth_ = 0;  // > 0 inside a marked value: keys are hidden
  Failure* failure_ = nullptr;
};

/// A stable sort that allocates nothing for the small arrays objects
/// usually are (insertion sort up to 16 elements, std::stable_sort above).
template <typename T, typename Less>
void SmallStableSort(T* first, T* last, Less less) {
  if (last - first > 16) {
    std::stable_sort(first, last, less);
    return;
  }
  for (T* i = first + 1; i < last; ++i) {
    T v = *i;
    T* j = i;
    while (j > first && less(v, *(j - 1))) {
      *j = *(j - 1);
      --j;
    }
    *j = v;
  }
}

/// Sorts and de-duplicates set elements as cty.SetVal does (equal values
/// merge; order of set_internals.go setRules.Less). Returns the new count.
std::uint32_t CanonicalizeSet(Val* elems, std::uint32_t count);

/// cty value equality as sets use it (Value.Equals == True): unknowns are
/// never equal, nulls are equal, numbers by exact value.
bool ValuesEqual(const Val& a, const Val& b);

/// Writes `value` as compact state JSON (marked values as plaintext secret
/// objects, unknowns as the sentinel, infinities as special-float
/// signatures). Unchanged parts are copied from their source.
void WriteStateJson(const Val& value, std::string* out);

/// The plain-decimal text go-cty gives a number as a string
/// (big.Float.Text('f', -1)): "1000" for 1e3, "0.0000001" for 1e-7. False
/// when the text would be unreasonably long (|exponent| > 100000).
bool NumberToString(std::string_view json_text, std::string* out);

/// cty.ParseNumberVal(s): Go's big.ParseFloat(s, 10, 512, ToNearestEven)
/// syntax. On success writes an equivalent JSON number text to `json_text`
/// (or sets `*inf` to +1/-1 for "Inf"/"-Inf").
bool ParseNumberString(std::string_view s, std::string* json_text, int* inf);

/// Runs steps 1-3 for one value against `want` and maps the result to a
/// verdict. `prepare`, when set, runs between reading and converting (the
/// Terraform defaults step).
using PrepareFn = bool (*)(const void* ctx, Converter& conv, Val* value,
                           Failure* failure);
Verdict CheckValue(const Type* want, const json::Value& value,
                   json::Arena& arena, PrepareFn prepare = nullptr,
                   const void* prepare_ctx = nullptr);

}  // namespace cty
}  // namespace pstate::types

#endif  // PSTATE_TYPES_CTY_H_
