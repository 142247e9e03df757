// The resource a leaf is about, and a typed view of it.
//
// A resource leaf is a ResourceV3 object; a pending operation holds one
// under "resource". ResourceOf answers "which resource is this leaf?" once
// for every command, and ResourceView finds the fields commands ask for in
// one pass over the members (the last duplicate wins, as Go's decoder has
// it), instead of one linear Find per field.
#ifndef PSTATE_STATE_RESOURCE_H_
#define PSTATE_STATE_RESOURCE_H_

#include <string>
#include <string_view>

#include "pstate/json/value.h"
#include "pstate/state/reader.h"

namespace pstate::state {

/// The resource object of a resource or pending-operation leaf; nullptr for
/// any other leaf, or when the operation has no object under "resource".
const json::Value* ResourceOf(const Leaf& leaf);

/// The JSON pointer of ResourceOf(leaf) ("" when there is none).
std::string ResourcePointer(const Leaf& leaf);

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

  /// Views `resource` (a non-object gives a view with every field null).
  static ResourceView Of(const json::Value& resource);

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

}  // namespace pstate::state

#endif  // PSTATE_STATE_RESOURCE_H_
