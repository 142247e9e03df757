#include "diff/resource_diff.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <memory>
#include <span>
#include <utility>

#include "base/rfc3339.h"
#include "diff/property_path.h"
#include "json/compact.h"
#include "json/document.h"
#include "json/equal.h"
#include "json/number.h"
#include "json/string_codec.h"
#include "state/property.h"
#include "state/schema.h"
#include "state/secret_object.h"
#include "state/signature.h"

namespace pstate::diff {
namespace {

/// Whether a value is a secret for display: masked when either reading of
/// duplicate signature members calls it one (state/signature.h).
bool MaskedSecret(const json::Value& v) {
  return state::IsSecret(v, state::SecretRule::kAnySignature);
}

/// Whether a value is a secret as Pulumi reads it: what "became secret" and
/// "no longer secret" report.
bool GoSecret(const json::Value& v) {
  return state::IsSecret(v, state::SecretRule::kGo);
}

std::uint64_t Mix(std::uint64_t x) {
  // splitmix64's finalizer: spreads every input bit over the output.
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// A 64-bit hash of bytes, eight at a time (every resource of both states
/// passes through here, so a byte-at-a-time hash would be most of diff's
/// time): each step is a bijection of the state for a given word, so two
/// texts of one length that differ in one word always differ.
std::uint64_t HashBytes(std::string_view s, std::uint64_t seed = 0) {
  std::uint64_t h =
      (seed + 0x51ed27a1e5a7c3b9ULL) ^
      (static_cast<std::uint64_t>(s.size()) * 0x9e3779b97f4a7c15ULL);
  const char* p = s.data();
  std::size_t n = s.size();
  auto step = [&h](std::uint64_t w) {
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    h ^= h >> 29;
  };
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    step(w);
  }
  if (n > 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    step(w);
  }
  return Mix(h);
}

/// json::Hash's contract (equal values as json::Equal sees them hash
/// equal: numbers by value, keys unordered, the last duplicate key wins,
/// escapes resolved) with HashBytes: the digest of every resource.
std::uint64_t ValueHash(const json::Value& v);

std::uint64_t TextHash(const json::Value& v, std::uint64_t seed) {
  if (!v.has_escapes) return HashBytes(v.raw(), seed);
  return HashBytes(v.Str(), seed);
}

bool SameKey(const json::Value& a, const json::Value& b) {
  if (a.raw() == b.raw()) return true;
  if (!a.has_escapes && !b.has_escapes) return false;
  return a.Str() == b.Str();
}

std::uint64_t ValueHash(const json::Value& v) {
  enum : std::uint64_t {
    kNull = 1,
    kFalse,
    kTrue,
    kNumber,
    kString,
    kArray,
    kObject,
    kKey
  };
  switch (v.type) {
    case json::Type::kNull: return Mix(kNull);
    case json::Type::kFalse: return Mix(kFalse);
    case json::Type::kTrue: return Mix(kTrue);
    case json::Type::kNumber:
      return HashBytes(json::CanonicalNumber(v.raw()), kNumber);
    case json::Type::kString: return TextHash(v, kString);
    case json::Type::kArray: {
      std::uint64_t h = Mix(kArray ^ v.size);
      for (const json::Value& e : v.array()) h = Mix(h * 31 + ValueHash(e));
      return h;
    }
    case json::Type::kObject: {
      // A sum of member hashes does not depend on the order; a member
      // counts only when no later one has its key.
      std::span<const json::Member> members = v.object();
      std::uint64_t sum = 0, count = 0;
      auto member = [&](std::size_t i) {
        sum += Mix(TextHash(members[i].key, kKey) * 31 +
                   ValueHash(members[i].value));
        ++count;
      };
      if (members.size() <= 16) {
        for (std::size_t i = 0; i < members.size(); ++i) {
          bool last = true;
          for (std::size_t j = i + 1; last && j < members.size(); ++j) {
            last = !SameKey(members[i].key, members[j].key);
          }
          if (last) member(i);
        }
      } else {
        std::vector<std::pair<std::string, std::size_t>> keys;
        keys.reserve(members.size());
        for (std::size_t i = 0; i < members.size(); ++i) {
          keys.emplace_back(members[i].key.Str(), i);
        }
        std::stable_sort(
            keys.begin(), keys.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t k = 0; k < keys.size(); ++k) {
          if (k + 1 < keys.size() && keys[k + 1].first == keys[k].first) {
            continue;  // a later duplicate wins
          }
          member(keys[k].second);
        }
      }
      return Mix(Mix(kObject ^ count) + sum);
    }
  }
  return 0;
}

/// Go's zero value for the field's type: what omitempty drops.
bool IsZero(const json::Value* v) {
  if (v == nullptr) return true;
  switch (v->type) {
    case json::Type::kNull:
    case json::Type::kFalse: return true;
    case json::Type::kTrue: return false;
    case json::Type::kString: return v->size == 0;
    case json::Type::kNumber: return json::CanonicalNumber(v->raw()) == "0";
    case json::Type::kArray:
    case json::Type::kObject: return v->size == 0;
  }
  return false;
}

/// The resource's members by Pulumi field name (as Go matches keys; the
/// last duplicate wins); members Pulumi does not define keep their key.
/// Zero values are left out: Go treats them as absent.
std::map<std::string, const json::Value*, std::less<>> FieldsOf(
    const json::Value& resource) {
  std::map<std::string, const json::Value*, std::less<>> fields;
  if (!resource.is_object()) return fields;
  for (const json::Member& m : resource.object()) {
    std::string key = m.key.Str();
    std::string_view field = state::MatchField(key, state::kResourceFields);
    std::string name = field.empty() ? key : std::string(field);
    fields[name] = &m.value;
  }
  for (auto it = fields.begin(); it != fields.end();) {
    it = IsZero(it->second) ? fields.erase(it) : std::next(it);
  }
  return fields;
}

bool IsSetField(std::string_view name) {
  static constexpr std::array<std::string_view, 7> kSets = {
      "dependencies",  "replaceWith",      "aliases",
      "ignoreChanges", "replaceOnChanges", "additionalSecretOutputs",
      "hideDiff"};
  return std::find(kSets.begin(), kSets.end(), name) != kSets.end();
}

bool IsTimeField(std::string_view name) {
  return name == "created" || name == "modified";
}

/// The distinct decoded strings of an array of strings, sorted; nullopt
/// when an element is not a string.
std::optional<std::vector<std::string>> StringSet(const json::Value& v) {
  if (!v.is_array()) return std::nullopt;
  std::vector<std::string> out;
  out.reserve(v.size);
  for (const json::Value& e : v.array()) {
    if (!e.is_string()) return std::nullopt;
    out.push_back(e.Str());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool SetEqual(const json::Value& a, const json::Value& b) {
  auto sa = StringSet(a);
  auto sb = StringSet(b);
  if (sa && sb) return *sa == *sb;
  return json::Equal(a, b);
}

std::uint64_t SetDigest(const json::Value& v) {
  auto s = StringSet(v);
  if (!s) return ValueHash(v);
  std::uint64_t h = Mix(s->size());
  for (const std::string& e : *s) h = Mix(h ^ HashBytes(e));
  return h;
}

/// An object's non-zero members by decoded key (last wins).
std::map<std::string, const json::Value*> NonZeroMembers(const json::Value& v) {
  std::map<std::string, const json::Value*> out;
  for (const json::Member& m : v.object()) out[m.key.Str()] = &m.value;
  for (auto it = out.begin(); it != out.end();) {
    it = IsZero(it->second) ? out.erase(it) : std::next(it);
  }
  return out;
}

bool FieldEqual(std::string_view name, const json::Value* a,
                const json::Value* b) {
  if (IsZero(a) || IsZero(b)) return IsZero(a) && IsZero(b);
  if (IsSetField(name)) return SetEqual(*a, *b);
  if (IsTimeField(name) && a->is_string() && b->is_string()) {
    auto ta = ParseTimestamp(a->Str());
    auto tb = ParseTimestamp(b->Str());
    if (ta && tb) return *ta == *tb;
  }
  if ((name == "propertyDependencies" || name == "customTimeouts") &&
      a->is_object() && b->is_object()) {
    auto ma = NonZeroMembers(*a);
    auto mb = NonZeroMembers(*b);
    if (ma.size() != mb.size()) return false;
    for (auto ia = ma.begin(), ib = mb.begin(); ia != ma.end(); ++ia, ++ib) {
      if (ia->first != ib->first) return false;
      bool same = name == "propertyDependencies"
                      ? SetEqual(*ia->second, *ib->second)
                      : json::Equal(*ia->second, *ib->second);
      if (!same) return false;
    }
    return true;
  }
  return json::Equal(*a, *b);
}

std::uint64_t FieldDigest(std::string_view name, const json::Value& v) {
  if (IsSetField(name)) return SetDigest(v);
  if (IsTimeField(name) && v.is_string()) {
    if (auto t = ParseTimestamp(v.Str())) {
      return Mix(static_cast<std::uint64_t>(t->seconds) ^
                 Mix(static_cast<std::uint64_t>(t->nanos)));
    }
  }
  if ((name == "propertyDependencies" || name == "customTimeouts") &&
      v.is_object()) {
    std::uint64_t h = 0;
    for (const auto& [key, member] : NonZeroMembers(v)) {
      std::uint64_t mh = name == "propertyDependencies" ? SetDigest(*member)
                                                        : ValueHash(*member);
      h += Mix(HashBytes(key) ^ mh);
    }
    return h;
  }
  return ValueHash(v);
}

// ---- secrets --------------------------------------------------------------

/// A secret's plaintext JSON text: its "plaintext" member, or its
/// "ciphertext" opened with `opener`. nullopt when it cannot be had.
std::optional<std::string> OpenSecret(const json::Value& secret,
                                      const SecretOpener* opener) {
  if (const json::Value* p = state::FindLast(secret, "plaintext");
      p != nullptr && p->is_string()) {
    return p->Str();
  }
  const json::Value* c = state::FindLast(secret, "ciphertext");
  if (c == nullptr || !c->is_string() || opener == nullptr) {
    return std::nullopt;
  }
  Result<std::string> plain = opener->Open(c->Str());
  if (!plain.ok()) return std::nullopt;
  return std::move(plain).value();
}

/// The display value of a property value: a visitor of the property walker
/// that keeps every value as stored (strings and numbers in their stored
/// spelling, every member of any object) except secrets under either rule,
/// which become hidden secrets or, shown, secrets holding their value.
class Display {
 public:
  Display(const SecretOpener* opener, bool show)
      : opener_(opener), show_(show) {}

  Value Take() { return std::move(root_); }

  state::Step Visit(const state::PropertyNode& node,
                    state::PropertyCursor& at) {
    Value* v = &root_;
    if (!open_.empty()) {
      // open_.back() is the innermost container being filled: only it
      // grows, so the pointers to the containers around it stay valid.
      Value& parent = *open_.back();
      if (parent.kind == ValueKind::kObject) {
        parent.members.push_back(
            {node.key != nullptr ? std::string(node.key->raw()) : "", {}});
        v = &parent.members.back().value;
      } else {
        v = &parent.elements.emplace_back();
      }
    }
    const json::Value& j = *node.value;
    switch (j.type) {
      case json::Type::kNull: v->kind = ValueKind::kNull; break;
      case json::Type::kTrue:
      case json::Type::kFalse:
        v->kind = ValueKind::kBool;
        v->boolean = j.type == json::Type::kTrue;
        break;
      case json::Type::kNumber:
        v->kind = ValueKind::kNumber;
        v->text = j.raw();
        break;
      case json::Type::kString:
        v->kind = ValueKind::kString;
        v->text = j.raw();
        break;
      case json::Type::kArray:
        v->kind = ValueKind::kArray;
        return Open(v, at, state::Step::kDescend);
      case json::Type::kObject:
        if (node.kind == state::PropertyKind::kSecret) {
          Secret(j, v);
          break;
        }
        v->kind = ValueKind::kObject;
        return Open(v, at,
                    node.is_signature() ? state::Step::kDescendAll
                                        : state::Step::kDescend);
    }
    return state::Step::kSkip;
  }

  void Leave(const state::PropertyNode&, state::PropertyCursor&) {
    open_.pop_back();
  }

 private:
  /// Descends into the container `v` unless it lies at the walk's depth
  /// limit, where the walk neither descends nor calls Leave: a value
  /// nested that deep (only a crafted file has one) shows empty.
  state::Step Open(Value* v, const state::PropertyCursor& at,
                   state::Step step) {
    static const int kMaxDepth = state::WalkOptions().max_depth;
    if (at.depth() >= kMaxDepth) return state::Step::kSkip;
    open_.push_back(v);
    return step;
  }

  void Secret(const json::Value& secret, Value* v) const {
    v->kind = ValueKind::kSecret;
    if (!show_) return;
    std::optional<std::string> plain = OpenSecret(secret, opener_);
    if (!plain) return;
    auto doc = json::Document::Parse(*plain);
    if (!doc.ok()) return;
    v->elements.push_back(DisplayValue(doc->root(), opener_, show_));
  }

  const SecretOpener* opener_;
  bool show_;
  Value root_;
  std::vector<Value*> open_;
};

/// The changes between two property values: a visitor of the paired walk
/// (state/property.h), which pairs members by key in Go's sorted order and
/// elements by index.
class Changes {
 public:
  /// The length of the path at the parent pair.
  struct Level {
    std::size_t path_size = 0;
  };

  Changes(const DiffOptions& options, Section section, std::string path,
          std::vector<PropertyChange>* out)
      : options_(options),
        section_(section),
        path_(std::move(path)),
        out_(out) {}

  Level Root() const { return {path_.size()}; }

  state::Step Visit(const state::PropertyPair& pair, Level& level) {
    path_.resize(level.path_size);
    if (pair.is_member) AppendPathKey(&path_, pair.key);
    if (pair.is_element) AppendPathIndex(&path_, pair.index);
    level.path_size = path_.size();
    const json::Value* a = pair.a.value;
    const json::Value* b = pair.b.value;
    if (a == nullptr && b == nullptr) return state::Step::kSkip;
    if (a == nullptr) return Add(ChangeKind::kAdd, a, b);
    if (b == nullptr) return Add(ChangeKind::kDelete, a, b);
    // The walk runs under kAnySignature: kSecret is MaskedSecret.
    if (pair.a.kind == state::PropertyKind::kSecret ||
        pair.b.kind == state::PropertyKind::kSecret) {
      Secrets(*a, *b);
      return state::Step::kSkip;
    }
    // Plain objects (no signature member, whatever the rule) and arrays are
    // paired below; anything else is compared whole.
    if ((pair.a.kind == state::PropertyKind::kObject &&
         pair.b.kind == state::PropertyKind::kObject) ||
        (a->is_array() && b->is_array())) {
      return state::Step::kDescend;
    }
    if (!json::Equal(*a, *b)) return Add(ChangeKind::kUpdate, a, b);
    return state::Step::kSkip;
  }

 private:
  std::optional<Value> Display(const json::Value* v, bool before) const {
    if (v == nullptr) return std::nullopt;
    return DisplayValue(
        *v, before ? options_.before_secrets : options_.after_secrets,
        options_.show_secrets);
  }

  state::Step Add(ChangeKind kind, const json::Value* a, const json::Value* b) {
    PropertyChange c;
    c.section = section_;
    c.path = path_;
    c.kind = kind;
    c.secret = (a != nullptr && MaskedSecret(*a)) ||
               (b != nullptr && MaskedSecret(*b));
    c.before = Display(a, true);
    c.after = Display(b, false);
    out_->push_back(std::move(c));
    return state::Step::kSkip;
  }

  void Secrets(const json::Value& a, const json::Value& b) {
    bool sa = GoSecret(a), sb = GoSecret(b);
    if (!sa && !sb) {
      // Secrets only to a reader that keeps another duplicate signature
      // member: compared as stored, displayed masked.
      if (!json::Equal(a, b)) Add(ChangeKind::kUpdate, &a, &b);
      return;
    }
    if (sa && sb) {
      if (json::Equal(a, b)) return;
      auto pa = OpenSecret(a, options_.before_secrets);
      auto pb = OpenSecret(b, options_.after_secrets);
      if (pa && pb) {
        auto da = json::Document::Parse(*pa);
        auto db = json::Document::Parse(*pb);
        bool same = da.ok() && db.ok() ? json::Equal(da->root(), db->root())
                                       : *pa == *pb;
        if (same) return;
        Add(ChangeKind::kUpdate, &a, &b);
        return;
      }
      Add(ChangeKind::kUpdate, &a, &b);
      out_->back().unknown = true;
      return;
    }
    Add(ChangeKind::kUpdate, &a, &b);
    PropertyChange& c = out_->back();
    c.transition =
        sa ? SecretTransition::kToPlaintext : SecretTransition::kToSecret;
    // The plaintext side holds what is (or was) a secret's value.
    if (!options_.show_secrets) {
      c.before = HiddenSecret();
      c.after = HiddenSecret();
    }
  }

  const DiffOptions& options_;
  Section section_;
  std::string path_;
  std::vector<PropertyChange>* out_;
};

std::optional<Value> Shown(const json::Value* v) {
  if (v == nullptr) return std::nullopt;
  return DisplayValue(*v);
}

}  // namespace

std::string_view SectionName(Section section) {
  return section == Section::kInputs ? "inputs" : "outputs";
}

std::string_view ChangeKindName(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::kAdd: return "add";
    case ChangeKind::kDelete: return "delete";
    case ChangeKind::kUpdate: return "update";
  }
  return "update";
}

Value DisplayValue(const json::Value& value, const SecretOpener* opener,
                   bool show) {
  Display display(opener, show);
  state::WalkOptions options;
  options.secret_rule = state::SecretRule::kAnySignature;  // MaskedSecret
  state::WalkProperties(value, display, options);
  return display.Take();
}

Value HiddenSecret() {
  Value v;
  v.kind = ValueKind::kSecret;
  return v;
}

void DiffPropertyValue(const json::Value* before, const json::Value* after,
                       Section section, const std::string& path,
                       const DiffOptions& options,
                       std::vector<PropertyChange>* out) {
  Changes changes(options, section, path, out);
  state::WalkOptions walk;
  walk.secret_rule = state::SecretRule::kAnySignature;  // MaskedSecret
  state::WalkPropertyPairs(before, after, changes, walk, changes.Root());
}

ResourceChanges DiffResource(const json::Value& before,
                             const json::Value& after,
                             const DiffOptions& options) {
  ResourceChanges changes;
  auto fa = FieldsOf(before);
  auto fb = FieldsOf(after);
  static const json::Value kEmptyObject = [] {
    json::Value v;
    v.type = json::Type::kObject;
    return v;
  }();
  for (Section section : {Section::kInputs, Section::kOutputs}) {
    std::string_view name = SectionName(section);
    auto ia = fa.find(name);
    auto ib = fb.find(name);
    const json::Value* a = ia == fa.end() ? &kEmptyObject : ia->second;
    const json::Value* b = ib == fb.end() ? &kEmptyObject : ib->second;
    DiffPropertyValue(a, b, section, "", options, &changes.properties);
  }
  auto compare = [&](const std::string& name) {
    if (name == "urn" || name == "inputs" || name == "outputs") return;
    auto ia = fa.find(name);
    auto ib = fb.find(name);
    const json::Value* a = ia == fa.end() ? nullptr : ia->second;
    const json::Value* b = ib == fb.end() ? nullptr : ib->second;
    if (FieldEqual(name, a, b)) return;
    FieldChange c;
    c.name = name;
    c.kind = a == nullptr   ? ChangeKind::kAdd
             : b == nullptr ? ChangeKind::kDelete
                            : ChangeKind::kUpdate;
    c.before = Shown(a);
    c.after = Shown(b);
    // A flag that is absent is false: show it as flipped, not removed.
    const state::Field* f = state::FindField(state::kResourceFields, name);
    if (f != nullptr && f->kind == state::FieldKind::kBool) {
      c.kind = ChangeKind::kUpdate;
      Value no;
      no.kind = ValueKind::kBool;
      if (!c.before) c.before = no;
      if (!c.after) c.after = no;
    }
    changes.fields.push_back(std::move(c));
  };
  for (const state::Field& f : state::kResourceFields) {
    compare(std::string(f.name));
  }
  // Members Pulumi does not define, by key.
  std::map<std::string, bool> extra;
  for (const auto& [name, v] : fa) extra[name] = true;
  for (const auto& [name, v] : fb) extra[name] = true;
  for (const auto& [name, unused] : extra) {
    if (state::FindField(state::kResourceFields, name) == nullptr) {
      compare(name);
    }
  }
  return changes;
}

std::uint64_t ResourceDigest(const json::Value& resource) {
  // The fields FieldsOf would give, without its map: this runs on every
  // resource of both states. A resource has a few dozen members at most,
  // so the last-wins lookup is a short linear scan.
  struct Item {
    std::string_view view;
    std::string owned;  ///< a decoded key Pulumi does not define
    const json::Value* value;
    std::string_view name() const {
      return owned.empty() ? view : std::string_view(owned);
    }
  };
  std::vector<Item> items;
  if (resource.is_object()) {
    items.reserve(resource.size);
    std::string decoded;
    for (const json::Member& m : resource.object()) {
      std::string_view key = m.key.raw();
      if (m.key.has_escapes) {
        decoded = m.key.Str();
        key = decoded;
      }
      std::string_view field = state::MatchField(key, state::kResourceFields);
      Item item{field.empty() ? key : field, {}, &m.value};
      if (field.empty() && m.key.has_escapes) item.owned = decoded;
      auto same = std::find_if(items.begin(), items.end(), [&](const Item& i) {
        return i.name() == item.name();
      });
      if (same != items.end()) {
        same->value = &m.value;  // Go keeps the last duplicate
      } else {
        items.push_back(std::move(item));
      }
    }
  }
  std::uint64_t h = 0x5d1ffe7c0ffeeULL;
  for (const Item& item : items) {
    if (IsZero(item.value)) continue;
    h += Mix(HashBytes(item.name()) ^ FieldDigest(item.name(), *item.value));
  }
  return Mix(h);
}

std::optional<Instant> ParseTimestamp(std::string_view t) {
  std::optional<GoTime> time = ParseRfc3339(t);
  if (!time) return std::nullopt;
  return Instant{time->UnixSeconds(), time->nanos};
}

}  // namespace pstate::diff

namespace pstate {

std::string Value::Str() const {
  return kind == ValueKind::kString ? json::Unescape(text) : std::string();
}

bool operator==(const Value& a, const Value& b) {
  if (a.kind != b.kind || a.boolean != b.boolean || a.text != b.text ||
      a.elements != b.elements || a.members.size() != b.members.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.members.size(); ++i) {
    if (a.members[i].key != b.members[i].key ||
        a.members[i].value != b.members[i].value) {
      return false;
    }
  }
  return true;
}

}  // namespace pstate
