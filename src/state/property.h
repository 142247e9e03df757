// The one walker over Pulumi property values: a resource's inputs and
// outputs, a pending operation's resource, a secret's payload, anything
// under a property map. Every command that looks inside property values
// (verify's checks, scan's rules, the asset finder, the known-secrets
// collector, decrypt/encrypt, redact, diff's display, show, stats, edit's
// reference index and rewrites, typecheck's masking) is a visitor of it;
// what compares two values in step (diff's changes, typecheck's results)
// is a visitor of its paired form, WalkPropertyPairs (below). What an
// object is comes from the one signature recognizer (state/signature.h).
//
// Decoding follows Pulumi's DeserializePropertyValue
// (pkg/resource/stack/deployment.go) and the Deserialize functions of
// sdk/go/common/resource/asset/asset.go and archive/archive.go:
//  - an object with the signature key (kSigKey, state/signature.h)
//    (sdk/go/common/resource/sig/sig.go) is a special value; the key and
//    the fields are matched exactly (Go decodes into a map, not a struct),
//    and of duplicate members the LAST one counts, as Go's decoder keeps it;
//  - a signature member whose value is not a string, or a string naming no
//    kind, is unrecognized (Go compares the interface{} to the kind strings
//    and falls through to "unrecognized signature"); so is the output-value
//    signature, which is gRPC-only (sdk/go/common/resource/plugin/rpc.go);
//  - a string equal to the computed sentinel is the unknown value, at any
//    depth;
//  - a secret needs exactly one of "ciphertext" / "plaintext" as a string (a
//    non-string counts as absent), and it must be non-empty. Its payload is
//    the JSON text of the secret's value; inside a payload, nested secrets
//    hold their JSON text under "ciphertext" (Pulumi serializes them with a
//    no-op encrypter).
// Where pstate is stricter than Go it says so below (PropertyProblem), and
// visitors may be stricter still (verify wants 16 lowercase hex digits in a
// special float, where Go's strconv.ParseUint takes 1 to 16 of either case).
//
// The walk is a template over the visitor (no virtual call, no
// std::function per node): it is the inner loop of verify, scan and redact.
// A visitor provides
//    Step Visit(const PropertyNode& node, PropertyCursor& at);
// or, to carry state per level,
//    struct Level { ... };   // copyable
//    Step Visit(const PropertyNode& node, PropertyCursor& at, Level& level);
// where `level` arrives as a copy of the parent's Level (the root gets the
// one given to the walk) and what Visit leaves in it is what each child
// receives: that is how a visitor descends in step with something of its
// own (a type, a second value, the nearest property name). An optional
//    void Leave(const PropertyNode& node, PropertyCursor& at);
// runs after the walk descended into a node. A visitor that has nothing to
// do with scalars says
//    static constexpr bool kVisitScalars = false;
// (in a function's local class, which cannot have static data members:
// enum { kVisitScalars = false };) and the walk does not call it for the null,
// bool, number and string members and elements of objects and arrays (the root,
// a payload's root and the members of an archive's "assets" map are always
// visited): most of a state's values are scalars.
//
// The JSON pointer of the current node is kept as a stack of segments and
// spelled out only when a visitor asks (PropertyCursor::Pointer): no string
// is built on the hot path. Inside a secret's payload, object keys are part
// of the secret: pointers show "*" in their place.
#ifndef PSTATE_STATE_PROPERTY_H_
#define PSTATE_STATE_PROPERTY_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "json/parser.h"
#include "json/pointer.h"
#include "json/value.h"
#include "state/signature.h"

