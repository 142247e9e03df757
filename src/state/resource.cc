#include "pstate/state/resource.h"

#include <array>
#include <utility>

#include "pstate/json/pointer.h"
#include "pstate/state/schema.h"

namespace pstate::state {

const json::Value* ResourceOf(const Leaf& leaf) {
  if (leaf.role == Role::kResource) return &leaf.value;
  if (leaf.role == Role::kPendingOperation && leaf.value.is_object()) {
    const json::Value* r = leaf.value.Find("resource");
    return r != nullptr && r->is_object() ? r : nullptr;
  }
  return nullptr;
}

std::string ResourcePointer(const Leaf& leaf) {
  std::string pointer(leaf.pointer);
  if (leaf.role == Role::kPendingOperation) {
    json::AppendPointerToken(&pointer, "resource");
  } else if (leaf.role != Role::kResource) {
    pointer.clear();
  }
  return pointer;
}

ResourceView ResourceView::Of(const json::Value& resource) {
  ResourceView view;
  view.object = &resource;
  if (!resource.is_object()) return view;
  // ResourceV3 is a Go struct: keys match its fields as encoding/json
  // matches them (exact, then case-insensitive); the last match wins.
  const std::array<std::pair<std::string_view, const json::Value**>, 20> slots =
      {{{"urn", &view.urn},
        {"custom", &view.custom},
        {"delete", &view.del},
        {"id", &view.id},
        {"type", &view.type},
        {"inputs", &view.inputs},
        {"outputs", &view.outputs},
        {"parent", &view.parent},
        {"protect", &view.protect},
        {"taint", &view.taint},
        {"external", &view.external},
        {"dependencies", &view.dependencies},
        {"provider", &view.provider},
        {"propertyDependencies", &view.property_dependencies},
        {"pendingReplacement", &view.pending_replacement},
        {"aliases", &view.aliases},
        {"retainOnDelete", &view.retain_on_delete},
        {"deletedWith", &view.deleted_with},
        {"replaceWith", &view.replace_with},
        {"viewOf", &view.view_of}}};
  for (const json::Member& m : resource.object()) {
    std::string decoded;
    std::string_view key = m.key.raw();
    if (m.key.has_escapes) {
      decoded = m.key.Str();
      key = decoded;
    }
    std::string_view field = MatchField(key, kResourceFields);
    if (field.empty()) continue;
    for (const auto& [name, slot] : slots) {
      if (field == name) {
        *slot = &m.value;  // later duplicates overwrite: the last wins
        break;
      }
    }
  }
  return view;
}

}  // namespace pstate::state
