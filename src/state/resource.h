// The resource a leaf is about, and a typed view of it.
//
// A resource leaf is a ResourceV3 object; a pending operation holds one
// under "resource". ResourceOf answers "which resource is this leaf?" once
// for every command, and ResourceView finds the fields commands ask for in
// one pass over the members (the last duplicate wins, as Go's decoder has
// it), instead of one linear Find per field.
//
// ResourceView is the one resource record commands consume: the fields
// are pointers into the parsed leaf, so building one copies no text and
// costs one pass over the members (verify and edit build one per resource
// of a 1 GB state). Typed answers (text, flags, references, the parsed
// provider reference) are computed on request from those pointers rather
// than stored, so a command pays only for what it reads.
#ifndef PSTATE_STATE_RESOURCE_H_
#define PSTATE_STATE_RESOURCE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "json/value.h"
#include "state/reader.h"
#include "state/schema.h"
#include "state/urn.h"

namespace pstate::state {

/// The resource object of a resource or pending-operation leaf; nullptr for
/// any other leaf, or when the operation has no object under "resource".
const json::Value* ResourceOf(const Leaf& leaf);

/// The JSON pointer of ResourceOf(leaf) ("" when there is none).
std::string ResourcePointer(const Leaf& leaf);

/// The bool fields of a resource, read as Go reads them (true only for
/// JSON true).
struct ResourceFlags {
  bool custom = false;
  bool del = false;  ///< "delete"
  bool protect = false;
  bool taint = false;
  bool external = false;
  bool pending_replacement = false;
  bool retain_on_delete = false;
};

/// The deployment features a resource's content calls for, in sorted
/// order (a writer lists them so): bit i of ResourceFeatures stands for
/// kResourceFeatureNames[i]. The others ("byteString", and
/// "snippets-prototype" for the deployment's snippets) are not about one
/// resource's fields.
inline constexpr std::array<std::string_view, 7> kResourceFeatureNames = {
    "extensionParameterization",
    "hooks",
    "refreshBeforeUpdate",
    "replaceWith",
    "snippets-prototype",
    "taint",
    "views"};

/// The features `resource` uses, as Pulumi's writer derives them
/// (pkg/resource/stack/deployment.go, ApplyFeatures): refreshBeforeUpdate
/// true, a non-empty viewOf, resourceHooks, replaceWith, extensionRef or
/// snippetID, taint true. Bits of kResourceFeatureNames.
std::uint32_t ResourceFeatures(const json::Value& resource);

/// Pointers to the fields of one resource object (nullptr when absent).
/// Valid as long as the value it views.
struct ResourceView {
  const json::Value* object = nullptr;
  const json::Value* urn = nullptr;
  const json::Value* custom = nullptr;
  const json::Value* del = nullptr;  ///< "delete"
  const json::Value* id = nullptr;
  const json::Value* type = nullptr;
  const json::Value* inputs = nullptr;
  const json::Value* outputs = nullptr;
  const json::Value* parent = nullptr;
  const json::Value* protect = nullptr;
  const json::Value* taint = nullptr;
  const json::Value* external = nullptr;
  const json::Value* dependencies = nullptr;
  const json::Value* provider = nullptr;
  const json::Value* property_dependencies = nullptr;
  const json::Value* pending_replacement = nullptr;
  const json::Value* aliases = nullptr;
  const json::Value* retain_on_delete = nullptr;
  const json::Value* deleted_with = nullptr;
  const json::Value* replace_with = nullptr;
  const json::Value* view_of = nullptr;
  const json::Value* replacement_trigger = nullptr;
  const json::Value* created = nullptr;
  const json::Value* modified = nullptr;
  const json::Value* custom_timeouts = nullptr;
  /// The end of the resource's bytes in the input, [object->offset, end),
  /// when it was viewed from a resource leaf; 0 otherwise (a pending
  /// operation's resource, or a value viewed on its own).
  std::uint64_t end = 0;