namespace pstate::state {

/// Why Pulumi's reader would refuse a signature object (the first reason in
/// the order Go checks). Never describes secret text.
enum class PropertyProblem : std::uint8_t {
  kNone,
  kSecretNoPayload,     ///< neither "ciphertext" nor "plaintext" is a string
  kSecretBothPayloads,  ///< both are strings
  kSecretEmptyPayload,  ///< the one given is ""
  kAssetField,          ///< "hash", "text", "path" or "uri" not a string
  kArchiveField,        ///< "hash", "path" or "uri" not a string
  kArchiveAssets,       ///< "assets" neither null nor an object
  /// A member of "assets" that is not an asset or archive (only the
  /// members' kinds are looked at here; their own problems are theirs).
  kArchiveMember,
  kReferenceUrn,             ///< "urn" missing or not a string
  kReferencePackageVersion,  ///< "packageVersion" not a string
  /// "id" neither a string nor the legacy {"V": null|string|object}.
  kReferenceId,
  /// "value" not 1 to 16 hex digits (strconv.ParseUint(v, 16, 64)).
  kSpecialFloatValue,
  /// "value" not standard padded base64 (Go's base64.StdEncoding, which
  /// skips CR and LF).
  kByteStringValue,
  kUnrecognizedSignature,  ///< kOutputValue and kUnrecognized
};

std::string_view PropertyProblemText(PropertyProblem problem);

/// One value as Pulumi reads it, decoded one level deep.
struct PropertyNode {
  PropertyKind kind = PropertyKind::kNull;
  PropertyProblem problem = PropertyProblem::kNone;
  const json::Value* value = nullptr;  ///< the value as stored
  /// The member key (escaped text) the value sits under; nullptr for the
  /// root, an array element and a payload's root.
  const json::Value* key = nullptr;
  std::size_t index = 0;  ///< the position of an array element
  /// The value of the signature member that decided the kind; nullptr for
  /// a value that is not a signature object.
  const json::Value* signature = nullptr;
  /// Signature fields, the last of duplicates; nullptr when absent.
  const json::Value* fields[4] = {nullptr, nullptr, nullptr, nullptr};

  bool is_signature() const { return kind >= PropertyKind::kSecret; }
  // kSecret
  const json::Value* ciphertext() const { return fields[0]; }
  const json::Value* plaintext() const { return fields[1]; }
  // kAsset and kArchive
  const json::Value* hash() const { return fields[0]; }
  const json::Value* path() const { return fields[1]; }
  const json::Value* uri() const { return fields[2]; }
  const json::Value* text() const { return fields[3]; }    ///< asset only
  const json::Value* assets() const { return fields[3]; }  ///< archive only
  // kResourceReference
  const json::Value* urn() const { return fields[0]; }
  const json::Value* id() const { return fields[1]; }
  const json::Value* package_version() const { return fields[2]; }
  // kSpecialFloat and kByteString
  const json::Value* payload_value() const { return fields[0]; }
};

/// Decodes one object: RecognizeSignature (state/signature.h), then the
/// fields of the kind it found.
PropertyNode DecodeObject(const json::Value& value, SecretRule rule);

/// Decodes one value without descending into it.
inline PropertyNode DecodeProperty(const json::Value& value,
                                   SecretRule rule = SecretRule::kGo) {
  PropertyNode node;
  node.value = &value;
  switch (value.type) {
    case json::Type::kNull: node.kind = PropertyKind::kNull; break;
    case json::Type::kFalse:
    case json::Type::kTrue: node.kind = PropertyKind::kBool; break;
    case json::Type::kNumber: node.kind = PropertyKind::kNumber; break;
    case json::Type::kString:
      // The sentinel never needs escapes; an escaped spelling still counts.
      node.kind =
          (value.size == kUnknownValue.size() && !value.has_escapes &&
           std::memcmp(value.text, kUnknownValue.data(), value.size) == 0) ||
                  (value.has_escapes && value.StrEquals(kUnknownValue))
              ? PropertyKind::kUnknown
              : PropertyKind::kString;
      break;
    case json::Type::kArray: node.kind = PropertyKind::kArray; break;
    case json::Type::kObject: return DecodeObject(value, rule);
  }
  return node;
}

/// What the walk does after visiting a node.
enum class Step : std::uint8_t {
  /// Descend as Pulumi reads the value: an array's elements, a plain
  /// object's members, an archive's "assets" members, a secret's payload
  /// (parsed; see PropertyCursor::Payload). Other signature objects and
  /// scalars have nothing below them.
  kDescend,
  /// Descend into the stored JSON: the members of any object, a signature
  /// object's included (its signature members left out), never a payload.
  kDescendRaw,
  /// kDescendRaw with the signature members too: every member of any
  /// object as stored (a display that masks secrets shows the rest as
  /// stored). Never a payload.
  kDescendAll,
  kSkip,  ///< nothing below this node
  kStop,  ///< end the walk now
};

/// Decrypts a depth-0 "ciphertext" to the payload's JSON text; nullopt when
/// it cannot (same type as scan::Decryptor).
using PayloadDecryptor =
    std::function<std::optional<std::string>(std::string_view ciphertext)>;

struct WalkOptions {
  /// The JSON pointer of the walked value; Pointer() starts with it.
  std::string_view base_pointer;
  SecretRule secret_rule = SecretRule::kGo;
  /// Payloads nest inside payloads at most this deep; a deeper secret is
  /// visited but not descended into (Payload says kTooDeep). Real states
  /// nest a level or two; only a crafted file goes deeper.
  int max_secret_depth = 16;
  /// Values nested deeper than this (payloads included) are visited but not
  /// descended into; PropertyCursor::truncated() then says so. Bounds the
  /// recursion whatever the input.
  int max_depth = 1024;
  /// Optional: decrypts depth-0 ciphertexts so the walk can descend into
  /// them. Without it, a ciphertext secret's payload is unavailable.
  const PayloadDecryptor* decrypt = nullptr;
};

/// A secret's payload parsed as JSON.
struct PropertyPayload {
  enum class Status : std::uint8_t {
    kOk,
    /// Not readable here: a malformed secret, or a depth-0 ciphertext
    /// without (or refused by) a decryptor.
    kUnavailable,
    kInvalid,  ///< the text is not JSON (error_offset, size say where)
    kTooDeep,  ///< beyond WalkOptions::max_secret_depth
  };
  Status status = Status::kUnavailable;
  const json::Value* value = nullptr;  ///< kOk: the payload's root
  /// The member that held the text: "plaintext" or "ciphertext", and its
  /// string Value (node.plaintext() or node.ciphertext()).
  std::string_view field;
  const json::Value* source = nullptr;
  std::uint64_t error_offset = 0;  ///< kInvalid: byte of the text (0-based)
  std::size_t size = 0;            ///< kInvalid: bytes in the decoded text
};

/// The walk's state as a visitor sees it: where the current node is, the
/// payload of a secret, and (in rewriting walks) the place to put a
/// replacement. Valid during Visit/Leave only.
class PropertyCursor {
 public:
  PropertyCursor(const PropertyCursor&) = delete;
  PropertyCursor& operator=(const PropertyCursor&) = delete;

