// Finding the assets and archives inside one resource of a state, as
// self-contained items that can be hashed on any thread.
#ifndef PSTATE_ASSETS_ASSET_FINDER_H_
#define PSTATE_ASSETS_ASSET_FINDER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "asset_hash/hasher.h"
#include "asset_hash/spec.h"
#include "json/value.h"
#include "state/reader.h"

namespace pstate::assets {

/// FoundItem::first_member_item when no member below is an item.
inline constexpr std::uint64_t kNoMemberItem = ~std::uint64_t{0};

/// An audit note (asset_hash::Audit) placed on the object it is about.
struct PlacedNote {
  std::string pointer;  ///< RFC 6901 pointer of the object the note is about
  asset_hash::AuditNote note;
  std::uint64_t offset = 0;  ///< that object's offset in the decoded input
};

/// One asset or archive object to hash: a top-level object in a resource's
/// inputs or outputs, or a member of an `assets` map that records its own
/// non-empty `hash`. Owns all its data (decoded strings, copied spec), so it
/// outlives the leaf it came from.
struct FoundItem {
  std::string pointer;       ///< RFC 6901 pointer from the document root
  std::string urn;           ///< the resource's URN ("" when it has none)
  std::uint64_t offset = 0;  ///< the object's offset in the decoded input
  /// Offset of the first member item below this one (the next item found),
  /// or kNoMemberItem. Notes at or past it were found "out of order".
  std::uint64_t first_member_item = kNoMemberItem;
  asset_hash::Spec spec;
  /// Non-empty when the object (or a member) is malformed, e.g. a `path`
  /// that is not a string; the engine fails to deserialize it, so the item
  /// is not hashed and reports this as its error.
  std::string invalid;
  /// Audit notes on this object and on every member below it that is not an
  /// item of its own, in document order (pre-order).
  std::vector<PlacedNote> notes;
};

using ItemCallback = std::function<void(FoundItem&& item)>;

/// Calls `found` for every item in `resource` (a resource object) in
/// document order: "inputs" first, then "outputs" (whichever comes first in
/// the file), depth first, an archive before its members. `base_pointer`
/// is the resource's pointer. Values that are not objects are ignored.
/// Items are handed over one at a time: an archive's member items are never
/// all held at once (the archive's own spec does hold every member).
/// Secrets are not looked into (their plaintext is a JSON string).
void FindInResource(const json::Value& resource, std::string_view base_pointer,
                    const asset_hash::Options& options,
                    const ItemCallback& found);

/// FindInResource for a reader leaf: a resource (Role::kResource) or a
/// pending operation's "resource" (Role::kPendingOperation); other roles
/// hold no resource and yield nothing.
void FindInLeaf(const state::Leaf& leaf, const asset_hash::Options& options,
                const ItemCallback& found);

}  // namespace pstate::assets

#endif  // PSTATE_ASSETS_ASSET_FINDER_H_
