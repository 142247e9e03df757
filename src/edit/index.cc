#include "pstate/edit/index.h"

#include <algorithm>
#include <cctype>

#include "pstate/state/resource.h"

namespace pstate::edit {
namespace {

std::string Text(const json::Value* v) {
  return v != nullptr && v->is_string() ? v->Str() : std::string();
}

std::vector<std::string> Strings(const json::Value* v) {
  std::vector<std::string> out;
  if (v == nullptr || !v->is_array()) return out;
  for (const json::Value& e : v->array()) out.push_back(Text(&e));
  return out;
}

std::size_t Distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                  std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] =
          std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string_view RefKindField(RefKind kind) {
  switch (kind) {
    case RefKind::kParent: return "parent";
    case RefKind::kDependency: return "dependencies";
    case RefKind::kPropertyDependency: return "propertyDependencies";
    case RefKind::kDeletedWith: return "deletedWith";
    case RefKind::kReplaceWith: return "replaceWith";
    case RefKind::kProvider: return "provider";
    case RefKind::kAlias: return "aliases";
    case RefKind::kViewOf: return "viewOf";
  }
  return "";
}

const std::vector<std::size_t>& Index::Find(const std::string& urn) const {
  static const std::vector<std::size_t> kNone;
  auto it = by_urn.find(urn);
  return it == by_urn.end() ? kNone : it->second;
}

std::vector<std::size_t> Index::Live(const std::string& urn) const {
  std::vector<std::size_t> out;
  for (std::size_t i : Find(urn)) {
    if (!resources_list[i].del) out.push_back(i);
  }
  return out;
}

ResourceEntry EntryOf(const json::Value& resource) {
  ResourceEntry e;
  state::ResourceView v = state::ResourceView::Of(resource);
  e.urn = v.Urn();
  e.type = v.Type();
  e.id = v.Id();
  e.parent = Text(v.parent);
  e.provider = Text(v.provider);
  e.dependencies = Strings(v.dependencies);
  if (v.property_dependencies != nullptr &&
      v.property_dependencies->is_object()) {
    for (const json::Member& m : v.property_dependencies->object()) {
      e.property_dependencies.emplace_back(m.key.Str(), Strings(&m.value));
    }
  }
  e.deleted_with = Text(v.deleted_with);
  e.replace_with = Strings(v.replace_with);
  e.aliases = Strings(v.aliases);
  e.view_of = Text(v.view_of);
  e.custom = state::ResourceView::Flag(v.custom);
  e.del = state::ResourceView::Flag(v.del);
  e.protect = state::ResourceView::Flag(v.protect);
  e.taint = state::ResourceView::Flag(v.taint);
  e.pending_replacement = state::ResourceView::Flag(v.pending_replacement);
  return e;
}

void Indexer::OnEnvelopeMember(const state::EnvelopeMember& member,
                               state::Context& context) {
  (void)context;
  MemberPlace* place = nullptr;
  if (member.field == "version") place = &index_.version;
  if (member.field == "features") place = &index_.features;
  if (member.field == "resources") place = &index_.resources;
  if (member.field == "pending_operations") {
    place = &index_.pending_operations;
  }
  pending_member_ = place;
  if (place == nullptr) return;
  // A repeated member replaces the earlier one, as Go's decoder does; the
  // earlier one's bytes stay as they are.
  if (place->present && place == &index_.resources) {
    index_.resources_list.clear();
    index_.by_urn.clear();
  }
  if (place->present && place == &index_.pending_operations) {
    index_.pending.clear();
  }
  place->present = true;
  place->key_offset = member.key_offset;
}

Result<state::Flow> Indexer::OnLeaf(state::Leaf& leaf,
                                    state::Context& context) {
  (void)context;
  ByteRange range{leaf.value.offset, leaf.end_offset};
  switch (leaf.role) {
    case state::Role::kVersion: index_.version.value = range; break;
    case state::Role::kFeatures: index_.features.value = range; break;
    case state::Role::kResource: {
      ResourceEntry e = EntryOf(leaf.value);
      e.range = range;
      if (index_.resources_pointer.empty()) {
        std::string_view p = leaf.pointer;
        index_.resources_pointer.assign(p.substr(0, p.rfind('/')));
      }
      index_.by_urn[e.urn].push_back(index_.resources_list.size());
      index_.resources_list.push_back(std::move(e));
      break;
    }
    case state::Role::kPendingOperation: {
      PendingEntry p;
      p.range = range;
      if (const json::Value* r = state::ResourceOf(leaf)) {
        p.urn = Text(r->Find("urn"));
      }
      if (leaf.value.is_object()) p.type = Text(leaf.value.Find("type"));
      index_.pending.push_back(std::move(p));
      break;
    }
    case state::Role::kMisshapenContainer:
      // "resources": null and the like: the member's value is this leaf.
      if (pending_member_ != nullptr) pending_member_->value = range;
      break;
    default: break;
  }
  return state::Flow::kContinue;
}

Status Indexer::OnFinish(const state::Envelope& envelope,
                         state::Context& context) {
  (void)context;
  index_.envelope = envelope;
  return Status::Ok();
}

std::vector<std::string> Suggest(const Index& index, const std::string& urn) {
  std::size_t limit = std::max<std::size_t>(2, urn.size() / 4);
  std::vector<std::pair<std::size_t, std::string>> near;
  for (const auto& [candidate, positions] : index.by_urn) {
    (void)positions;
    std::size_t longer = std::max(candidate.size(), urn.size());
    std::size_t shorter = std::min(candidate.size(), urn.size());
    if (longer - shorter > limit) continue;
    std::size_t d = Distance(urn, candidate);
    if (d <= limit) near.emplace_back(d, candidate);
  }
  std::sort(near.begin(), near.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < near.size() && i < 3; ++i) {
    out.push_back(near[i].second);
  }
  return out;
}

}  // namespace pstate::edit