  /// The RFC 6901 pointer of the current node (built on each call).
  std::string Pointer() const;
  /// Nesting below the walked value (its root is 0; a payload's root is one
  /// below its secret).
  int depth() const { return static_cast<int>(path_.size()); }
  /// How many secret payloads the current node is inside.
  int secret_depth() const { return secret_depth_; }
  bool in_secret() const { return secret_depth_ > 0; }
  /// Where to locate a finding about `v` in the file: v's own offset, or
  /// inside a payload (whose offsets count from the payload's start) the
  /// outermost payload string's offset.
  std::uint64_t Offset(const json::Value& v) const {
    return secret_depth_ > 0 ? payload_place_ : v.offset;
  }
  /// True when some value lay deeper than WalkOptions::max_depth.
  bool truncated() const { return truncated_; }

  /// Parses the payload of `secret` (a kSecret node being visited): the
  /// "plaintext" text, else the "ciphertext" text inside a payload (Pulumi's
  /// no-op encrypter), else at depth 0 the decryptor's result. Kept until
  /// the walk moves on from the node; Step::kDescend walks it.
  const PropertyPayload& Payload(const PropertyNode& secret);

  /// Rewriting walks (RewriteProperties) only: the current node is replaced
  /// by `value` (allocated in arena()) and not descended into, whatever
  /// Visit returns but kStop. Ignored inside a secret's payload, which is
  /// text in the output.
  void Replace(const json::Value& value) {
    replacement_ = value;
    has_replacement_ = true;
  }
  /// The output arena of a rewriting walk; nullptr in a reading walk.
  json::Arena* arena() const { return arena_; }

 protected:
  PropertyCursor(const WalkOptions& options, json::Arena* arena)
      : options_(options), arena_(arena), path_(options.base_pointer) {}
  ~PropertyCursor();

