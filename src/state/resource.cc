#include "state/resource.h"

#include <array>
#include <utility>

#include "json/pointer.h"
#include "state/schema.h"

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
  const std::array<std::pair<std::string_view, const json::Value**>, 24> slots =
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
        {"viewOf", &view.view_of},
        {"replacementTrigger", &view.replacement_trigger},
        {"created", &view.created},
        {"modified", &view.modified},
        {"customTimeouts", &view.custom_timeouts}}};
  std::string decoded;
  for (const json::Member& m : resource.object()) {
    std::string_view field = FieldOf(m, &decoded);
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

const json::Value* ResourceView::Field(const json::Value& resource,
                                       std::string_view field) {
  if (!resource.is_object()) return nullptr;
  const json::Value* found = nullptr;
  std::string decoded;
  for (const json::Member& m : resource.object()) {
    if (FieldOf(m, &decoded) == field) found = &m.value;
  }
  return found;
}

std::string_view ResourceView::FieldOf(const json::Member& m,
                                       std::string* scratch) {
  std::string_view key = m.key.raw();
  if (m.key.has_escapes) {
    *scratch = m.key.Str();
    key = *scratch;
  }
  return MatchField(key, kResourceFields);
}

std::optional<ResourceView> ResourceView::Of(const Leaf& leaf) {
  const json::Value* resource = ResourceOf(leaf);
  if (resource == nullptr) return std::nullopt;
  ResourceView view = Of(*resource);
  if (leaf.role == Role::kResource) view.end = leaf.end_offset;
  return view;
}

const json::Value* ResourceView::Reference(RefKind kind) const {
  switch (kind) {
    case RefKind::kParent: return parent;
    case RefKind::kDependency: return dependencies;
    case RefKind::kPropertyDependency: return property_dependencies;
    case RefKind::kDeletedWith: return deleted_with;
    case RefKind::kReplaceWith: return replace_with;
    case RefKind::kProvider: return provider;
    case RefKind::kAlias: return aliases;
    case RefKind::kViewOf: return view_of;
    case RefKind::kProperty: return nullptr;
  }
  return nullptr;
}

std::uint32_t ResourceFeatures(const json::Value& r) {
  if (!r.is_object()) return 0;
  auto bit = [](std::string_view name) {
    for (std::size_t i = 0; i < kResourceFeatureNames.size(); ++i) {
      if (kResourceFeatureNames[i] == name) return std::uint32_t{1} << i;
    }
    return std::uint32_t{0};
  };
  // Keys match fields as Go's decoder matches them; the last one wins.
  auto find = [&](std::string_view field) {
    const json::Value* found = nullptr;
    std::string key;
    for (const json::Member& m : r.object()) {
      key = m.key.Str();
      if (MatchField(key, kResourceFields) == field) found = &m.value;
    }
    return found;
  };
  auto is_true = [&](std::string_view key) {
    const json::Value* f = find(key);
    return f != nullptr && f->type == json::Type::kTrue;
  };
  auto non_empty = [&](std::string_view key) {
    const json::Value* f = find(key);
    return f != nullptr &&
           (f->is_string() || f->is_array() || f->is_object()) && f->size > 0;
  };
  std::uint32_t out = 0;
  if (is_true("refreshBeforeUpdate")) out |= bit("refreshBeforeUpdate");
  if (non_empty("viewOf")) out |= bit("views");
  if (non_empty("resourceHooks")) out |= bit("hooks");
  if (is_true("taint")) out |= bit("taint");
  if (non_empty("replaceWith")) out |= bit("replaceWith");
  if (non_empty("extensionRef")) out |= bit("extensionParameterization");
  if (non_empty("snippetID")) out |= bit("snippets-prototype");
  return out;
}

ResourceFlags ResourceView::Flags() const {
  ResourceFlags f;
  f.custom = Flag(custom);
  f.del = Flag(del);
  f.protect = Flag(protect);
  f.taint = Flag(taint);
  f.external = Flag(external);
  f.pending_replacement = Flag(pending_replacement);
  f.retain_on_delete = Flag(retain_on_delete);
  return f;
}

std::string_view ResourceView::View(const json::Value* field,
                                    std::string* scratch) {
  if (field == nullptr || !field->is_string()) return {};
  if (!field->has_escapes) return field->raw();
  *scratch = field->Str();
  return *scratch;
}

std::optional<ProviderReference> ResourceView::ProviderRef(
    std::string* scratch, std::string_view* why) const {
  std::string_view text = View(provider, scratch);
  if (text.empty()) return std::nullopt;
  std::string_view ignored;
  return ParseProviderReference(text, why != nullptr ? why : &ignored);
}

}  // namespace pstate::state
