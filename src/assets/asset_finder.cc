// Walks a resource's property values for asset and archive objects and
// decodes them into asset_hash::Spec, the way the engine's Deserialize reads
// them.
#include "pstate/assets/asset_finder.h"
#include "pstate/state/resource.h"

#include <utility>

#include "pstate/json/pointer.h"
#include "pstate/state/property.h"
#include "pstate/state/signature.h"

namespace pstate::assets {
namespace {

using state::SigKind;

// One decoded object: its spec, why it cannot be hashed (if so), the notes
// that belong to it, and where its first member item starts.
struct Node {
  asset_hash::Spec spec;
  std::string invalid;
  std::vector<PlacedNote> notes;
  std::uint64_t first_member_item = kNoMemberItem;
};

// A member is an item of its own when it records a non-empty hash string.
bool IsMemberItem(const json::Value& member) {
  const json::Value* hash = member.Find("hash");
  return hash && hash->is_string() && hash->size > 0;
}

// A visitor of the property walker (state/property.h): plain objects and
// arrays are descended into; an asset or archive is emitted with its
// members (Decode reads the archive's map itself, twice: see Emit); other
// signature objects hold no asset Pulumi would write.
class Finder {
 public:
  static constexpr bool kVisitScalars = false;  // assets are objects

  Finder(std::string urn, const asset_hash::Options& options,
         const ItemCallback& found)
      : urn_(std::move(urn)), options_(options), found_(found) {}

  state::Step Visit(const state::PropertyNode& node,
                    state::PropertyCursor& at) {
    switch (node.kind) {
      case state::PropertyKind::kArray:
      case state::PropertyKind::kObject: return state::Step::kDescend;
      case state::PropertyKind::kAsset:
      case state::PropertyKind::kArchive:
        // The pointer is spelled out only here, once per item.
        pointer_ = json::PointerBuilder(at.Pointer());
        Emit(*node.value);
        return state::Step::kSkip;
      default: return state::Step::kSkip;
    }
  }

 private:
  // Emits the object at pointer_ as an item, then its member items. Two
  // passes over the members (decode the whole object, then emit members
  // one by one) keep one archive's members out of memory as items.
  void Emit(const json::Value& v) {
    Node node = Decode(v, KindOf(v));
    FoundItem item;
    item.pointer = pointer_.str();
    item.urn = urn_;
    item.offset = v.offset;
    item.first_member_item = node.first_member_item;
    item.spec = std::move(node.spec);
    item.invalid = std::move(node.invalid);
    item.notes = std::move(node.notes);
    found_(std::move(item));
    EmitMembers(v);
  }

  void EmitMembers(const json::Value& v) {
    if (KindOf(v) != asset_hash::Kind::kArchive) return;
    const json::Value* assets = v.Find("assets");
    if (!assets || !assets->is_object()) return;
    std::size_t base = pointer_.PushKey("assets");
    for (const json::Member& m : assets->object()) {
      SigKind sig = state::ClassifySignature(m.value);
      if (sig != SigKind::kAsset && sig != SigKind::kArchive) continue;
      std::size_t mark = pointer_.PushKey(m.key.Str());
      if (IsMemberItem(m.value)) {
        Emit(m.value);
      } else {
        EmitMembers(m.value);
      }
      pointer_.Pop(mark);
    }
    pointer_.Pop(base);
  }

  static asset_hash::Kind KindOf(const json::Value& v) {
    return state::ClassifySignature(v) == SigKind::kAsset
               ? asset_hash::Kind::kAsset
               : asset_hash::Kind::kArchive;
  }

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

  Node Decode(const json::Value& obj, asset_hash::Kind kind) {
    Node node;
    node.spec.kind = kind;
    StringField(obj, "hash", &node.spec.hash, &node.invalid);
    StringField(obj, "path", &node.spec.path, &node.invalid);
    StringField(obj, "uri", &node.spec.uri, &node.invalid);
    std::vector<PlacedNote> member_notes;
    if (kind == asset_hash::Kind::kAsset) {
      StringField(obj, "text", &node.spec.text, &node.invalid);
    } else if (const json::Value* assets = obj.Find("assets")) {
      node.spec.has_assets = true;
      if (!assets->is_object()) {
        if (node.invalid.empty()) {
          node.invalid = "\"assets\" is " +
                         std::string(json::TypeName(assets->type)) +
                         ", not an object";
        }
      } else {
        std::size_t base = pointer_.PushKey("assets");
        for (const json::Member& m : assets->object()) {
          std::string key = m.key.Str();
          std::size_t mark = pointer_.PushKey(key);
          DecodeMember(m.value, key, &node, &member_notes);
          pointer_.Pop(mark);
        }
        pointer_.Pop(base);
      }
    }
    for (asset_hash::AuditNote& note : asset_hash::Audit(node.spec, options_)) {
      node.notes.push_back({pointer_.str(), std::move(note), obj.offset});
    }
    for (PlacedNote& note : member_notes) node.notes.push_back(std::move(note));
    return node;
  }

  // Decodes one member of `parent`'s asset map (at pointer_).
  void DecodeMember(const json::Value& v, std::string& key, Node* parent,
                    std::vector<PlacedNote>* notes) {
    SigKind sig = state::ClassifySignature(v);
    if (sig != SigKind::kAsset && sig != SigKind::kArchive) {
      if (parent->invalid.empty()) {
        parent->invalid = "member '" + key + "' is not an asset or archive";
      }
      return;
    }
    Node child = Decode(v, KindOf(v));
    if (!child.invalid.empty() && parent->invalid.empty()) {
      parent->invalid = "member '" + key + "': " + child.invalid;
    }
    if (parent->first_member_item == kNoMemberItem) {
      parent->first_member_item =
          IsMemberItem(v) ? v.offset : child.first_member_item;
    }
    // A member item carries its own notes (EmitMembers decodes it again).
    if (!IsMemberItem(v)) {
      for (PlacedNote& n : child.notes) notes->push_back(std::move(n));
    }
    parent->spec.assets.emplace_back(std::move(key), std::move(child.spec));
  }

  std::string urn_;
  const asset_hash::Options& options_;
  const ItemCallback& found_;
  json::PointerBuilder pointer_;
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