  void PushKey(const json::Value& key) {
    path_.PushKey(key, /*hidden=*/secret_depth_ > 0);
  }
  void PushIndex(std::size_t index) { path_.PushIndex(index); }
  void PushLiteral(std::string_view token) { path_.PushName(token); }
  void Pop() { path_.Pop(); }
  /// Enters `payload` (Payload(...) returned kOk for the current node).
  void EnterPayload(const PropertyNode& secret, const PropertyPayload& p);
  void LeavePayload();

  const WalkOptions& options_;
  json::Arena* arena_;
  json::PointerPath path_;  ///< the current node, below base_pointer
  int secret_depth_ = 0;
  std::uint64_t payload_place_ = 0;
  bool truncated_ = false;
  bool has_replacement_ = false;
  json::Value replacement_;

 private:
  json::Parser parser_;
  json::Arena payload_arena_;
  const json::Value* payload_for_ = nullptr;  // the node Payload() parsed
  PropertyPayload payload_;
  std::string payload_text_;
};

namespace property_internal {

template <typename V>
concept HasLevel = requires {
  typename V::Level;
};

template <typename V>
concept SkipsScalars = requires {
  requires !static_cast<bool>(V::kVisitScalars);
};

template <typename V>
concept HasLeave = requires(V& v, const PropertyNode& n, PropertyCursor& c) {
  v.Leave(n, c);
};

struct NoLevel {};

template <typename V>
struct LevelOf {
  using type = NoLevel;
};
template <HasLevel V>
struct LevelOf<V> {
  using type = typename V::Level;
};

/// The recursion behind WalkProperties and RewriteProperties. In a
/// rewriting walk, containers on the path to a replacement are copied into
/// the arena (copy-on-write); everything else is shared with the input.
template <typename Visitor, bool kRewrite>
class Walker : public PropertyCursor {
 public:
  using Level = typename LevelOf<Visitor>::type;

  Walker(Visitor& visitor, const WalkOptions& options, json::Arena* arena)
      : PropertyCursor(options, arena), visitor_(visitor) {}

  /// Returns false when the visitor stopped the walk.
  bool Run(const json::Value& root, const Level& level, json::Value* out) {
    bool changed = false;
    bool go = Walk(root, nullptr, 0, level, out, &changed);
    if (kRewrite && !changed) *out = root;
    return go;
  }

 private:
  Step CallVisit(const PropertyNode& node, Level& level) {
    if constexpr (HasLevel<Visitor>) {
      return visitor_.Visit(node, *this, level);
    } else {
      (void)level;
      return visitor_.Visit(node, *this);
    }
  }

  // Walks `v`. In a rewriting walk, sets *out and *changed when something
  // at or under `v` was replaced (outside payloads: `out` is null there).
  bool Walk(const json::Value& v, const json::Value* key, std::size_t index,
            const Level& parent, json::Value* out, bool* changed) {
    PropertyNode node = DecodeProperty(v, options_.secret_rule);
    node.key = key;
    node.index = index;
    Level level = parent;
    Step step = CallVisit(node, level);
    if constexpr (kRewrite) {
      if (has_replacement_) {
        has_replacement_ = false;
        if (out != nullptr) {
          *out = replacement_;
          *changed = true;
        }
        return step != Step::kStop;
      }
    }
    if (step == Step::kStop) return false;
    if (step == Step::kSkip) return true;
    if (depth() >= options_.max_depth) {
      if (v.size > 0 && (v.is_array() || v.is_object())) truncated_ = true;
      return true;
    }
    bool go = true;
    if (v.is_array()) {
      go = WalkElements(v, level, out, changed);
    } else if (node.kind == PropertyKind::kObject ||
               (v.is_object() &&
                (step == Step::kDescendRaw || step == Step::kDescendAll))) {
      go = WalkMembers(v, node.is_signature() && step != Step::kDescendAll,
                       /*every=*/false, level, out, changed);
    } else if (node.kind == PropertyKind::kArchive) {
      go = WalkArchive(v, node, level, out, changed);
    } else if (node.kind == PropertyKind::kSecret) {
      go = WalkPayload(node, level);
    }
    if constexpr (HasLeave<Visitor>) {
      if (go) visitor_.Leave(node, *this);
    }
    return go;
  }

