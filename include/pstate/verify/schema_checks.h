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
// loaded version otherwise, with a note.
//
// Memory: per run, the URN and version of each provider resource and the
// names already reported; nothing per resource.
#ifndef PSTATE_VERIFY_SCHEMA_CHECKS_H_
#define PSTATE_VERIFY_SCHEMA_CHECKS_H_

#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "pstate/state/reader.h"
#include "pstate/types/schema_set.h"

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
  void CheckResource(const json::Value& resource, std::string_view pointer,
                     state::Context& context);
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

  const types::SchemaSet& schemas_;
  SchemaCheckOptions options_;
  /// Provider resource URN → its `version` input ("" when it has none).
  std::unordered_map<std::string, std::string> provider_versions_;
  std::set<std::string> missing_reported_;
  std::set<std::string> version_reported_;
  std::set<std::pair<const types::PackageSchema*, std::string>> refs_reported_;
};

}  // namespace pstate::verify

#endif  // PSTATE_VERIFY_SCHEMA_CHECKS_H_
