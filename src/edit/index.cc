#include "edit/index.h"

#include <algorithm>
#include <cstring>

#include "base/edit_distance.h"
#include "base/fingerprint.h"
#include "state/property.h"
#include "state/resource.h"

namespace pstate::edit {
namespace {

std::uint64_t HashOf(std::string_view text) {
  Fingerprint f = FingerprintOf(text);
  return f.lo ^ f.hi;
}

/// A JSON string's decoded text, without a copy when it has no escapes
/// ("" for anything but a string).
std::string_view Decoded(const json::Value* v, std::string* scratch) {
  if (v == nullptr || !v->is_string()) return {};
  if (!v->has_escapes) return v->raw();
  *scratch = v->Str();
  return *scratch;
}

/// Appends the ids of the non-empty strings of array `v` to `out`;
/// returns how many.
std::uint32_t AddStrings(const json::Value* v, StringTable& table,
                         std::vector<StrId>& out, std::string* scratch) {
  if (v == nullptr || !v->is_array()) return 0;
  std::uint32_t n = 0;
  for (const json::Value& e : v->array()) {
    std::string_view s = Decoded(&e, scratch);
    if (s.empty()) continue;
    out.push_back(table.Intern(s));
    ++n;
  }
  return n;
}

/// Appends the "urn" of every resource reference object inside a property
/// value: a visitor of the property walker over the parsed tree, which the
/// verifier has just walked too, so its nodes are in cache. Secrets are not
/// looked into (a secret's plaintext stays text). A reference is recorded
/// after what its own members hold.
class PropertyRefs {
 public:
  static constexpr bool kVisitScalars = false;  // references are objects

  PropertyRefs(StringTable& table, std::vector<StrId>& out, std::uint32_t* n,
               std::string* scratch)
      : table_(table), out_(out), n_(n), scratch_(scratch) {}

  state::Step Visit(const state::PropertyNode& node, state::PropertyCursor&) {
    switch (node.kind) {
      case state::PropertyKind::kArray:
      case state::PropertyKind::kObject: return state::Step::kDescend;
      case state::PropertyKind::kSecret: return state::Step::kSkip;
      default:
        // Other signature objects: their members as stored.
        return node.is_signature() ? state::Step::kDescendRaw
                                   : state::Step::kSkip;
    }
  }

  void Leave(const state::PropertyNode& node, state::PropertyCursor&) {
    if (node.kind != state::PropertyKind::kResourceReference) return;
    std::string_view urn = Decoded(node.urn(), scratch_);
    if (urn.empty()) return;
    out_.push_back(table_.Intern(urn));
    ++*n_;
  }