  bool WalkElements(const json::Value& v, const Level& level, json::Value* out,
                    bool* changed) {
    json::Value* copy = nullptr;
    for (std::size_t i = 0; i < v.size; ++i) {
      if constexpr (SkipsScalars<Visitor>) {
        if (!v.elements[i].is_array() && !v.elements[i].is_object()) continue;
      }
      PushIndex(i);
      json::Value child;
      bool child_changed = false;
      bool go =
          Walk(v.elements[i], nullptr, i, level,
               kRewrite && out != nullptr ? &child : nullptr, &child_changed);
      Pop();
      if (kRewrite && child_changed) {
        if (copy == nullptr) {
          copy = arena_->Allocate<json::Value>(v.size);
          std::copy(v.elements, v.elements + v.size, copy);
        }
        copy[i] = child;
      }
      if (!go) return Finish(v, copy, out, changed, false);
    }
    return Finish(v, copy, out, changed, true);
  }

  // `every`: visit scalar members too, whatever the visitor says.
  bool WalkMembers(const json::Value& v, bool skip_signature, bool every,
                   const Level& level, json::Value* out, bool* changed) {
    json::Member* copy = nullptr;
    for (std::size_t i = 0; i < v.size; ++i) {
      const json::Member& m = v.members[i];
      if constexpr (SkipsScalars<Visitor>) {
        if (!every && !m.value.is_array() && !m.value.is_object()) continue;
      }
      if (skip_signature && IsSignatureKey(m.key)) continue;
      PushKey(m.key);
      json::Value child;
      bool child_changed = false;
      bool go =
          Walk(m.value, &m.key, i, level,
               kRewrite && out != nullptr ? &child : nullptr, &child_changed);
      Pop();
      if (kRewrite && child_changed) {
        if (copy == nullptr) {
          copy = arena_->Allocate<json::Member>(v.size);
          std::copy(v.members, v.members + v.size, copy);
        }
        copy[i].value = child;
      }
      if (!go) return Finish(v, copy, out, changed, false);
    }
    return Finish(v, copy, out, changed, true);
  }

  // An archive's "assets" map (the last "assets" member, as Go reads it).
  bool WalkArchive(const json::Value& v, const PropertyNode& node,
                   const Level& level, json::Value* out, bool* changed) {
    const json::Value* assets = node.assets();
    if (assets == nullptr || !assets->is_object()) return true;
    PushLiteral("assets");
    json::Value new_assets;
    bool assets_changed = false;
    bool go = WalkMembers(*assets, false, /*every=*/true, level,
                          kRewrite && out != nullptr ? &new_assets : nullptr,
                          &assets_changed);
    Pop();
    if constexpr (kRewrite) {
      if (assets_changed) {
        auto* copy = arena_->Allocate<json::Member>(v.size);
        std::copy(v.members, v.members + v.size, copy);
        copy[MemberIndex(v, assets)].value = new_assets;
        json::Value o = v;
        o.members = copy;
        *out = o;
        *changed = true;
      }
    }
    return go;
  }

  bool WalkPayload(const PropertyNode& node, const Level& level) {
    const PropertyPayload& p = Payload(node);
    if (p.status != PropertyPayload::Status::kOk) return true;
    const json::Value* root = p.value;
    PushLiteral(p.field);
    EnterPayload(node, p);
    bool unused = false;
    bool go = Walk(*root, nullptr, 0, level, nullptr, &unused);
    LeavePayload();
    Pop();
    return go;
  }

  static std::size_t MemberIndex(const json::Value& object,
                                 const json::Value* member_value) {
    for (std::size_t i = 0; i < object.size; ++i) {
      if (&object.members[i].value == member_value) return i;
    }
    return 0;
  }

  template <typename T>
  static bool Finish(const json::Value& v, T* copy, json::Value* out,
                     bool* changed, bool go) {
    if constexpr (kRewrite) {
      if (copy != nullptr && out != nullptr) {
        json::Value o = v;
        if constexpr (std::is_same_v<T, json::Member>) {
          o.members = copy;
        } else {
          o.elements = copy;
        }
        *out = o;
        *changed = true;
      }
    } else {
      (void)v;
      (void)copy;
      (void)out;
      (void)changed;
    }
    return go;
  }

