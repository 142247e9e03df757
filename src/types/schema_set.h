// Loaded Pulumi package schemas, indexed for `$ref` resolution and for
// checking values against their type specs (docs/types.md,
// "pulumi-schema"; Pulumi's pkg/codegen/schema/bind.go for the meaning of
// the schema).
//
// A package is found by its "name" (`#/types/random:index:Foo` is looked
// up in the package named "random"). Several versions of one package may be
// loaded; a lookup by name alone gives the newest.
//
// Loading reads the file once, front to back: it checks that the whole text
// is JSON and records, for each member of "types", "resources" and
// "functions", only its token and byte range. A definition is parsed the
// first time a lookup asks for it, so the memory a schema costs grows with
// what the checked state uses, not with the schema (the AWS schema is over
// 100 MB). A plain file of 1 MiB or more stays mapped (its pages are handed
// back behind the indexing pass, every 4 MiB, and read again on demand); a
// compressed one is decompressed into a temporary file mapped so; a
// smaller one is held in memory. Counted: PackageSchema::
// parsed_definitions(). The set is immutable once loaded and may be shared
// by many checks and threads: the lazy parse is guarded by a mutex.
//
// Besides `pstate typecheck`, the lookups and checks here serve
// `pstate verify --schema`: CheckResource checks a resource's inputs or
// outputs against the resource's property specs and required lists, and
// Check checks one value against one spec; both return the pointer of the
// deepest place that failed. CheckResourceAll reports every problem of one
// resource at once, for verify's findings.
#ifndef PSTATE_TYPES_SCHEMA_SET_H_
#define PSTATE_TYPES_SCHEMA_SET_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/result.h"
#include "io/input.h"
#include "io/window.h"
#include "json/value.h"
#include "types/type_system.h"

namespace pstate::types {

/// One loaded package schema. Definitions are parsed on first use into
/// memory the package owns; the pointers it returns live as long as it.
class PackageSchema {
 public:
  PackageSchema();
  ~PackageSchema();
  PackageSchema(const PackageSchema&) = delete;
  PackageSchema& operator=(const PackageSchema&) = delete;

  const std::string& name() const { return name_; }        ///< "name"
  const std::string& version() const { return version_; }  ///< "" if none
  const std::string& source() const { return source_; }    ///< file name

  /// The definition of a type (objectTypeSpec or enumTypeSpec) or a
  /// resource by token, parsed on first use; nullptr when absent.
  const json::Value* Type(std::string_view token) const;
  const json::Value* Resource(std::string_view token) const;
  /// The "provider" resourceSpec, or nullptr.
  const json::Value* Provider() const;
  std::size_t type_count() const { return types_.size(); }
  std::size_t resource_count() const { return resources_.size(); }
  /// How many definitions (types, resources, the provider) have been
  /// parsed so far: the work and memory of a check follow this, not the
  /// schema's size (the security review's S8).
  std::size_t parsed_definitions() const;

  /// The declared properties of an object type or of one side of a
  /// resource, indexed by name: built the first time a check asks, kept
  /// for the run (a state checks the same few types over and over).
  struct PropertyIndex {
    struct Entry {
      const json::Member* property = nullptr;  ///< name and propertySpec
      bool required = false;
    };
    std::vector<Entry> entries;  ///< in the schema's order
    /// Decoded name → index in `entries` (the last duplicate wins).
    std::unordered_map<std::string_view, std::uint32_t> by_name;
  };
  /// `properties` is the definition's "properties"/"inputProperties"
  /// member (may be null), `required` its required list (may be null).
  /// Both must belong to this package's definitions.
  const PropertyIndex& Properties(const json::Value* properties,
                                  const json::Value* required) const;
  /// Builds an index without keeping it (names with escapes are decoded
  /// into `arena`).
  static void BuildIndex(const json::Value* properties,
                         const json::Value* required, json::Arena& arena,
                         PropertyIndex* index);

  /// Line and column of a byte offset of the schema text (for findings
  /// about the schema file itself: offsets of its definitions' values are
  /// offsets into the file).
  io::LineColumn Locate(std::uint64_t offset) const;

 private:
  friend class SchemaSet;
  struct Range {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    /// Set once parsed (under mu_); null until then, or when the range
    /// could not be parsed again (the mapped file changed).
    mutable const json::Value* parsed = nullptr;
    mutable bool tried = false;
  };

