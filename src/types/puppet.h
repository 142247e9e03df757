// The Puppet type language (`--system puppet`): Puppet 4+ type expressions
// (`Integer[0, 10]`, `Array[String, 1]`, `Struct[{name => String,
// Optional[port] => Integer}]`, `Variant[...]`, `Sensitive[String]`, ...)
// checked with the `instance?` rules of Puppet's implementation
// (lib/puppet/pops/types/types.rb), which wins where the language
// specification differs (docs/types.md, "puppet").
//
// A state value is read as Ruby's JSON.parse would: a number token without
// '.', 'e' or 'E' is an Integer (bignums included), any other a Float; a
// secret becomes a Sensitive wrapping its plaintext; assets, archives,
// resource references and the other signature objects are plain Hashes.
// Puppet converts nothing during an instance check, so a check is ok or
// error, never convert. The unknown sentinel is ok for every type (a
// pstate rule; Puppet has no unknowns).
#ifndef PSTATE_TYPES_PUPPET_H_
#define PSTATE_TYPES_PUPPET_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/result.h"
#include "json/value.h"
#include "types/name_index.h"
#include "types/type_system.h"

namespace pstate::types {

std::unique_ptr<TypeSystem> MakePuppetSystem();

namespace puppet {

class Regex;
class RegexBudget;

enum class Kind {
  kAny,
  kUnit,  ///< not nameable (parsing "Unit" gives it the class semantics)
  kUndef,
  kDefault,
  kScalar,
  kScalarData,
  kData,
  kNumeric,
  kInteger,
  kFloat,
  kString,
  kEnum,
  kPattern,
  kBoolean,
  kArray,
  kHash,
  kTuple,
  kStruct,
  kCollection,
  kOptional,
  kNotUndef,
  kVariant,
  kCallable,
  kSensitive,
  kRegexp,
  kRichData,  ///< static_loader.rb's RichData alias, checked directly
  kIterable,
  kInit,
  kAlias,  ///< a type alias, by name (`aliases`)
  // Types whose instances are Ruby objects, never JSON values: they parse,
  // and every value is an error ("expects ..., got ...").
  kType,
  kRuntime,
  kClass,
  kResource,
  kCatalogEntry,
  kIterator,
  kSemVer,
  kSemVerRange,
  kTimespan,
  kTimestamp,
  kBinary,
  kUri,
  kObject,  ///< Object[...], and the Pcore object types Error, Deferred, Task
  kTypeSet,
  kTypeReference,  ///< a name no type or alias has: matches nothing
};

class PuppetType;
using TypePtr = std::shared_ptr<const PuppetType>;

struct StructMember {
  enum class KeyKind { kPlain, kOptional, kNotUndef };
  std::string key;
  KeyKind key_kind = KeyKind::kPlain;
  TypePtr type;
};

struct Pattern {
  std::string source;
  std::shared_ptr<const Regex> regex;
};

/// Type aliases (`type Name = T`), by lower-cased name, as Puppet's
/// loaders find them. Built once with ParseAliases; the types parsed with
/// it keep it alive.
struct Aliases {
  std::unordered_map<std::string, TypePtr> by_name;
  std::unordered_map<std::string, std::string> spelled;  ///< as declared
};
using AliasesPtr = std::shared_ptr<const Aliases>;

class PuppetType final : public Type {
 public:
  Kind kind = Kind::kAny;
  /// The type as written (for messages).
  std::string text;
  /// Array: [T]; Hash: [K, V]; Tuple and Variant: the members; Optional,
  /// NotUndef and Sensitive: [T] (empty: Any); Callable: parameter types.
  std::vector<TypePtr> elements;
  std::vector<StructMember> members;
  /// Struct: each member's key → its index in `members`.
  NameIndex member_index;
  /// Integer, Float, Numeric: inclusive bounds as JSON number texts
  /// (nullopt: open).
  std::optional<std::string> from;
  std::optional<std::string> to;
  /// String, Array, Hash, Tuple, Collection: the size range (max nullopt:
  /// unbounded). For Tuple, `has_size` says whether it was given.
  std::int64_t min_size = 0;
  std::optional<std::int64_t> max_size;
  bool has_size = false;
  /// String with one exact value (Optional['abc'], NotUndef['abc']).
  std::optional<std::string> value;
  std::vector<std::string> enum_values;
  bool case_insensitive = false;
  std::vector<Pattern> patterns;
  std::optional<bool> boolean;
  /// Init[T, args]: what T's `new` accepts besides a T (p_init_type.rb
  /// assert_initialized): the first parameter types of its one-argument
  /// signatures (`init_single`), and its other signatures as Tuples
  /// (`init_other`); `init_optional_single` when one of those takes a
  /// single argument too, so a value is also tried as [value].
  std::vector<TypePtr> init_single;
  std::vector<TypePtr> init_other;
  bool init_optional_single = false;
  /// Runtime, Class, Resource, URI, SemVer, Timespan, Timestamp, Object
  /// and TypeSet: the parameters in canonical spelling, which printing and
  /// assignability use (Timespan and Timestamp numeric bounds are also in
  /// `from`/`to`; an Object's `parent` is `elements[0]`, its name `value`).
  std::vector<std::string> params;
  /// kAlias: the alias's lower-cased name in `aliases`. A type parsed with
  /// aliases keeps them alive (`aliases` is set on every node that can
  /// reach one).
  std::string alias;
  const Aliases* alias_table = nullptr;
  AliasesPtr aliases;
};

/// Parses a type expression. Errors are Errc::kSyntax and say "at offset N
/// of the type: ...". Names that are neither Puppet's types nor in
/// `aliases` are type references, which no value matches (type_parser.rb
/// interpret_QualifiedReference).
Result<TypePtr> ParseType(std::string_view text,
                          const AliasesPtr& aliases = nullptr);

/// Reads type alias definitions, each `type Name = T` or `Name = T`
/// (several may share a text, one after the other, as in a .pp file;
/// `#` comments to the end of a line). Aliases may refer to each other and
/// to themselves through a container (Array, Hash, Struct, Tuple,
/// Iterable, Sensitive, ...); an alias that reaches itself otherwise
/// (`type A = Variant[A, String]`) is an error, as Puppet cannot resolve
/// it. Errors are Errc::kSyntax: "in the alias NAME: ...".
Result<AliasesPtr> ParseAliases(const std::vector<std::string>& definitions);

/// The puppet language with those aliases (MakePuppetSystem has none).
std::unique_ptr<TypeSystem> MakePuppetSystemWith(AliasesPtr aliases);

/// Checks `value` against `type` as the puppet TypeSystem does, drawing
/// every pattern match on `budget`, which then tells the work they took.
Verdict Check(const PuppetType& type, const json::Value& value,
              RegexBudget& budget);

/// `assignable?`: every instance of `other` is an instance of `type`
/// (type ⊒ other), as the implementation decides it (§7.4).
bool IsAssignable(const PuppetType& type, const PuppetType& other);

/// type_calculator.rb infer: the type of a value, as Puppet infers it
/// (Integer[n, n], Float[f, f], String with its value, Boolean[b], Undef,
/// Array[common element type, n, n], Hash[common key type, common value
/// type, n, n], Sensitive[T]); the unknown sentinel is Unit (it fits every
/// type, a pstate rule). `arena` receives secrets' plaintexts.
TypePtr Infer(const json::Value& value, json::Arena& arena);

/// type_calculator.rb reduce_type: the common type of types added one by
/// one (common_type), in time linear in the number of strings added.
class CommonType {
 public:
  void Add(TypePtr type);
  /// Null when nothing was added.
  const TypePtr& result() const { return common_; }

 private:
  TypePtr common_;
  /// common_ while it is an Enum this reduction grows in place.
  std::shared_ptr<PuppetType> growing_;
  std::unordered_set<std::string> seen_;
};

}  // namespace puppet
}  // namespace pstate::types

#endif  // PSTATE_TYPES_PUPPET_H_