  Visitor& visitor_;
};

}  // namespace property_internal

/// Walks `root` in document order (pre-order), calling `visitor` on every
/// node the visitor lets the walk reach. Returns false when the visitor
/// stopped it.
template <typename Visitor>
bool WalkProperties(
    const json::Value& root, Visitor& visitor, const WalkOptions& options = {},
    const typename property_internal::LevelOf<Visitor>::type& level = {}) {
  property_internal::Walker<Visitor, false> walker(visitor, options, nullptr);
  return walker.Run(root, level, nullptr);
}

/// The same walk, copy-on-write: where the visitor calls
/// PropertyCursor::Replace, that subtree is replaced in the result;
/// containers on the path to a replacement are copied into `arena`, and
/// everything else is shared with `root` (unchanged input gives `root`
/// back). A stopped walk keeps the replacements made before the stop.
template <typename Visitor>
json::Value RewriteProperties(
    const json::Value& root, json::Arena& arena, Visitor& visitor,
    const WalkOptions& options = {},
    const typename property_internal::LevelOf<Visitor>::type& level = {}) {
  property_internal::Walker<Visitor, true> walker(visitor, options, &arena);
  json::Value out;
  walker.Run(root, level, &out);
  return out;
}

// ---- the paired walk ------------------------------------------------------
//
// Two values in step (diff's before and after, typecheck's two results):
// the same place in both, as Pulumi's engine pairs them when it diffs
// property values (sdk/go/common/resource/properties_diff.go): an object's
// members by key, in bytewise key order (Go sorts map keys), the last of
// duplicate keys on each side; an array's elements by index. A member or
// element only one side has is visited with the other side absent. A
// visitor provides
//    Step Visit(const PropertyPair& pair);
// or, with a Level as in WalkProperties,
//    Step Visit(const PropertyPair& pair, Level& level);
// Step::kDescend descends when both sides are arrays, or both are plain
// objects (PropertyKind::kObject under the walk's rule); Step::kDescendRaw
// and kDescendAll when both are arrays or both objects of any kind (all
// members as stored, signature members included). Nothing else is paired: a
// secret's payload is text that a visitor comparing payloads parses and
// walks itself.

/// One place in two values; a side's node has value == nullptr when that
/// side has nothing there.
struct PropertyPair {
  PropertyNode a;
  PropertyNode b;
  /// The decoded member key both sides share (is_member), else "".
  std::string_view key;
  bool is_member = false;
  bool is_element = false;
  std::size_t index = 0;  ///< is_element: the element's position
  int depth = 0;          ///< nesting below the walked roots (they are 0)

  bool has_a() const { return a.value != nullptr; }
  bool has_b() const { return b.value != nullptr; }
};

namespace property_internal {

/// One side's object members sorted by decoded key, the last of
/// duplicates kept.
struct KeyedMember {
  std::string_view key;
  const json::Value* value;
};

template <typename Visitor>
class PairWalker {
 public:
  using Level = typename LevelOf<Visitor>::type;

  PairWalker(Visitor& visitor, const WalkOptions& options)
      : visitor_(visitor), options_(options) {}

  bool Run(const json::Value* a, const json::Value* b, const Level& level) {
    PropertyPair pair;
    return Walk(pair, a, b, level);
  }

 private:
  PropertyNode Decode(const json::Value* v) const {
    return v == nullptr ? PropertyNode{}
                        : DecodeProperty(*v, options_.secret_rule);
  }

  bool Walk(PropertyPair& pair, const json::Value* a, const json::Value* b,
            const Level& parent) {
    pair.a = Decode(a);
    pair.b = Decode(b);
    Level level = parent;
    Step step;
    if constexpr (HasLevel<Visitor>) {
      step = visitor_.Visit(pair, level);
    } else {
      step = visitor_.Visit(pair);
    }
    if (step == Step::kStop) return false;
    if (step == Step::kSkip || a == nullptr || b == nullptr) return true;
    if (pair.depth >= options_.max_depth) return true;
    if (a->is_array() && b->is_array()) return Elements(*a, *b, pair, level);
    bool plain = pair.a.kind == PropertyKind::kObject &&
                 pair.b.kind == PropertyKind::kObject;
    if (a->is_object() && b->is_object() &&
        (plain || step == Step::kDescendRaw || step == Step::kDescendAll)) {
      return Members(*a, *b, pair.depth + 1, level);
    }
    return true;
  }

