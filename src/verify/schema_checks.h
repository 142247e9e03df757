// `pstate verify --schema`: every resource of a state checked against its
// provider's package schema (issue 11; docs/types.md, "pulumi-schema").
//
// A state handler that runs beside verify's own checks (state::Tee) in the
// same single pass. For each resource whose type's package has a schema it
// asks types::SchemaSet::CheckResourceAll and turns each problem into a
// finding with the property's JSON pointer, the URN, and the schema
// location of the failing type in the message:
//   custom resources   inputs vs inputProperties/requiredInputs,
//                      outputs vs properties/required;
//   provider resources inputs vs the schema's provider inputProperties;
//   components         (custom false) as custom resources, when the
//                      schema declares them (isComponent).
// The version of a package's schema is chosen by the resource's provider:
// the provider resource's `version` input, read when the provider resource
// goes by (providers come before the resources that use them); the newest
// loaded version otherwise, with a note. The resources of pending
// operations (`pending_operations[].resource`) are checked the same way,
// with pointers into pending_operations.
//
// Memory: per run, the URN and version of each provider resource, each
// resource type's package and definition, the compiled specs of the types
// the state uses (types::SchemaCache) and the names already reported;
// nothing per resource. A resource whose values fit builds no string.
#ifndef PSTATE_VERIFY_SCHEMA_CHECKS_H_
#define PSTATE_VERIFY_SCHEMA_CHECKS_H_

#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "state/reader.h"
#include "types/schema_set.h"

namespace pstate::verify {

struct SchemaCheckOptions {
  /// Only schema-secret-plaintext (what `pstate scan --schema` adds): no
  /// type, required, unknown-property, resource or package findings.
  bool secrets_only = false;
};

class SchemaChecks : public state::Handler {
 public:
  /// `schemas` must outlive the handler.
  explicit SchemaChecks(const types::SchemaSet& schemas,
                        SchemaCheckOptions options = {});

  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override;

 private:
  /// `pending`: the resource of a pending operation (its provider is not
  /// recorded, absent outputs are not checked).
  void CheckResource(const json::Value& resource, std::string_view pointer,
                     state::Context& context, bool pending);
  /// The schema of `package` for a resource whose provider reference is
  /// `provider_ref` (or, for a provider resource, whose own version input
  /// is `own_version`); notes a fallback once per package and version.
  const types::PackageSchema* ChooseSchema(
      const std::string& package, const std::string& version,
      bool version_known, std::uint64_t offset, std::string_view pointer,
      const std::string& urn, state::Context& context);
  /// `pointer`: of the checked object (the issue's pointer is inside it).
  void Report(const types::SchemaIssue& issue, types::ResourceSide side,
              std::string_view pointer, const std::string& urn,
              state::Context& context);

  // Lookups by std::string_view in maps keyed by std::string.
  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const {
      return std::hash<std::string_view>{}(s);
    }
  };
  template <typename T>
  using StringMap =
      std::unordered_map<std::string, T, StringHash, std::equal_to<>>;

  /// What a resource type says, worked out once per run.
  struct TypeInfo {
    bool provider = false;  ///< pulumi:providers:<package>
    bool skip = false;      ///< no package, or the engine's own types
    bool has_schema = false;
    std::string package;
    /// The schema chosen for resources of the type without a known
    /// provider; the last schema the definition was looked up in, and it.
    const types::PackageSchema* unversioned = nullptr;
    const types::PackageSchema* def_schema = nullptr;
    const json::Value* def = nullptr;
  };
  /// A provider resource: its `version` input ("" when it has none), and
  /// the schema chosen for the resources of `package` it manages.
  struct ProviderInfo {
    std::string version;
    std::string package;
    const types::PackageSchema* schema = nullptr;
  };

  const types::SchemaSet& schemas_;
  SchemaCheckOptions options_;
  types::CheckOptions options_in_;
  types::CheckOptions options_out_;
  types::CheckOptions provider_options_;
  /// Compiled specs and the checker's buffers, for the whole run.
  types::SchemaCache cache_;
  std::vector<types::SchemaIssue> issues_;
  StringMap<TypeInfo> types_;
  /// Provider resource URN → what it says.
  StringMap<ProviderInfo> provider_versions_;
  std::set<std::string> missing_reported_;
  std::set<std::string> version_reported_;
  std::set<std::pair<const types::PackageSchema*, std::string>> refs_reported_;
};

}  // namespace pstate::verify

#endif  // PSTATE_VERIFY_SCHEMA_CHECKS_H_
