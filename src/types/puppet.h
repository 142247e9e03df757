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
#include <vector>

#include "base/result.h"
#include "types/type_system.h"

namespace pstate::types {

std::unique_ptr<TypeSystem> MakePuppetSystem();

namespace puppet {

class Regex;

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

class PuppetType final : public Type {
 public:
  Kind kind = Kind::kAny;
  /// The type as written (for messages).
  std::string text;
  /// Array: [T]; Hash: [K, V]; Tuple and Variant: the members; Optional,
  /// NotUndef and Sensitive: [T] (empty: Any); Callable: parameter types.
  std::vector<TypePtr> elements;
  std::vector<StructMember> members;
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
};

/// Parses a type expression. Errors are Errc::kSyntax and say "at offset N
/// of the type: ...".
Result<TypePtr> ParseType(std::string_view text);

/// `assignable?`: every instance of `other` is an instance of `type`
/// (type ⊒ other), as the implementation decides it (§7.4).
bool IsAssignable(const PuppetType& type, const PuppetType& other);

}  // namespace puppet
}  // namespace pstate::types

#endif  // PSTATE_TYPES_PUPPET_H_