 private:
  StringTable& table_;
  std::vector<StrId>& out_;
  std::uint32_t* n_;
  std::string* scratch_;
};

void AddPropertyRefs(const json::Value& v, StringTable& table,
                     std::vector<StrId>& out, std::uint32_t* n,
                     std::string* scratch) {
  PropertyRefs refs(table, out, n, scratch);
  state::WalkProperties(v, refs);
}

}  // namespace

namespace {
constexpr std::size_t kBlockSize = std::size_t{256} << 10;
}  // namespace

const char* StringTable::Store(std::string_view text) {
  if (text.size() > block_left_) {
    // A string longer than a block gets a block of its own.
    std::size_t size = std::max(kBlockSize, text.size());
    blocks_.push_back(std::make_unique<char[]>(size));
    block_at_ = blocks_.back().get();
    block_left_ = size;
  }
  char* at = block_at_;
  if (!text.empty()) std::memcpy(at, text.data(), text.size());
  block_at_ += text.size();
  block_left_ -= text.size();
  return at;
}

StrId StringTable::Intern(std::string_view text) {
  std::uint64_t hash = HashOf(text);
  if (!slots_.empty()) {
    std::size_t at = SlotOf(hash, text);
    if (slots_[at].id != kNoStr) return slots_[at].id;
  }
  // At most half full, so probes stay short.
  if ((findable_ + 1) * 2 > slots_.size()) Grow();
  ++findable_;
  std::size_t at = SlotOf(hash, text);
  auto id = static_cast<StrId>(sizes_.size());
  starts_.push_back(Store(text));
  sizes_.push_back(static_cast<std::uint32_t>(text.size()));
  slots_[at] = {static_cast<std::uint32_t>(hash), id};
  return id;
}

StrId StringTable::Add(std::string_view text) {
  auto id = static_cast<StrId>(sizes_.size());
  starts_.push_back(Store(text));
  sizes_.push_back(static_cast<std::uint32_t>(text.size()));
  return id;
}

StrId StringTable::Find(std::string_view text) const {
  if (slots_.empty()) return kNoStr;
  return slots_[SlotOf(HashOf(text), text)].id;
}

std::size_t StringTable::memory() const {
  // (A string longer than a block is counted as one block.)
  return blocks_.size() * kBlockSize +
         starts_.capacity() * sizeof(const char*) +
         sizes_.capacity() * sizeof(std::uint32_t) +
         slots_.capacity() * sizeof(Slot);
}

std::size_t StringTable::SlotOf(std::uint64_t hash,
                                std::string_view text) const {
  std::size_t mask = slots_.size() - 1;
  auto tag = static_cast<std::uint32_t>(hash);
  for (std::size_t at = static_cast<std::size_t>(hash) & mask;;
       at = (at + 1) & mask) {
    const Slot& s = slots_[at];
    if (s.id == kNoStr) return at;
    if (s.tag == tag && View(s.id) == text) return at;
  }
}

void StringTable::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
  std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.id == kNoStr) continue;
    // The tag is the hash's low half: all a table of fewer than 2^32
    // slots needs to place the string.
    std::size_t at = static_cast<std::size_t>(s.tag) & mask;
    while (slots_[at].id != kNoStr) at = (at + 1) & mask;
    slots_[at] = s;
  }
}

void Index::AddResource(const json::Value& resource, ByteRange range) {
  ResourceEntry e;
  std::string scratch;
  state::ResourceView v = state::ResourceView::Of(resource);
  auto optional = [&](const json::Value* field) {
    std::string_view s = Decoded(field, &scratch);
    return s.empty() ? kNoStr : strings.Intern(s);
  };
  e.urn = strings.Intern(Decoded(v.urn, &scratch));
  e.type = optional(v.type);
  {
    std::string_view id = Decoded(v.id, &scratch);
    if (!id.empty()) e.id = strings.Add(id);
  }
  e.parent = optional(v.parent);
  {
    std::string_view p = Decoded(v.provider, &scratch);
    if (!p.empty()) {
      std::size_t cut = p.rfind("::");
      if (cut != std::string_view::npos && cut > 0) {
        e.provider_urn = strings.Intern(p.substr(0, cut));
      }
      e.provider = strings.Intern(p);
    }
  }
  e.deleted_with = optional(v.deleted_with);
  e.view_of = optional(v.view_of);
  e.refs = static_cast<std::uint32_t>(refs.size());
  e.n_dependencies = AddStrings(v.dependencies, strings, refs, &scratch);
  if (v.property_dependencies != nullptr &&
      v.property_dependencies->is_object()) {
    for (const json::Member& m : v.property_dependencies->object()) {
      e.n_property_dependencies +=
          AddStrings(&m.value, strings, refs, &scratch);
    }
  }
  e.n_replace_with = AddStrings(v.replace_with, strings, refs, &scratch);
  e.n_aliases = AddStrings(v.aliases, strings, refs, &scratch);
  for (const json::Value* field :
       {v.inputs, v.outputs, v.replacement_trigger}) {
    if (field == nullptr) continue;
    AddPropertyRefs(*field, strings, refs, &e.n_property_refs, &scratch);
  }
  e.custom = state::ResourceView::Flag(v.custom);
  e.del = state::ResourceView::Flag(v.del);
  e.protect = state::ResourceView::Flag(v.protect);
  e.taint = state::ResourceView::Flag(v.taint);
  e.pending_replacement = state::ResourceView::Flag(v.pending_replacement);
  e.external = state::ResourceView::Flag(v.external);
  e.retain_on_delete = state::ResourceView::Flag(v.retain_on_delete);
  e.features = static_cast<std::uint8_t>(state::ResourceFeatures(resource));

  located_.Add(FingerprintOf(Text(e.urn)), range);
  resources_list.push_back(e);
}