 public:
  /// One definition of `types` or `resources`: the hash of its token and
  /// where its value is. An index is sorted by hash and holds 24 bytes per
  /// definition; a match is confirmed by reading the token back from the
  /// text, just before the value (KeyBefore), and what was looked up is
  /// kept in `looked_up_`, so memory follows the definitions a state uses.
  struct Entry {
    std::uint64_t hash = 0;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
  };
  using Index = std::vector<Entry>;

  /// Sorts `index` and keeps, of definitions with one token, the last
  /// (Go's decoder keeps the last duplicate key).
  void SortIndex(Index* index) const;
  /// The token of `text`'s member whose value starts at `value_offset`.
  static std::optional<std::string> KeyBefore(std::string_view text,
                                              std::uint64_t value_offset);
  static std::uint64_t HashToken(std::string_view token);

 private:
  const json::Value* Lookup(const Index& index, std::string_view token) const;
  const json::Value* ParseRange(const Range& range) const;

  std::string name_;
  std::string version_;
  std::string source_;
  /// The text: a view of `owned_` or of `input_`'s mapping, followed by
  /// json::kParserPadding readable bytes.
  std::string_view text_;
  std::string owned_;
  std::unique_ptr<io::InputStream> input_;  ///< keeps a mapping alive
  Index types_;
  Index resources_;
  Range provider_;
  bool has_provider_ = false;
  mutable std::mutex mu_;
  mutable std::unique_ptr<json::Arena> arena_;
  mutable std::unordered_map<const json::Value*, std::unique_ptr<PropertyIndex>>
      indexes_;
  mutable std::unordered_map<std::uint64_t, Range> looked_up_;  ///< by begin
  mutable std::size_t parsed_ = 0;  ///< definitions parsed (under mu_)
};

/// Which side of a resource is checked.
enum class ResourceSide {
  kInputs,   ///< inputProperties + requiredInputs
  kOutputs,  ///< properties + required
};

/// One problem CheckResourceAll found in a resource's inputs or outputs.
struct SchemaIssue {
  enum class Kind {
    kType,             ///< a value does not fit its type
    kRequired,         ///< a required property is absent or null
    kUnknownProperty,  ///< a key the object type does not declare
    kSecretPlaintext,  ///< a `secret: true` property stored in plaintext
    kDanglingRef,      ///< a `$ref` of the schema that points nowhere
  };
  Kind kind = Kind::kType;
  /// RFC 6901 pointer inside the checked value: the failing value, or the
  /// object that lacks a required property. Keys inside a secret are "*".
  std::string pointer;
  /// Absolute offset of that value as the caller's tree has it; inside a
  /// secret's plaintext, the offset of the outermost secret object.
  std::uint64_t offset = 0;
  /// Why; never quotes a secret's plaintext.
  std::string message;
  /// Where the failing type is in the schema, as a `$ref`-style pointer:
  /// "#/resources/<token>/inputProperties/length",
  /// "#/types/<token>/properties/host/items".
  std::string schema_location;
  /// kDanglingRef: the package whose schema holds the ref, the ref text,
  /// and the ref's offset in that schema's text (see PackageSchema::Locate).
  const PackageSchema* package = nullptr;
  std::string ref;
  std::uint64_t schema_offset = 0;
};

/// What CheckResourceAll reports besides type errors.
struct CheckOptions {
  /// Report keys an object type does not declare (kUnknownProperty). Keys
  /// Pulumi adds itself (`__meta`, `__defaults`) are never reported.
  bool unknown_properties = true;
  /// Report `secret: true` properties stored in plaintext.
  bool secret_plaintext = true;
  /// Report type, required and dangling-ref problems (false: only the
  /// two kinds above, as `pstate scan --schema` wants).
  bool types = true;
  /// Top-level keys of the checked object that are never unknown (e.g.
  /// "id" of outputs, "version" of a provider's inputs).
  std::vector<std::string_view> exempt_top_level;
};

class SchemaSet;

/// What checks against one SchemaSet keep from one call to the next: each
/// spec compiled once (its kind, flags and resolved `$ref`s, see
/// pulumi_schema.cc), each object type's properties indexed with their
/// compiled specs, the checker's buffers. Memory grows with the types the
/// checked values use. Not thread-safe: one cache per checking thread; the
/// set must outlive it.
class SchemaCache {
 public:
  explicit SchemaCache(const SchemaSet& set);
  ~SchemaCache();
  SchemaCache(const SchemaCache&) = delete;
  SchemaCache& operator=(const SchemaCache&) = delete;

