#include "json/equal.h"

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "json/number.h"
#include "json/string_codec.h"

namespace pstate::json {
namespace {

/// Objects up to this size are compared and hashed with quadratic scans
/// that allocate nothing; larger ones through a sorted member list.
constexpr std::size_t kSmallObject = 16;

/// Equal string texts (values or keys) after unescaping.
bool TextsEqual(const Value& a, const Value& b) {
  if (a.raw() == b.raw()) return true;
  if (!a.has_escapes && !b.has_escapes) return false;
  if (!a.has_escapes) return b.StrEquals(a.raw());
  if (!b.has_escapes) return a.StrEquals(b.raw());
  return Unescape(a.raw()) == Unescape(b.raw());
}

/// True when no later member of `members` has the key of members[i]: only
/// such members count (Go's decoder keeps the last duplicate).
bool IsLastOccurrence(std::span<const Member> members, std::size_t i) {
  for (std::size_t j = i + 1; j < members.size(); ++j) {
    if (TextsEqual(members[j].key, members[i].key)) return false;
  }
  return true;
}

/// The value of the last member of `members` whose key equals `key`.
const Value* FindLast(std::span<const Member> members, const Value& key) {
  for (std::size_t i = members.size(); i > 0; --i) {
    if (TextsEqual(members[i - 1].key, key)) return &members[i - 1].value;
  }
  return nullptr;
}

/// An object's effective members (last occurrence of each key), sorted by
/// unescaped key.
class EffectiveMembers {
 public:
  explicit EffectiveMembers(std::span<const Member> members) {
    std::size_t escaped = 0;
    for (const Member& m : members) {
      if (m.key.has_escapes) ++escaped;
    }
    // Reserved up front: the views below point into these strings.
    decoded_.reserve(escaped);
    entries_.reserve(members.size());
    for (std::size_t i = 0; i < members.size(); ++i) {
      const Member& m = members[i];
      std::string_view key = m.key.raw();
      if (m.key.has_escapes) {
        decoded_.push_back(Unescape(key));
        key = decoded_.back();
      }
      entries_.push_back({key, i, &m.value});
    }
    std::sort(entries_.begin(), entries_.end(),
              [](const Entry& x, const Entry& y) {
                if (x.key != y.key) return x.key < y.key;
                return x.index < y.index;
              });
    // Keep the last of each run of equal keys.
    std::size_t out = 0;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (i + 1 < entries_.size() && entries_[i + 1].key == entries_[i].key) {
        continue;
      }
      entries_[out++] = entries_[i];
    }
    entries_.resize(out);
  }

  struct Entry {
    std::string_view key;
    std::size_t index;
    const Value* value;
  };
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<std::string> decoded_;
  std::vector<Entry> entries_;
};

bool ObjectsEqual(const Value& a, const Value& b) {
  std::span<const Member> x = a.object();
  std::span<const Member> y = b.object();
  // Same key texts in the same order (the usual case: two versions of one
  // resource): duplicates sit at the same places, so compare member by
  // member, skipping shadowed ones.
  bool same_keys = x.size() == y.size();
  for (std::size_t i = 0; same_keys && i < x.size(); ++i) {
    same_keys = x[i].key.raw() == y[i].key.raw();
  }
  if (same_keys && x.size() <= kSmallObject) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!IsLastOccurrence(x, i)) continue;
      if (!Equal(x[i].value, y[i].value)) return false;
    }
    return true;
  }
  if (x.size() <= kSmallObject && y.size() <= kSmallObject) {
    std::size_t distinct_x = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!IsLastOccurrence(x, i)) continue;
      ++distinct_x;
      const Value* other = FindLast(y, x[i].key);
      if (other == nullptr || !Equal(x[i].value, *other)) return false;
    }
    // Every distinct key of `a` is in `b`; equal counts make the key sets
    // equal.
    std::size_t distinct_y = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
      if (IsLastOccurrence(y, i)) ++distinct_y;
    }
    return distinct_x == distinct_y;
  }
  EffectiveMembers ex(x);
  EffectiveMembers ey(y);
  const auto& p = ex.entries();
  const auto& q = ey.entries();
  if (p.size() != q.size()) return false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i].key != q[i].key) return false;
  }
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!Equal(*p[i].value, *q[i].value)) return false;
  }
  return true;
}

// Hashing: FNV-1a over bytes, finished with the SplitMix64 mixer so that
// nearby inputs spread; combinations below keep types and structure apart.

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;

std::uint64_t Mix(std::uint64_t h) {
  h += 0x9e3779b97f4a7c15ULL;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

std::uint64_t HashBytes(std::string_view bytes, std::uint64_t seed) {
  std::uint64_t h = kFnvOffset ^ seed;
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= kFnvPrime;
  }
  return Mix(h);
}

std::uint64_t HashText(const Value& v, std::uint64_t seed) {
  if (!v.has_escapes) return HashBytes(v.raw(), seed);
  return HashBytes(Unescape(v.raw()), seed);
}

enum Seed : std::uint64_t {
  kSeedNull = 1,
  kSeedFalse,
  kSeedTrue,
  kSeedNumber,
  kSeedString,
  kSeedArray,
  kSeedObject,
  kSeedKey,
};

std::uint64_t HashValue(const Value& v);

std::uint64_t HashMember(std::string_view decoded_key, const Value& value) {
  return Mix(HashBytes(decoded_key, kSeedKey) * 31 + HashValue(value));
}

std::uint64_t HashValue(const Value& v) {
  switch (v.type) {
    case Type::kNull: return Mix(kSeedNull);
    case Type::kFalse: return Mix(kSeedFalse);
    case Type::kTrue: return Mix(kSeedTrue);
    case Type::kNumber: return HashBytes(CanonicalNumber(v.raw()), kSeedNumber);
    case Type::kString: return HashText(v, kSeedString);
    case Type::kArray: {
      std::uint64_t h = Mix(kSeedArray ^ v.size);
      for (const Value& e : v.array()) h = Mix(h * 31 + HashValue(e));
      return h;
    }
    case Type::kObject: {
      // A sum of member hashes does not depend on the order.
      std::span<const Member> members = v.object();
      std::uint64_t sum = 0;
      std::uint64_t count = 0;
      if (members.size() <= kSmallObject) {
        for (std::size_t i = 0; i < members.size(); ++i) {
          if (!IsLastOccurrence(members, i)) continue;
          const Member& m = members[i];
          sum += m.key.has_escapes ? HashMember(m.key.Str(), m.value)
                                   : HashMember(m.key.raw(), m.value);
          ++count;
        }
      } else {
        EffectiveMembers effective(members);
        for (const auto& e : effective.entries()) {
          sum += HashMember(e.key, *e.value);
          ++count;
        }
      }
      return Mix(Mix(kSeedObject ^ count) + sum);
    }
  }
  return 0;
}

}  // namespace

bool Equal(const Value& a, const Value& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case Type::kNull:
    case Type::kFalse:
    case Type::kTrue: return true;
    case Type::kNumber: return NumbersEqual(a.raw(), b.raw());
    case Type::kString: return TextsEqual(a, b);
    case Type::kArray: {
      if (a.size != b.size) return false;
      if (a.elements == b.elements) return true;
      for (std::size_t i = 0; i < a.size; ++i) {
        if (!Equal(a.elements[i], b.elements[i])) return false;
      }
      return true;
    }
    case Type::kObject:
      if (a.size == b.size && a.members == b.members) return true;
      return ObjectsEqual(a, b);
  }
  return false;
}

std::uint64_t Hash(const Value& value) { return HashValue(value); }

}  // namespace pstate::json