  bool Elements(const json::Value& a, const json::Value& b,
                const PropertyPair& parent, const Level& level) {
    std::size_t n = std::max<std::size_t>(a.size, b.size);
    PropertyPair pair;
    pair.is_element = true;
    pair.depth = parent.depth + 1;
    for (std::size_t i = 0; i < n; ++i) {
      pair.index = i;
      if (!Walk(pair, i < a.size ? &a.elements[i] : nullptr,
                i < b.size ? &b.elements[i] : nullptr, level)) {
        return false;
      }
    }
    return true;
  }

  bool Members(const json::Value& a, const json::Value& b, int depth,
               const Level& level) {
    // The sorted lists live in pools indexed by depth: no allocation once
    // the walk has been as deep before.
    std::size_t slot = static_cast<std::size_t>(depth) * 2;
    if (sorted_.size() < slot + 2) sorted_.resize(slot + 2);
    std::size_t decoded_mark = decoded_.size();
    Sort(a, &sorted_[slot]);
    Sort(b, &sorted_[slot + 1]);
    const std::vector<KeyedMember>& ma = sorted_[slot];
    const std::vector<KeyedMember>& mb = sorted_[slot + 1];
    PropertyPair pair;
    pair.is_member = true;
    pair.depth = depth;
    bool go = true;
    for (std::size_t ia = 0, ib = 0;
         go && (ia < ma.size() || ib < mb.size());) {
      int order = ia == ma.size()   ? 1
                  : ib == mb.size() ? -1
                                    : ma[ia].key.compare(mb[ib].key);
      pair.key = order <= 0 ? ma[ia].key : mb[ib].key;
      go = Walk(pair, order <= 0 ? ma[ia].value : nullptr,
                order >= 0 ? mb[ib].value : nullptr, level);
      if (order <= 0) ++ia;
      if (order >= 0) ++ib;
    }
    decoded_.resize(decoded_mark);
    return go;
  }

  void Sort(const json::Value& object, std::vector<KeyedMember>* out) {
    out->clear();
    for (const json::Member& m : object.object()) {
      std::string_view key = m.key.raw();
      if (m.key.has_escapes) {
        decoded_.push_back(m.key.Str());
        key = decoded_.back();
      }
      out->push_back({key, &m.value});
    }
    std::stable_sort(out->begin(), out->end(),
                     [](const KeyedMember& x, const KeyedMember& y) {
                       return x.key < y.key;
                     });
    // Of equal keys the last (in document order) wins, as in Go's map.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < out->size(); ++i) {
      if (i + 1 < out->size() && (*out)[i + 1].key == (*out)[i].key) continue;
      (*out)[kept++] = (*out)[i];
    }
    out->resize(kept);
  }

  Visitor& visitor_;
  const WalkOptions& options_;
  // A deque: growing it keeps the lists of the levels above in place.
  std::deque<std::vector<KeyedMember>> sorted_;
  std::deque<std::string> decoded_;  // escaped keys, decoded
};

}  // namespace property_internal

/// Walks `a` and `b` in step (see "the paired walk" above); either may be
/// nullptr. Uses WalkOptions::secret_rule and max_depth (pairs deeper are
/// visited, not descended into); no pointers, no payloads, no decryptor.
/// Returns false when the visitor stopped it.
template <typename Visitor>
bool WalkPropertyPairs(
    const json::Value* a, const json::Value* b, Visitor& visitor,
    const WalkOptions& options = {},
    const typename property_internal::LevelOf<Visitor>::type& level = {}) {
  property_internal::PairWalker<Visitor> walker(visitor, options);
  return walker.Run(a, b, level);
}

/// `value` (a property value) with the "urn" of every resource reference
/// in it (state/signature.h) replaced by what `map` gives for it (nullopt:
/// kept): how a rename or a stack rename rewrites references in inputs
/// and outputs. Secrets are not looked into (their payload is text);
/// other signature objects' members are, as stored. Containers on the path
/// to a change are copied into `arena`; `*changed` is set when one was
/// made (never cleared).
json::Value MapResourceReferences(
    const json::Value& value, json::Arena& arena,
    const std::function<std::optional<json::Value>(const json::Value& urn)>&
        map,
    bool* changed);

}  // namespace pstate::state

#endif  // PSTATE_STATE_PROPERTY_H_
