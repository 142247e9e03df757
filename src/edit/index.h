// What `pstate edit` keeps of a state after its first pass: per resource
// and pending operation, the fields an edit is planned on and the byte
// range the reader found it at (resources on the shared byte-range index,
// state/resource_index.h, found there by their URNs). Every string the index
// keeps (URNs, and the types, IDs and provider references) is interned once in
// a StringTable and named by a 32-bit id; a resource's references are lists of
// ids. Memory grows with the resource count (about 100 bytes per resource plus
// each distinct string once), never with the size of property values: the bytes
// stay in the file until the output is spliced, and strings are materialized
// only for what is printed or rewritten.
#ifndef PSTATE_EDIT_INDEX_H_
#define PSTATE_EDIT_INDEX_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "state/reader.h"
#include "state/resource_index.h"
#include "state/schema.h"
#include "state/selector.h"

namespace pstate::edit {

/// [begin, end) of the decoded input.
using ByteRange = state::ByteRange;

/// A string of a StringTable; kNoStr stands for "absent" (or empty, where
/// the field treats "" as absent).
using StrId = std::uint32_t;
inline constexpr StrId kNoStr = 0xffffffffU;

/// Distinct strings, each stored once and named by a dense id (0, 1, ...
/// in the order they were first added). The table is keyed by the
/// strings' fingerprints (base/fingerprint.h) and confirms a hit by
/// comparing the bytes, so two strings never share an id. The bytes live
/// in fixed blocks that never move (no doubling, no copies): about 12
/// bytes per string beyond its own, plus 16 to 32 for its hash slots.
class StringTable {
 public:
  /// The id of `text`, adding it when new.
  StrId Intern(std::string_view text);
  /// A new id for `text` that Find and Intern do not know: for strings
  /// only ever read by id (resource IDs, one per resource, never looked
  /// up), which then cost no hash slot.
  StrId Add(std::string_view text);
  /// The id of `text`, or kNoStr when it was never added.
  StrId Find(std::string_view text) const;
  /// The string of `id` ("" for kNoStr), valid as long as the table.
  std::string_view View(StrId id) const {
    if (id >= sizes_.size()) return {};
    return {starts_[id], sizes_[id]};
  }
  std::size_t size() const { return sizes_.size(); }
  /// Bytes held (the blocks, the ids' places, the hash slots).
  std::size_t memory() const;