  struct Impl;
  struct Checker;

 private:
  friend class SchemaSet;
  std::unique_ptr<Impl> impl_;
  std::unique_ptr<Checker> checker_;
};

class SchemaSet {
 public:
  SchemaSet() = default;
  SchemaSet(const SchemaSet&) = delete;
  SchemaSet& operator=(const SchemaSet&) = delete;

  /// Loads a package schema from `path` (".json", or gzip-compressed:
  /// compression is recognized by the content, see io::OpenInput). Fails
  /// with the file's error, kSyntax for invalid JSON and kFormat for a
  /// JSON document that is not a package schema (no string "name", or
  /// "types"/"resources" that are not objects), both located as
  /// "<file>:<line>:<column>: ...", and kInvalidArgument when the same
  /// version of that package is already loaded.
  Status LoadFile(const std::string& path);
  /// The same for schema text held in memory.
  Status AddText(std::string_view text, std::string source);

  /// Packages loaded (every version counts).
  std::size_t size() const { return packages_.size(); }
  /// The newest loaded version of package `name`, or nullptr.
  const PackageSchema* FindPackage(std::string_view name) const;
  /// The loaded version of `name` equal to `version`, else the newest;
  /// nullptr when none is loaded. `*exact` says which it was.
  const PackageSchema* FindPackage(std::string_view name,
                                   std::string_view version, bool* exact) const;
  /// Every loaded version of `name`, newest first.
  std::vector<const PackageSchema*> Versions(std::string_view name) const;
  /// The only package when exactly one is loaded (for a bare #/provider).
  const PackageSchema* OnlyPackage() const;

  /// A type definition / resource by token ("pkg:module:Name"), looked up
  /// in the newest version of the package the token names. nullptr when
  /// absent.
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

  /// Checks `value` (a resource's inputs or outputs) against `def` (a
  /// resourceSpec of `package`: a resource's, or the provider's), and
  /// returns every problem, each at its deepest place: all failing
  /// properties, all failing elements. `token` names the resource in
  /// schema locations ("pulumi:providers:<pkg>" for the provider).
  /// A `$ref` that points nowhere makes the values of that type pass and
  /// is reported as kDanglingRef. Values inside secrets are checked
  /// through their plaintext; ciphertext-only secrets and the unknown
  /// value pass, and so do signature objects Pulumi would refuse to read
  /// (a secret whose plaintext is not JSON, ...: verify's own findings).
  std::vector<SchemaIssue> CheckResourceAll(const PackageSchema& package,
                                            const json::Value& def,
                                            std::string_view token,
                                            ResourceSide side,
                                            const json::Value& value,
                                            const CheckOptions& options) const;
  /// The same, with the compiled specs and buffers of `cache` (made for
  /// this set) reused across calls, and the issues appended to `*issues`:
  /// what `verify --schema` calls for each resource. A resource's check
  /// then builds no string unless it finds a problem.
  void CheckResourceAll(const PackageSchema& package, const json::Value& def,
                        std::string_view token, ResourceSide side,
                        const json::Value& value, const CheckOptions& options,
                        SchemaCache& cache,
                        std::vector<SchemaIssue>* issues) const;

 private:
  Status Add(std::unique_ptr<PackageSchema> package);

  std::vector<std::unique_ptr<PackageSchema>> packages_;
  /// Name → versions, newest first.
  std::unordered_map<std::string, std::vector<const PackageSchema*>> by_name_;
};

/// Orders version strings as semver does (numeric major.minor.patch, a
/// release above its pre-releases, dot-separated pre-release identifiers
/// compared numerically or lexically); text that is not semver compares
/// lexically after every version that is. <0, 0 or >0.
int CompareVersions(std::string_view a, std::string_view b);

}  // namespace pstate::types

#endif  // PSTATE_TYPES_SCHEMA_SET_H_