  /// Views `resource` (a non-object gives a view with every field null).
  static ResourceView Of(const json::Value& resource);
  /// The ResourceV3 field the key of `m` names (MatchField over
  /// kResourceFields: exact, then case-insensitive), "" when none; a key
  /// with escapes is decoded into `scratch`.
  static std::string_view FieldOf(const json::Member& m, std::string* scratch);
  /// The member of `resource` that Go decodes into its ResourceV3 field
  /// `field` (a kResourceFields name, also one ResourceView has no slot
  /// for): keys matched as MatchField matches them, the last match wins;
  /// nullptr when none (or `resource` is not an object).
  static const json::Value* Field(const json::Value& resource,
                                  std::string_view field);
  /// Views the resource of a resource or pending-operation leaf
  /// (ResourceOf); nullopt for any other leaf.
  static std::optional<ResourceView> Of(const Leaf& leaf);

  /// The field of a reference kind (nullptr for RefKind::kProperty).
  const json::Value* Reference(RefKind kind) const;
  ResourceFlags Flags() const;

  /// The text of a string field without copying it when it has no escapes
  /// (a view into the leaf), else decoded into `scratch`; "" when absent
  /// or not a string.
  static std::string_view View(const json::Value* field, std::string* scratch);

  /// The provider reference, parsed (state/urn.h); nullopt when absent or
  /// "", or malformed (`why` set when given). Views into `scratch` or the
  /// leaf, as View.
  std::optional<ProviderReference> ProviderRef(
      std::string* scratch, std::string_view* why = nullptr) const;

  /// The decoded URN, type or ID ("" when absent or not a string).
  std::string Urn() const { return Text(urn); }
  std::string Type() const { return Text(type); }
  std::string Id() const { return Text(id); }
  /// A bool field as Go reads it: true only for JSON true.
  static bool Flag(const json::Value* field) {
    return field != nullptr && field->type == json::Type::kTrue;
  }

 private:
  static std::string Text(const json::Value* v) {
    return v != nullptr && v->is_string() ? v->Str() : std::string();
  }
};

/// One target of a reference field: where ForEachReference found it.
struct ReferenceTarget {
  const ReferenceField& field;
  const json::Value& value;  ///< the target as written (any JSON type)
  /// kUrnListMap: the member (property) whose list holds it; else nullptr.
  const json::Member* group = nullptr;
  /// The position in its list (kUrnList, kUrnListMap); 0 otherwise.
  std::size_t index = 0;
};

/// Calls `fn(const ReferenceTarget&)` on every target of the reference
/// fields of `view`, in kReferenceFields order: the value of a kUrn or
/// kProviderReference field, each element of a kUrnList array, each
/// element of each array member of a kUrnListMap object. A field whose
/// JSON type is not its shape's is skipped; elements are passed whatever
/// their type (skipping "" and non-strings is the caller's policy).
template <typename Fn>
void ForEachReference(const ResourceView& view, Fn&& fn) {
  for (const ReferenceField& field : kReferenceFields) {
    const json::Value* v = view.Reference(field.kind);
    if (v == nullptr) continue;
    switch (field.shape) {
      case RefShape::kUrn:
      case RefShape::kProviderReference:
        if (v->is_string()) fn(ReferenceTarget{field, *v});
        break;
      case RefShape::kUrnList:
        if (v->is_array()) {
          std::size_t i = 0;
          for (const json::Value& e : v->array()) {
            fn(ReferenceTarget{field, e, nullptr, i++});
          }
        }
        break;
      case RefShape::kUrnListMap:
        if (v->is_object()) {
          for (const json::Member& m : v->object()) {
            if (!m.value.is_array()) continue;
            std::size_t i = 0;
            for (const json::Value& e : m.value.array()) {
              fn(ReferenceTarget{field, e, &m, i++});
            }
          }
        }
        break;
    }
  }
}

}  // namespace pstate::state

#endif  // PSTATE_STATE_RESOURCE_H_