 private:
  /// The hash's low half (it places the string, and a hit is confirmed
  /// on it before the bytes are compared) and the id.
  struct Slot {
    std::uint32_t tag = 0;
    StrId id = kNoStr;
  };
  std::size_t SlotOf(std::uint64_t hash, std::string_view text) const;
  void Grow();
  const char* Store(std::string_view text);

  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t block_left_ = 0;
  char* block_at_ = nullptr;
  std::vector<const char*> starts_;
  std::vector<std::uint32_t> sizes_;
  std::vector<Slot> slots_;   ///< open addressing, power of two
  std::size_t findable_ = 0;  ///< strings with a slot
};

/// A reference from one resource to another: the reference fields of
/// state::kReferenceFields, then resource references found inside
/// property values (RefKind::kProperty: the "urn" of a resource reference
/// object in inputs, outputs or replacementTrigger). References inside a
/// secret's plaintext are a string's bytes, not objects, and are not listed
/// (the comment on Index::AddResource says why that is right).
using RefKind = state::RefKind;

struct ResourceEntry {
  StrId urn = kNoStr;  ///< always set ("" interned when it has none)
  StrId type = kNoStr, parent = kNoStr;
  StrId id = kNoStr;  ///< StringTable::Add: compare its text, not its id
  /// The provider reference as written (`<URN>::<ID>`), and its URN part
  /// (kNoStr when it has no "::").
  StrId provider = kNoStr, provider_urn = kNoStr;
  StrId deleted_with = kNoStr, view_of = kNoStr;
  /// Its lists, back to back in Index::refs from `refs`: dependencies,
  /// propertyDependencies' values (all keys), replaceWith, aliases, then
  /// the resource references of its property values. Empty strings are
  /// left out.
  std::uint32_t refs = 0;
  std::uint32_t n_dependencies = 0, n_property_dependencies = 0,
                n_replace_with = 0, n_aliases = 0, n_property_refs = 0;
  bool custom = false;
  bool del = false;  ///< "delete": an old copy awaiting deletion
  bool protect = false;
  bool taint = false;
  bool pending_replacement = false;
  bool external = false;
  bool retain_on_delete = false;
  /// The deployment features its content uses (state::ResourceFeatures).
  std::uint8_t features = 0;
};

struct PendingEntry {
  std::string urn;   ///< of its resource
  std::string type;  ///< creating, updating, deleting, reading, importing
  ByteRange range;
};

/// An envelope member the edit may rewrite (version, features) or remove.
struct MemberPlace {
  bool present = false;
  std::uint64_t key_offset = 0;
  ByteRange value;
};

struct Index {
  state::Envelope envelope;
  MemberPlace version;
  MemberPlace features;
  MemberPlace resources;  ///< value: the array (begin at '[' once known)
  MemberPlace pending_operations;
  /// Where a resources array goes in a deployment without one (edit move
  /// to a fresh stack): after these members, as Pulumi orders them.
  MemberPlace manifest;
  MemberPlace secrets_providers;
  /// The checkpoint's "stack" ("organization/<project>/<stack>" in a DIY
  /// checkpoint, or a bare name); "" when none.
  std::string checkpoint_stack;
  /// In chunks, not one array: no doubling slack and no copy as it grows
  /// (a 200k-resource state: 12.8 MB, not up to 25 MB while it grows).
  std::deque<ResourceEntry> resources_list;
  std::vector<PendingEntry> pending;
  /// The JSON pointer of the resources array ("/deployment/resources").
  std::string resources_pointer;
  StringTable strings;
  /// The resources' reference lists (ResourceEntry::refs).
  std::vector<StrId> refs;

  /// Adds `resource` (a resource object as the reader parsed it, at
  /// `range`), with the resource references of its property values
  /// (RefKind::kProperty).
  ///
  /// A resource reference inside a secret's plaintext (a JSON text in a
  /// string) is not listed, and need not be: an edit never rewrites a
  /// secret (rename leaves such a reference as it is, since changing it
  /// means changing the secret), and the only finding a reference gives
  /// (verify's resource-ref-dangling, when it names no resource) is a
  /// warning, which the verify gate does not compare (edit.h, NewErrors):
  /// a resource that pass 2 stubs although its plaintext names a removed
  /// URN hides a warning, never an error.
  void AddResource(const json::Value& resource, ByteRange range = {});
  /// Forgets every resource (a repeated "resources" member).
  void ClearResources();

  /// The string of `id` ("" for kNoStr).
  std::string_view Text(StrId id) const { return strings.View(id); }
  /// Resource `i`'s URN.
  std::string_view Urn(std::size_t i) const {
    return strings.View(resources_list[i].urn);
  }
  /// Where resource `i`'s bytes are.
  ByteRange Range(std::size_t i) const {
    return located_.range(static_cast<std::uint32_t>(i));
  }
  /// Every resource's byte range, in input order.
  std::vector<ByteRange> Ranges() const;
  /// Positions of the resources whose URN is `urn` (empty when absent), in
  /// input order (several for duplicates).
  std::vector<std::size_t> Find(std::string_view urn) const;
  std::vector<std::size_t> FindId(StrId urn) const;
  /// Whether some resource has the URN `urn`.
  bool HasResource(StrId urn) const {
    return urn != kNoStr && located_.First(FingerprintOf(Text(urn))) !=
                                state::ResourceIndex::kNone;
  }
  /// Whether resource `i` is the first with its URN.
  bool IsFirstCopy(std::size_t i) const {
    auto at = static_cast<std::uint32_t>(i);
    return located_.First(located_.key(at)) == at;
  }
  /// The live (not pending-delete) copies of `urn`.
  std::vector<std::size_t> Live(std::string_view urn) const;

