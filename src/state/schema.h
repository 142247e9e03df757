// Pulumi's state structs as data: one table per Go struct of
// sdk/go/common/apitype/core.go (and plugins.go, snippets, extensions),
// each field with its JSON kind and whether Go omits it when empty
// (`json:",omitempty"`), in Go's declaration order, which is the order
// encoding/json writes them in.
//
// One table for one fact: verify checks objects against these tables, the
// reader matches envelope keys with them, and writers (normalize, convert,
// edits) write members in their order and drop omitempty fields as Go does.
#ifndef PSTATE_STATE_SCHEMA_H_
#define PSTATE_STATE_SCHEMA_H_

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace pstate::state {

/// The JSON a Go field's type produces (JSON null is Go's zero value for
/// slices, maps and pointers, and accepted for every kind).
enum class FieldKind : std::uint8_t {
  kString,
  kBool,
  kNumber,
  kObject,
  kArray,
  kStringArray,  ///< []string
  kAny,          ///< raw JSON or interface{}
};

/// What a field's value may reveal. metadata.integrity_error records the
/// CLI's environment and argv, which hold credentials in plaintext (the
/// DIY backend never encrypts them): every command that shows or keeps
/// such a field (diff, verify, redact) follows this, and only this.
enum class Exposure : std::uint8_t {
  kPlain,        ///< ordinary data
  kValues,       ///< an object whose every value is secret; names are not
  kCommandLine,  ///< argv: only CommandHead() may be shown
};

struct Field {
  std::string_view name;
  FieldKind kind;
  /// Go drops the member when it is false, 0, "", empty or nil.
  bool omitempty = true;
  Exposure exposure = Exposure::kPlain;
};

using K = FieldKind;

/// ResourceV3 (deployment versions 3 and 4), in output order. The last
/// entry, `defaults`, exists only in ResourceV1 (version 1 states).
inline constexpr std::array<Field, 37> kResourceFields = {{
    {"urn", K::kString, false},
    {"custom", K::kBool, false},
    {"delete", K::kBool},
    {"id", K::kString},
    {"type", K::kString, false},
    {"inputs", K::kObject},
    {"outputs", K::kObject},
    {"parent", K::kString},
    {"protect", K::kBool},
    {"taint", K::kBool},
    {"external", K::kBool},
    {"dependencies", K::kStringArray},
    {"initErrors", K::kStringArray},
    {"provider", K::kString},
    {"propertyDependencies", K::kObject},
    {"pendingReplacement", K::kBool},
    {"additionalSecretOutputs", K::kStringArray},
    {"aliases", K::kStringArray},
    {"customTimeouts", K::kObject},
    {"importID", K::kString},
    {"retainOnDelete", K::kBool},
    {"deletedWith", K::kString},
    {"replaceWith", K::kStringArray},
    {"created", K::kString},
    {"modified", K::kString},
    {"sourcePosition", K::kString},
    {"stackTrace", K::kArray},
    {"ignoreChanges", K::kStringArray},
    {"hideDiff", K::kArray},
    {"replaceOnChanges", K::kStringArray},
    {"replacementTrigger", K::kAny},
    {"refreshBeforeUpdate", K::kBool},
    {"viewOf", K::kString},
    {"resourceHooks", K::kObject},
    {"extensionRef", K::kString},
    {"snippetID", K::kString},
    {"defaults", K::kObject},
}};

/// ResourceV1 (deployment versions 1 and unversioned checkpoints), in
/// output order: `defaults` sits between inputs and outputs, and
/// `dependencies` and `initErrors` are not omitempty (Go writes null).
/// ResourceV2 is kResourceFields up to `provider` (no propertyDependencies
/// and later fields), all omitempty but urn, custom and type.
inline constexpr std::array<Field, 12> kResourceV1Fields = {{
    {"urn", K::kString, false},
    {"custom", K::kBool, false},
    {"delete", K::kBool},
    {"id", K::kString},
    {"type", K::kString, false},
    {"inputs", K::kObject},
    {"defaults", K::kObject},
    {"outputs", K::kObject},
    {"parent", K::kString},
    {"protect", K::kBool},
    {"dependencies", K::kStringArray, false},
    {"initErrors", K::kStringArray, false},
}};

/// One element of a resource's `stackTrace` (StackFrameV1).
inline constexpr std::array<Field, 1> kStackFrameFields = {
    {{"sourcePosition", K::kString}}};

/// A package descriptor's `parameterization` (PackageParameterizationV1);
/// `value` is []byte, so base64 text.
inline constexpr std::array<Field, 3> kParameterizationFields = {
    {{"name", K::kString}, {"version", K::kString}, {"value", K::kString}}};

/// CustomTimeouts (sdk/go/common/resource/custom_timeouts.go): seconds.
inline constexpr std::array<Field, 4> kCustomTimeoutsFields = {
    {{"create", K::kNumber},
     {"update", K::kNumber},
     {"delete", K::kNumber},
     {"read", K::kNumber}}};

/// OperationV2: a pending operation.
inline constexpr std::array<Field, 2> kOperationFields = {
    {{"resource", K::kObject, false}, {"type", K::kString, false}}};

/// DeploymentV3. `metadata` is a struct value: Go writes it even if empty.
inline constexpr std::array<Field, 7> kDeploymentFields = {{
    {"manifest", K::kObject, false},
    {"secrets_providers", K::kObject},
    {"resources", K::kArray},
    {"pending_operations", K::kArray},
    {"metadata", K::kObject, false},
    {"snippets", K::kArray},
    {"extensions", K::kObject},
}};

/// UntypedDeployment: the `pulumi stack export` envelope.
inline constexpr std::array<Field, 3> kExportFields = {{
    {"version", K::kNumber},
    {"features", K::kStringArray},
    {"deployment", K::kObject},
}};

/// VersionedCheckpoint: the file-backend envelope.
inline constexpr std::array<Field, 3> kVersionedCheckpointFields = {{
    {"version", K::kNumber, false},
    {"features", K::kStringArray},
    {"checkpoint", K::kObject, false},
}};

/// CheckpointV3 (and the unversioned CheckpointV1 at the top level).
inline constexpr std::array<Field, 3> kCheckpointFields = {{
    {"stack", K::kString, false},
    {"config", K::kObject},
    {"latest", K::kObject},
}};

/// ManifestV1.
inline constexpr std::array<Field, 4> kManifestFields = {
    {{"time", K::kString, false},
     {"magic", K::kString, false},
     {"version", K::kString, false},
     {"plugins", K::kArray}}};

/// PluginInfoV1 (sdk/go/common/apitype/plugins.go).
inline constexpr std::array<Field, 4> kPluginFields = {
    {{"name", K::kString, false},
     {"path", K::kString, false},
     {"type", K::kString, false},
     {"version", K::kString, false}}};

/// SecretsProvidersV1.
inline constexpr std::array<Field, 2> kSecretsProviderFields = {
    {{"type", K::kString, false}, {"state", K::kAny}}};

/// SnapshotMetadataV1.
inline constexpr std::array<Field, 1> kMetadataFields = {
    {{"integrity_error", K::kObject}}};

/// SnapshotIntegrityErrorMetadataV1.
inline constexpr std::array<Field, 4> kIntegrityErrorFields = {
    {{"version", K::kString},
     {"command", K::kString, true, Exposure::kCommandLine},
     {"error", K::kString},
     {"env_vars", K::kObject, true, Exposure::kValues}}};

/// SnippetV1.
inline constexpr std::array<Field, 6> kSnippetFields = {
    {{"uuid", K::kString},
     {"name", K::kString},
     {"type", K::kString},
     {"code", K::kString},
     {"descriptor", K::kObject},
     {"references", K::kObject}}};

/// PackageDescriptorV1 (a snippet's descriptor).
inline constexpr std::array<Field, 4> kDescriptorFields = {
    {{"name", K::kString},
     {"version", K::kString},
     {"downloadURL", K::kString},
     {"parameterization", K::kObject}}};

/// ExtensionV1 (one member of `extensions`).
inline constexpr std::array<Field, 3> kExtensionFields = {
    {{"name", K::kString}, {"version", K::kString}, {"value", K::kString}}};

/// The ways one resource refers to another. The first eight are the
/// resource fields of kReferenceFields, in its order; kProperty is a
/// resource reference value (state/signature.h) inside inputs, outputs or
/// replacementTrigger, which is a property value, not a field.
enum class RefKind : std::uint8_t {
  kParent,
  kDependency,
  kPropertyDependency,
  kDeletedWith,
  kReplaceWith,
  kProvider,
  kAlias,
  kViewOf,
  kProperty,
};

/// What a reference field holds.
enum class RefShape : std::uint8_t {
  kUrn,                ///< one URN string
  kUrnList,            ///< []URN
  kUrnListMap,         ///< map[PropertyKey][]URN
  kProviderReference,  ///< one `<provider URN>::<ID>` string
};

/// One resource field that names other resources.
struct ReferenceField {
  RefKind kind;
  std::string_view name;  ///< the JSON field (a kResourceFields entry)
  RefShape shape;
  /// Pulumi's dependency graph follows it: the provider reference and
  /// what State.GetAllDependencies (pkg/resource/state.go) returns. The
  /// snapshot integrity check and `state delete` follow these; aliases and
  /// viewOf are references Pulumi's graph ignores.
  bool dependency;
};

/// Resource fields that name other resources (ResourceV3): what an edit
/// must rewrite, what the integrity check follows, and what a redaction
/// must never touch. Indexed by RefKind (kProperty excepted).
inline constexpr std::array<ReferenceField, 8> kReferenceFields = {{
    {RefKind::kParent, "parent", RefShape::kUrn, true},
    {RefKind::kDependency, "dependencies", RefShape::kUrnList, true},
    {RefKind::kPropertyDependency, "propertyDependencies",
     RefShape::kUrnListMap, true},
    {RefKind::kDeletedWith, "deletedWith", RefShape::kUrn, true},
    {RefKind::kReplaceWith, "replaceWith", RefShape::kUrnList, true},
    {RefKind::kProvider, "provider", RefShape::kProviderReference, true},
    {RefKind::kAlias, "aliases", RefShape::kUrnList, false},
    {RefKind::kViewOf, "viewOf", RefShape::kUrn, false},
}};

/// The field of a reference kind; nullptr for RefKind::kProperty.
constexpr const ReferenceField* ReferenceFieldOf(RefKind kind) {
  auto i = static_cast<std::size_t>(kind);
  return i < kReferenceFields.size() ? &kReferenceFields[i] : nullptr;
}

/// The JSON field a reference of `kind` is in ("parent", "dependencies",
/// ...); "inputs/outputs" for kProperty.
constexpr std::string_view RefKindName(RefKind kind) {
  const ReferenceField* f = ReferenceFieldOf(kind);
  return f != nullptr ? f->name : std::string_view("inputs/outputs");
}

/// The reference field called `name` (exact match), or nullptr.
const ReferenceField* FindReferenceField(std::string_view name);

/// The name of the field of `fields` that `key` names, matched as Go's
/// encoding/json matches a key to a struct field: an exact match first,
/// then case-insensitively (with Go's folding of the Kelvin sign and the
/// long s); "" when none. Property-map keys are not fields: never fold them.
std::string_view MatchField(std::string_view key,
                            std::span<const Field> fields);

/// The field of `fields` called `name` (exact match), or nullptr.
const Field* FindField(std::span<const Field> fields, std::string_view name);

/// The Exposure of the field of `fields` that `key` names (MatchField);
/// kPlain when none does.
Exposure ExposureOf(std::string_view key, std::span<const Field> fields);

/// The part of a command line (Exposure::kCommandLine) that may be shown:
/// at most its first two words (the program and a subcommand, "pulumi up")
/// made only of lower-case ASCII letters, '/', '.', '_' and '-' (not
/// leading), which excludes flags and most values; `rest` says whether
/// anything follows them (then it must be hidden).
struct CommandHead {
  std::string shown;
  bool rest = false;
};
CommandHead SplitCommandLine(std::string_view command);

}  // namespace pstate::state

#endif  // PSTATE_STATE_SCHEMA_H_
