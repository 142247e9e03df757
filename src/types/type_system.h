// The interface every type language implements (docs/types.md).
//
// A language parses a type written in its own syntax once (types are cached
// by the caller, so a type shared by many values is parsed once) and then
// checks state-JSON values against it. Values are the json::Value trees the
// reader builds: property values exactly as Pulumi stores them, signatures
// included (see state_value.h for the shared decoding every language uses).
//
// One result type for all six languages (type-systems.md §0):
//   kOk       the value conforms and comes out unchanged;
//   kConvert  the value is accepted after a conversion that changes it;
//             `converted` holds the result in state-JSON encoding;
//   kError    rejected; `pointer` (RFC 6901, relative to the checked value)
//             says where and `message` says why.
// A message never contains a secret's plaintext: an error inside a secret
// names the place and the kind of problem only.
#ifndef PSTATE_TYPES_TYPE_SYSTEM_H_
#define PSTATE_TYPES_TYPE_SYSTEM_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/result.h"
#include "json/value.h"

namespace pstate::types {

/// The six languages (the API's TypeLanguage, docs/types.md): the formal
/// Pulumi type system (§2), Pulumi package-schema type specs (§3), PCL /
/// HCL2 model types (§4), go-cty types in their JSON type encoding (§5),
/// Terraform type constraints over cty (§6), Puppet 4+ type expressions
/// (§7).
using System = ::pstate::TypeLanguage;

/// "pulumi", "pulumi-schema", "pcl", "cty", "terraform", "puppet".
std::string_view SystemName(System system);
std::optional<System> ParseSystem(std::string_view name);

/// The API's TypeOutcome.
using Outcome = ::pstate::TypeOutcome;

/// "ok", "convert", "error".
std::string_view OutcomeName(Outcome outcome);

/// A value checked against a type: the API's TypeVerdict. Inside the
/// module a kConvert's `converted` is compact state JSON with a converted
/// secret written back as a plaintext secret object; the command masks
/// it before the verdict leaves (typecheck.cc, ForDisplay).
using Verdict = ::pstate::TypeVerdict;

inline Verdict OkVerdict() { return {}; }
inline Verdict ConvertVerdict(std::string converted_json) {
  return {Outcome::kConvert, std::move(converted_json), {}, {}};
}
inline Verdict ErrorVerdict(std::string pointer, std::string message) {
  return {Outcome::kError, {}, std::move(pointer), std::move(message)};
}

/// A parsed type of one language. Immutable and shareable across threads
/// once parsed; each language defines its own subclass.
class Type {
 public:
  virtual ~Type() = default;
};

class TypeSystem {
 public:
  virtual ~TypeSystem() = default;
  virtual System system() const = 0;

  /// Parses a type. `spec` is the case's "type" member: a JSON string for
  /// the textual syntaxes, or JSON for the cty JSON type encoding and for
  /// schema type specs. A type that does not parse is an Errc::kSyntax
  /// Status whose message says where (e.g. "at offset 7 of the type: ...").
  virtual Result<std::shared_ptr<const Type>> Parse(
      const json::Value& spec) const = 0;

  /// Checks `value` against `type` (parsed by this same system). Never
  /// throws; a malformed state encoding is a kError verdict.
  virtual Verdict Check(const Type& type, const json::Value& value) const = 0;
};

}  // namespace pstate::types

#endif  // PSTATE_TYPES_TYPE_SYSTEM_H_