state::Selectable SelectableOf(const Index& index, std::size_t i) {
  const ResourceEntry& r = index.resources_list[i];
  state::Selectable out{index.Text(r.urn), index.Text(r.type),
                        index.Text(r.parent), index.Text(r.provider)};
  const std::pair<state::Flag, bool> flags[] = {
      {state::Flag::kProtect, r.protect},
      {state::Flag::kTaint, r.taint},
      {state::Flag::kDelete, r.del},
      {state::Flag::kExternal, r.external},
      {state::Flag::kPendingReplacement, r.pending_replacement},
      {state::Flag::kRetainOnDelete, r.retain_on_delete}};
  for (auto [flag, set] : flags) {
    if (set) out.flags |= state::FlagBit(flag);
  }
  return out;
}

void Index::ClearResources() {
  resources_list.clear();
  refs.clear();
  located_.Clear();
}

std::vector<ByteRange> Index::Ranges() const {
  std::vector<ByteRange> out;
  out.reserve(located_.size());
  for (std::uint32_t i = 0; i < located_.size(); ++i) {
    out.push_back(located_.range(i));
  }
  return out;
}

std::vector<std::size_t> Index::FindId(StrId urn) const {
  std::vector<std::size_t> out;
  if (urn == kNoStr) return out;
  for (std::uint32_t at = located_.First(FingerprintOf(Text(urn)));
       at != state::ResourceIndex::kNone; at = located_.Next(at)) {
    out.push_back(at);
  }
  return out;
}

std::vector<std::size_t> Index::Find(std::string_view urn) const {
  return FindId(strings.Find(urn));
}

std::vector<std::size_t> Index::Live(std::string_view urn) const {
  std::vector<std::size_t> out;
  for (std::size_t i : Find(urn)) {
    if (!resources_list[i].del) out.push_back(i);
  }
  return out;
}

std::size_t Index::memory() const {
  return resources_list.size() * sizeof(ResourceEntry) +
         refs.capacity() * sizeof(StrId) + strings.memory() + located_.memory();
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
  if (member.field == "manifest") place = &index_.manifest;
  if (member.field == "secrets_providers") place = &index_.secrets_providers;
  pending_member_ = place;
  if (place == nullptr) return;
  // A repeated member replaces the earlier one, as Go's decoder does; the
  // earlier one's bytes stay as they are.
  if (place->present && place == &index_.resources) index_.ClearResources();
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
    case state::Role::kManifest: index_.manifest.value = range; break;
    case state::Role::kSecretsProviders:
      index_.secrets_providers.value = range;
      break;
    case state::Role::kStack:
      if (leaf.value.is_string()) index_.checkpoint_stack = leaf.value.Str();
      break;
    case state::Role::kResource: {
      if (index_.resources_pointer.empty()) {
        std::string_view p = leaf.pointer;
        index_.resources_pointer.assign(p.substr(0, p.rfind('/')));
      }
      // Resource references in property values are found here, on the
      // tree the reader just parsed, not by a second read of the file.
      index_.AddResource(leaf.value, range);
      break;
    }
    case state::Role::kPendingOperation: {
      PendingEntry p;
      p.range = range;
      std::string scratch;
      if (const json::Value* r = state::ResourceOf(leaf)) {
        p.urn.assign(Decoded(state::ResourceView::Of(*r).urn, &scratch));
      }
      if (leaf.value.is_object()) {
        p.type.assign(Decoded(leaf.value.Find("type"), &scratch));
      }
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
  for (std::size_t i = 0; i < index.resources_list.size(); ++i) {
    // Each URN once: at its first copy.
    StrId id = index.resources_list[i].urn;
    if (!index.IsFirstCopy(i)) continue;
    std::string_view candidate = index.Text(id);
    std::size_t longer = std::max(candidate.size(), urn.size());
    std::size_t shorter = std::min(candidate.size(), urn.size());
    if (longer - shorter > limit) continue;
    std::size_t d = EditDistance(
        urn, candidate,
        {.adjacent_swaps = false, .letter_case = ascii::Case::kFold});
    if (d <= limit) near.emplace_back(d, std::string(candidate));
  }
  std::sort(near.begin(), near.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < near.size() && i < 3; ++i) {
    out.push_back(near[i].second);
  }
  return out;
}

}  // namespace pstate::edit
