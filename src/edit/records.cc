#include "edit/records.h"

#include <string>

#include "edit/plan.h"
#include "state/schema.h"

namespace pstate::edit {

std::string Render(const Note& note, const Index& index, const Plan& plan) {
  const ResourceEntry& r = index.resources_list[note.a];
  std::string urn(index.Urn(note.a));
  switch (note.kind) {
    case Note::Kind::kHeld: break;
    case Note::Kind::kClearedParent:
      return "cleared the dangling parent " +
             std::string(index.Text(r.parent)) + " of " + urn;
    case Note::Kind::kRenamed:
      return "renamed " + urn + " to " + plan.urn_map.at(urn);
    case Note::Kind::kRemovedDangling:
      return "removed the dangling " +
             std::string(state::RefKindName(note.ref)) + " entry " +
             std::string(index.Text(note.b)) + " of " +
             NewUrn(index, plan, note.a);
    case Note::Kind::kNoProvider:
      return "cannot repair the provider reference " +
             std::string(index.Text(r.provider)) + " of " +
             NewUrn(index, plan, note.a) + " (no such provider)";
    case Note::Kind::kMovedUp:
      return "moved " + NewUrn(index, plan, note.a) +
             " up, before the first resource that needs it (position " +
             std::to_string(note.a) + " -> " + std::to_string(note.b) + ")";
  }
  return {};
}

ElementChange Render(const ChangeRecord& change, const Index& index,
                     const Plan&) {
  std::string urn(index.Urn(change.a));
  switch (change.kind) {
    case ChangeRecord::Kind::kHeld: break;
    case ChangeRecord::Kind::kRemoved:
      return {ChangeKind::kRemoved, std::move(urn), {}};
    case ChangeRecord::Kind::kMoved:
      return {ChangeKind::kChanged,
              std::move(urn),
              {{ChangeKind::kChanged, "(position)", std::to_string(change.a),
                std::to_string(change.b)}}};
  }
  return {};
}

}  // namespace pstate::edit
