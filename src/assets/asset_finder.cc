// Walks a resource's property values for asset and archive objects and
// decodes them into asset_hash::Spec, the way the engine's Deserialize reads
// them.
#include "assets/asset_finder.h"
#include "state/resource.h"

#include <utility>

#include "json/pointer.h"
#include "state/property.h"
#include "state/signature.h"

namespace pstate::assets {
namespace {

using state::PropertyKind;

// One decoded object: its spec, why it cannot be hashed (if so), the notes
// that belong to it, and where its first member item starts.
struct Node {
  asset_hash::Spec spec;
  std::string invalid;
  std::vector<PlacedNote> notes;
  std::uint64_t first_member_item = kNoMemberItem;
  // While decoding: the key it has in its parent's map, and the notes of
  // its members that are not items of their own.
  std::string key;
  std::vector<PlacedNote> member_notes;
};

// A member is an item of its own when it records a non-empty hash string.
bool IsMemberItem(const json::Value& member) {
  const json::Value* hash = member.Find("hash");
  return hash && hash->is_string() && hash->size > 0;
}

bool IsAssetOrArchive(PropertyKind kind) {
  return kind == PropertyKind::kAsset || kind == PropertyKind::kArchive;
}

// Decodes one asset or archive with every member of its "assets" map, the
// way the engine's Deserialize reads them: a visitor of the property walker
// (an archive's map members are the nodes below it), building the spec
// tree on the way back up.
class Decoder {
 public:
  static constexpr bool kVisitScalars = false;  // map members are visited

  explicit Decoder(const asset_hash::Options& options) : options_(options) {}

  Node Take() { return std::move(result_); }

  state::Step Visit(const state::PropertyNode& node, state::PropertyCursor&) {
    std::string key;
    if (!stack_.empty()) {
      // A member of the enclosing archive's map.
      key = node.key->Str();
      if (!IsAssetOrArchive(node.kind)) {
        Node& parent = stack_.back();
        if (parent.invalid.empty()) {
          parent.invalid = "member '" + key + "' is not an asset or archive";
        }
        return state::Step::kSkip;
      }
    }
    stack_.emplace_back();
    Node& n = stack_.back();
    n.key = std::move(key);
    ReadFields(node, &n);
    return state::Step::kDescend;  // an archive's map
  }

  void Leave(const state::PropertyNode& node, state::PropertyCursor& at) {
    Node child = std::move(stack_.back());
    stack_.pop_back();
    for (asset_hash::AuditNote& note :
         asset_hash::Audit(child.spec, options_)) {
      child.notes.push_back(
          {at.Pointer(), std::move(note), node.value->offset});
    }
    for (PlacedNote& note : child.member_notes) {
      child.notes.push_back(std::move(note));
    }
    child.member_notes.clear();
    if (stack_.empty()) {
      result_ = std::move(child);
      return;
    }
    Node& parent = stack_.back();
    if (!child.invalid.empty() && parent.invalid.empty()) {
      parent.invalid = "member '" + child.key + "': " + child.invalid;
    }
    bool item = IsMemberItem(*node.value);
    if (parent.first_member_item == kNoMemberItem) {
      parent.first_member_item =
          item ? node.value->offset : child.first_member_item;
    }
    // A member item carries its own notes (the finder decodes it again).
    if (!item) {
      for (PlacedNote& n : child.notes) {
        parent.member_notes.push_back(std::move(n));
      }
    }
    parent.spec.assets.emplace_back(std::move(child.key),
                                    std::move(child.spec));
  }

 private:
  // Reads string field `key` into `out`; a present non-string is invalid.
  static void StringField(const json::Value& obj, std::string_view key,
                          std::optional<std::string>* out,
                          std::string* invalid) {
    const json::Value* f = obj.Find(key);
    if (!f) return;
    if (f->is_string()) {
      *out = f->Str();
    } else if (invalid->empty()) {
      *invalid = "\"" + std::string(key) + "\" is " +
                 std::string(json::TypeName(f->type)) + ", not a string";
    }
  }

