#include "verify/resource_checker.h"

#include <array>

#include "state/resource.h"
#include "state/urn.h"
#include "verify/fields.h"

namespace pstate::verify {
namespace {

using diag::Code;

using state::kResourceFields;
constexpr const auto& kTimeoutFields = state::kCustomTimeoutsFields;

}  // namespace

ResourceChecker::ResourceChecker() : properties_(env_) {
  env_.on_resource_reference =
      [this](std::string_view urn, std::uint64_t offset, Reporter& reporter) {
        // Inside a secret's plaintext (placed by an offset override) the URN
        // is secret text.
        std::uint64_t at = reporter.offset_override();
        tracker_.Reference(PendingReference::Kind::kResourceReference, urn,
                           /*target_at=*/0, {}, /*in_secret=*/at != 0, reporter,
                           at != 0 ? at : offset);
      };
}

void ResourceChecker::CheckReference(const json::Value& target,
                                     std::string_view field,
                                     Reporter& reporter) {
  if (!target.is_string() || target.size == 0) return;  // Pulumi skips ""
  if (!target.has_escapes) {
    tracker_.Reference(PendingReference::Kind::kDependency, target.raw(),
                       target.verbatim_at(), field, false, reporter,
                       target.offset);
    return;
  }
  tracker_.Reference(PendingReference::Kind::kDependency, target.Str(), 0,
                     field, false, reporter, target.offset);
}

void ResourceChecker::Check(const json::Value& resource, Reporter& reporter,
                            bool integrity, std::int64_t version) {
  if (!resource.is_object()) {
    reporter.Add(Code::kFieldType,
                 "a resource must be an object, found " +
                     std::string(json::TypeName(resource.type)),
                 resource);
    return;
  }
  const state::ResourceView view = state::ResourceView::Of(resource);
  const state::ResourceFlags flags = view.Flags();
  std::string urn_text = view.Urn();
  std::string type = view.Type();
  reporter.set_urn(urn_text, view.urn ? view.urn->verbatim_at() : 0);

  // Field types; "defaults" only exists in version 1 (and unversioned).
  CheckFields(resource,
              std::span(kResourceFields)
                  .first(version <= 1 ? kResourceFields.size()
                                      : kResourceFields.size() - 1),
              reporter, "resource");

  if (urn_text.empty()) {
    reporter.Add(Code::kFieldMissing, "resource has no \"urn\"", resource);
  }
  if (type.empty()) {
    reporter.Add(Code::kFieldMissing, "resource has no \"type\"", resource);
  }

  std::optional<state::Urn> urn;
  if (!urn_text.empty()) {
    urn = state::ParseUrn(urn_text);
    const json::Value& at = *view.urn;
    PointerScope scope(reporter, "urn");
    if (!urn) {
      reporter.Add(
          Code::kUrnMalformed,
          "URN \"" + urn_text +
              "\" is not urn:pulumi:<stack>::<project>::<type>::<name>",
          at);
    } else {
      if (!type.empty() && urn->type() != type) {
        reporter.Add(Code::kUrnTypeMismatch,
                     "URN names type \"" + std::string(urn->type()) +
                         "\" but the resource's type is \"" + type + "\"",
                     at);
      }
      if (std::optional<diag::Finding> mismatch = tracker_.NoteStack(
              urn->stack, urn->project, reporter, at.offset)) {
        reporter.context().ReportUnlocated(std::move(*mismatch));
      }
    }
  }

  std::string id = view.Id();
  if (!flags.custom && !id.empty()) {
    PointerScope scope(reporter, "id");
    reporter.Add(Code::kComponentHasId,
                 "resource has \"custom\": false but a non-empty id", *view.id);
  }

  for (auto [field, t] : {std::pair{"created", view.created},
                          std::pair{"modified", view.modified}}) {
    if (t && t->is_string() && !IsRfc3339(t->raw())) {
      PointerScope scope(reporter, field);
      reporter.Add(
          Code::kFieldValue,
          std::string("\"") + field + "\" is not an RFC 3339 timestamp", *t);
    }
  }
  if (const json::Value* t = view.custom_timeouts; t && t->is_object()) {
    PointerScope scope(reporter, "customTimeouts");
    CheckFields(*t, kTimeoutFields, reporter, "customTimeouts");
  }
  if (const json::Value* deps = view.property_dependencies;
      deps && deps->is_object()) {
    PointerScope scope(reporter, "propertyDependencies");
    for (const json::Member& m : deps->object()) {
      if (!HasFieldType(m.value, FieldType::kStringArray)) {
        PointerScope inner(reporter, m.key);
        reporter.Add(Code::kFieldType,
                     "propertyDependencies values must be arrays of URNs",
                     m.value);
      }
    }
  }

  // Provider resources and references (§4.1 rules 5 and 6).
  if (integrity && state::IsProviderType(type) && urn) {
    if (!state::IsProviderType(urn->type())) {
      PointerScope scope(reporter, "urn");
      reporter.Add(Code::kProviderResourceInvalid,
                   "provider resource's URN does not end in a provider type",
                   *view.urn);
    } else {
      tracker_.AddProvider(state::FormatProviderReference(urn_text, id));
    }
  }
  if (const json::Value* provider = view.provider;
      provider && provider->is_string() && provider->size > 0) {
    PointerScope scope(reporter, "provider");
    std::string text = provider->Str();
    std::string_view why;
    auto ref = state::ParseProviderReference(text, &why);
    if (!ref) {
      reporter.Add(Code::kProviderMalformed,
                   "provider reference \"" + text +
                       "\" is malformed: " + std::string(why),
                   *provider);
    } else if (integrity && !flags.pending_replacement) {
      tracker_.Reference(PendingReference::Kind::kProvider, text,
                         provider->verbatim_at(), "provider", false, reporter,
                         provider->offset);
    }
  }

  // References to other resources (§4.1 rule 7).
  if (const json::Value* parent = view.parent;
      parent && parent->is_string() && parent->size > 0) {
    PointerScope scope(reporter, "parent");
    if (integrity) CheckReference(*parent, "parent", reporter);
    // Rule 8: the qualified type extends the parent's (a warning in Pulumi).
    // parent_urn views into parent_text, which must outlive it.
    const std::string parent_text = parent->Str();
    auto parent_urn = state::ParseUrn(parent_text);
    if (urn && parent_urn) {
      std::string expected =
          parent_urn->type() == state::kRootStackType
              ? type
              : std::string(parent_urn->qualified_type) + "$" + type;
      if (!type.empty() && urn->qualified_type != expected) {
        reporter.Add(Code::kParentTypeChain,
                     "qualified type \"" + std::string(urn->qualified_type) +
                         "\" does not extend the parent's; expected \"" +
                         expected + "\"",
                     *parent);
      }
    } else if (!parent_urn) {
      reporter.Add(Code::kUrnMalformed,
                   "parent \"" + parent_text + "\" is not a valid URN",
                   *parent);
    }
  }
  if (integrity) {
    // The other URN references Pulumi's graph follows (the parent and the
    // provider are checked above).
    state::ForEachReference(view, [&](const state::ReferenceTarget& t) {
      if (!t.field.dependency || t.field.kind == state::RefKind::kParent ||
          t.field.kind == state::RefKind::kProvider) {
        return;
      }
      PointerScope scope(reporter, t.field.name);
      if (t.field.shape == state::RefShape::kUrn) {
        CheckReference(t.value, t.field.name, reporter);
        return;
      }
      if (t.group == nullptr) {
        PointerScope item(reporter, t.index);
        CheckReference(t.value, t.field.name, reporter);
        return;
      }
      std::string key = t.group->key.Str();
      PointerScope prop(reporter, key);
      PointerScope item(reporter, t.index);
      CheckReference(t.value, std::string(t.field.name) + "[" + key + "]",
                     reporter);
    });
  }

  // Property values.
  for (auto [field, props] :
       {std::pair{"inputs", view.inputs}, std::pair{"outputs", view.outputs},
        std::pair{"replacementTrigger", view.replacement_trigger}}) {
    if (!props) continue;
    PointerScope scope(reporter, field);
    properties_.Check(*props, reporter);
  }

  if (integrity && !urn_text.empty()) {
    bool deleted = flags.del;
    tracker_.Duplicate(urn_text, reporter, resource.offset);
    tracker_.AddResource(urn_text, deleted);
  }
}

}  // namespace pstate::verify
