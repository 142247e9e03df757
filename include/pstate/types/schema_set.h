// Loaded Pulumi package schemas, indexed for `$ref` resolution and for
// checking values against their type specs (docs/types.md,
// "pulumi-schema"; Pulumi's pkg/codegen/schema/bind.go for the meaning of
// the schema).
//
// A package is found by its "name" (`#/types/random:index:Foo` is looked
// up in the package named "random"). Its `types`, `resources` and
// `provider` are indexed by token when it is loaded, so lookups are hashed,
// not linear. The set is immutable once loaded and may be shared by many
// checks (and threads).
//
// Besides `pstate typecheck`, the lookups and checks here serve
// `pstate verify --schema`: CheckResource checks a resource's inputs or
// outputs against the resource's property specs and required lists, and
// Check checks one value against one spec; both return the pointer of the
// deepest place that failed.
#ifndef PSTATE_TYPES_SCHEMA_SET_H_
#define PSTATE_TYPES_SCHEMA_SET_H_

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pstate/base/result.h"
#include "pstate/json/value.h"
#include "pstate/types/type_system.h"

namespace pstate::types {

/// One loaded package schema. Values point into `arena`.
struct PackageSchema {
  std::string name;    ///< the schema's "name"
  std::string source;  ///< file name, for messages
  json::Value root;
  /// Token → definition (objectTypeSpec or enumTypeSpec).
  std::unordered_map<std::string, const json::Value*> types;
  /// Token → resourceSpec.
  std::unordered_map<std::string, const json::Value*> resources;
  const json::Value* provider = nullptr;  ///< the "provider" resourceSpec
  std::unique_ptr<json::Arena> arena;
};

/// Which side of a resource is checked.
enum class ResourceSide {
  kInputs,   ///< inputProperties + requiredInputs
  kOutputs,  ///< properties + required
};

class SchemaSet {
 public:
  SchemaSet() = default;
  SchemaSet(const SchemaSet&) = delete;
  SchemaSet& operator=(const SchemaSet&) = delete;

  /// Loads a package schema from `path` (".json", or gzip-compressed:
  /// compression is recognized by the content, see io::OpenInput). Fails
  /// with the file's error, kSyntax for invalid JSON (located), kFormat for
  /// a schema without a string "name", and kInvalidArgument when a package
  /// of that name is already loaded.
  Status LoadFile(const std::string& path);
  /// The same for schema text held in memory.
  Status AddText(std::string_view text, std::string source);

  std::size_t size() const { return packages_.size(); }
  const PackageSchema* FindPackage(std::string_view name) const;
  /// The only package when exactly one is loaded (for a bare #/provider).
  const PackageSchema* OnlyPackage() const;

  /// A type definition / resource by token ("pkg:module:Name"), looked up
  /// in the package the token names. nullptr when absent.
  const json::Value* FindType(std::string_view token) const;
  const json::Value* FindResource(std::string_view token) const;
  /// The provider resourceSpec of `package`.
  const json::Value* FindProvider(std::string_view package) const;

  /// Checks `value` (state JSON) against `spec` (a typeSpec or
  /// propertySpec as JSON) in a required position. `package` resolves a
  /// bare "#/provider" (may be null). Refs that name no loaded type are
  /// errors.
  Verdict Check(const json::Value& spec, const json::Value& value,
                const PackageSchema* package = nullptr) const;

  /// Checks a resource's inputs or outputs object against the schema of
  /// resource `token` (or `pulumi:providers:<pkg>` for a provider):
  /// required properties present and not null, every declared property
  /// that is present against its spec, undeclared keys ignored. kError
  /// with an empty pointer and a message when the resource is unknown.
  Verdict CheckResource(std::string_view token, ResourceSide side,
                        const json::Value& value) const;

 private:
  Status Index(std::unique_ptr<PackageSchema> package);

  std::vector<std::unique_ptr<PackageSchema>> packages_;
  std::unordered_map<std::string, const PackageSchema*> by_name_;
};

}  // namespace pstate::types

#endif  // PSTATE_TYPES_SCHEMA_SET_H_