  static void ReadFields(const state::PropertyNode& node, Node* n) {
    const json::Value& obj = *node.value;
    bool asset = node.kind == PropertyKind::kAsset;
    n->spec.kind =
        asset ? asset_hash::Kind::kAsset : asset_hash::Kind::kArchive;
    StringField(obj, "hash", &n->spec.hash, &n->invalid);
    StringField(obj, "path", &n->spec.path, &n->invalid);
    StringField(obj, "uri", &n->spec.uri, &n->invalid);
    if (asset) {
      StringField(obj, "text", &n->spec.text, &n->invalid);
    } else if (const json::Value* assets = node.assets()) {
      n->spec.has_assets = true;
      if (!assets->is_object() && n->invalid.empty()) {
        n->invalid = "\"assets\" is " +
                     std::string(json::TypeName(assets->type)) +
                     ", not an object";
      }
    }
  }

  const asset_hash::Options& options_;
  std::vector<Node> stack_;
  Node result_;
};

// A visitor of the property walker: plain objects and arrays are descended
// into; an asset or archive is emitted, then the walk goes on into an
// archive's map, where the members that are items of their own are emitted
// in turn. Two passes (decode the whole object, then emit members one by
// one) keep one archive's members out of memory as items. Other signature
// objects hold no asset Pulumi would write.
class Finder {
 public:
  static constexpr bool kVisitScalars = false;  // assets are objects

  struct Level {
    bool in_map = false;  // the node is a member of an archive's map
  };

  Finder(std::string urn, const asset_hash::Options& options,
         const ItemCallback& found)
      : urn_(std::move(urn)), options_(options), found_(found) {}

  state::Step Visit(const state::PropertyNode& node, state::PropertyCursor& at,
                    Level& level) {
    if (!IsAssetOrArchive(node.kind)) {
      bool container = node.kind == PropertyKind::kArray ||
                       node.kind == PropertyKind::kObject;
      return container && !level.in_map ? state::Step::kDescend
                                        : state::Step::kSkip;
    }
    if (!level.in_map || IsMemberItem(*node.value)) Emit(node, at);
    level.in_map = node.kind == PropertyKind::kArchive;
    return level.in_map ? state::Step::kDescend : state::Step::kSkip;
  }

 private:
  void Emit(const state::PropertyNode& node, state::PropertyCursor& at) {
    // The pointer is spelled out only here, once per item.
    std::string pointer = at.Pointer();
    Decoder decoder(options_);
    state::WalkOptions walk;
    walk.base_pointer = pointer;
    state::WalkProperties(*node.value, decoder, walk);
    Node decoded = decoder.Take();
    FoundItem item;
    item.pointer = std::move(pointer);
    item.urn = urn_;
    item.offset = node.value->offset;
    item.first_member_item = decoded.first_member_item;
    item.spec = std::move(decoded.spec);
    item.invalid = std::move(decoded.invalid);
    item.notes = std::move(decoded.notes);
    found_(std::move(item));
  }

  std::string urn_;
  const asset_hash::Options& options_;
  const ItemCallback& found_;
};

}  // namespace

void FindInResource(const json::Value& resource, std::string_view base_pointer,
                    const asset_hash::Options& options,
                    const ItemCallback& found) {
  if (!resource.is_object()) return;
  Finder finder(state::ResourceView::Of(resource).Urn(), options, found);
  std::string base(base_pointer);
  const std::size_t base_size = base.size();
  for (const json::Member& m : resource.object()) {
    bool inputs = m.key.StrEquals("inputs");
    if (!inputs && !m.key.StrEquals("outputs")) continue;
    base.resize(base_size);
    json::AppendPointerToken(&base, inputs ? "inputs" : "outputs");
    state::WalkOptions walk;
    walk.base_pointer = base;
    state::WalkProperties(m.value, finder, walk);
  }
}

void FindInLeaf(const state::Leaf& leaf, const asset_hash::Options& options,
                const ItemCallback& found) {
  if (const json::Value* r = state::ResourceOf(leaf)) {
    FindInResource(*r, state::ResourcePointer(leaf), options, found);
  }
}

}  // namespace pstate::assets