  std::span<const StrId> Dependencies(const ResourceEntry& r) const {
    return List(r.refs, r.n_dependencies);
  }
  std::span<const StrId> PropertyDependencies(const ResourceEntry& r) const {
    return List(r.refs + r.n_dependencies, r.n_property_dependencies);
  }
  std::span<const StrId> ReplaceWith(const ResourceEntry& r) const {
    return List(r.refs + r.n_dependencies + r.n_property_dependencies,
                r.n_replace_with);
  }
  std::span<const StrId> Aliases(const ResourceEntry& r) const {
    return List(r.refs + r.n_dependencies + r.n_property_dependencies +
                    r.n_replace_with,
                r.n_aliases);
  }
  std::span<const StrId> PropertyRefs(const ResourceEntry& r) const {
    return List(r.refs + r.n_dependencies + r.n_property_dependencies +
                    r.n_replace_with + r.n_aliases,
                r.n_property_refs);
  }

  /// Bytes the index holds (entries, lists, strings, positions).
  std::size_t memory() const;

 private:
  std::span<const StrId> List(std::uint32_t at, std::uint32_t n) const {
    return {refs.data() + at, n};
  }
  /// The resources' byte ranges, found by their URNs' fingerprints (the
  /// shared byte-range index, state/resource_index.h).
  state::ResourceIndex located_;
};

/// What a selector (state::Selector) sees of resource `i` of `index`.
state::Selectable SelectableOf(const Index& index, std::size_t i);

/// Calls `fn(kind, id)` for every URN resource `r` of `index` refers to;
/// for kProvider the URN part of its provider reference (when it has one).
template <typename Fn>
void ForEachReference(const Index& index, const ResourceEntry& r, Fn&& fn);

/// The first pass's handler: fills an Index. Run it in a state::Tee with
/// verify::Verifier so the input's findings come from the same pass.
class Indexer : public state::Handler {
 public:
  explicit Indexer(Index& index) : index_(index) {}
  void OnEnvelopeMember(const state::EnvelopeMember& member,
                        state::Context& context) override;
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override;
  Status OnFinish(const state::Envelope& envelope,
                  state::Context& context) override;

 private:
  Index& index_;
  MemberPlace* pending_member_ = nullptr;
};

/// Up to three URNs of `index` close to `urn` (case-insensitive Levenshtein
/// distance at most max(2, len/4)), nearest first, as Pulumi suggests them.
std::vector<std::string> Suggest(const Index& index, const std::string& urn);

// Implementation of the template.
template <typename Fn>
void ForEachReference(const Index& index, const ResourceEntry& r, Fn&& fn) {
  if (r.parent != kNoStr) fn(RefKind::kParent, r.parent);
  for (StrId d : index.Dependencies(r)) fn(RefKind::kDependency, d);
  for (StrId d : index.PropertyDependencies(r)) {
    fn(RefKind::kPropertyDependency, d);
  }
  if (r.deleted_with != kNoStr) fn(RefKind::kDeletedWith, r.deleted_with);
  for (StrId d : index.ReplaceWith(r)) fn(RefKind::kReplaceWith, d);
  if (r.provider_urn != kNoStr) fn(RefKind::kProvider, r.provider_urn);
  for (StrId a : index.Aliases(r)) fn(RefKind::kAlias, a);
  if (r.view_of != kNoStr) fn(RefKind::kViewOf, r.view_of);
  for (StrId p : index.PropertyRefs(r)) fn(RefKind::kProperty, p);
}

}  // namespace pstate::edit

#endif  // PSTATE_EDIT_INDEX_H_
