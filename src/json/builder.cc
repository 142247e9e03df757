#include "pstate/json/builder.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "pstate/json/string_codec.h"

namespace pstate::json {
namespace {

constexpr std::size_t kNpos = static_cast<std::size_t>(-1);

/// Applies `order` (a permutation of indices) to `items`; returns whether
/// anything moved.
template <typename T>
bool Permute(std::vector<T>* items, const std::vector<std::size_t>& order) {
  bool moved = false;
  for (std::size_t i = 0; i < order.size(); ++i) moved |= order[i] != i;
  if (!moved) return false;
  std::vector<T> out;
  out.reserve(items->size());
  for (std::size_t i : order) out.push_back(std::move((*items)[i]));
  *items = std::move(out);
  return true;
}

std::vector<std::size_t> Identity(std::size_t n) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  return order;
}

}  // namespace

// ObjectBuilder ------------------------------------------------------------

ObjectBuilder::ObjectBuilder(const Value& object) {
  if (!object.is_object()) return;
  original_ = object;
  has_original_ = true;
  entries_.reserve(object.size);
  for (const Member& m : object.object()) {
    Entry e;
    e.key = m.key;
    e.has_key_value = true;
    if (m.key.has_escapes) {
      e.decoded = m.key.Str();
      e.use_decoded = true;
    }
    e.value = m.value;
    entries_.push_back(std::move(e));
  }
}

ObjectBuilder::Entry ObjectBuilder::MakeEntry(std::string_view key,
                                              Value value) {
  Entry e;
  e.decoded = std::string(key);
  e.use_decoded = true;
  e.value = value;
  return e;
}

std::size_t ObjectBuilder::FindLast(std::string_view key) const {
  for (std::size_t i = entries_.size(); i > 0; --i) {
    if (entries_[i - 1].name() == key) return i - 1;
  }
  return kNpos;
}

const Value* ObjectBuilder::Get(std::string_view key) const {
  std::size_t i = FindLast(key);
  return i == kNpos ? nullptr : &entries_[i].value;
}

std::vector<std::string> ObjectBuilder::Keys() const {
  std::vector<std::string> keys;
  keys.reserve(entries_.size());
  for (const Entry& e : entries_) keys.emplace_back(e.name());
  return keys;
}

void ObjectBuilder::Set(std::string_view key, Value value) {
  std::size_t last = FindLast(key);
  if (last == kNpos) {
    entries_.push_back(MakeEntry(key, value));
    changed_ = true;
    return;
  }
  // Drop earlier duplicates, then replace the survivor's value; its key
  // keeps its spelling.
  std::size_t out = 0;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (i < last && entries_[i].name() == key) {
      changed_ = true;
      continue;
    }
    if (out != i) entries_[out] = std::move(entries_[i]);
    ++out;
  }
  entries_.resize(out);
  Entry& e = entries_[FindLast(key)];
  // Any replacement counts as a change, even by an equal value: callers
  // asked for this exact value (offsets, spelling).
  e.value = value;
  changed_ = true;
}

std::size_t ObjectBuilder::Remove(std::string_view key) {
  std::size_t before = entries_.size();
  std::erase_if(entries_, [&](const Entry& e) { return e.name() == key; });
  std::size_t removed = before - entries_.size();
  if (removed > 0) changed_ = true;
  return removed;
}

bool ObjectBuilder::Insert(std::string_view anchor, std::string_view key,
                           Value value, bool after) {
  if (FindLast(anchor) == kNpos) return false;
  if (anchor == key) {
    Set(key, value);
    return true;
  }
  Remove(key);
  std::size_t at = FindLast(anchor) + (after ? 1 : 0);
  entries_.insert(entries_.begin() + static_cast<std::ptrdiff_t>(at),
                  MakeEntry(key, value));
  changed_ = true;
  return true;
}

bool ObjectBuilder::InsertBefore(std::string_view anchor, std::string_view key,
                                 Value value) {
  return Insert(anchor, key, value, /*after=*/false);
}

bool ObjectBuilder::InsertAfter(std::string_view anchor, std::string_view key,
                                Value value) {
  return Insert(anchor, key, value, /*after=*/true);
}

void ObjectBuilder::RemoveShadowed() {
  std::vector<Entry> kept;
  kept.reserve(entries_.size());
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (FindLast(entries_[i].name()) != i) {
      changed_ = true;
      continue;
    }
    kept.push_back(std::move(entries_[i]));
  }
  entries_ = std::move(kept);
}

void ObjectBuilder::Reorder(
    const std::function<bool(std::string_view, std::string_view)>& less) {
  std::vector<std::size_t> order = Identity(entries_.size());
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return less(entries_[a].name(), entries_[b].name());
                   });
  if (Permute(&entries_, order)) changed_ = true;
}

void ObjectBuilder::Reorder(std::span<const std::string_view> keys) {
  // Rank of each entry: its key's first position in `keys`, or keys.size()
  // for keys not listed (they keep their order after the listed ones).
  std::vector<std::size_t> rank(entries_.size(), keys.size());
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    auto it = std::find(keys.begin(), keys.end(), entries_[i].name());
    if (it != keys.end()) {
      rank[i] = static_cast<std::size_t>(it - keys.begin());
    }
  }
  std::vector<std::size_t> order = Identity(entries_.size());
  std::stable_sort(
      order.begin(), order.end(),
      [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; });
  if (Permute(&entries_, order)) changed_ = true;
}

void ObjectBuilder::SortKeysBytewise() {
  // std::string_view compares through char_traits<char>, which orders
  // characters as unsigned char: the same as Go's byte-wise string order.
  Reorder([](std::string_view a, std::string_view b) { return a < b; });
}

Value ObjectBuilder::Build(Arena& arena) const {
  if (has_original_ && !changed_) return original_;
  std::vector<Member> members;
  members.reserve(entries_.size());
  for (const Entry& e : entries_) {
    Member m;
    m.key = e.has_key_value ? e.key : arena.MakeString(e.decoded);
    m.value = e.value;
    members.push_back(m);
  }
  return arena.MakeObject(members, has_original_ ? original_.offset : 0);
}

// ArrayBuilder -------------------------------------------------------------

ArrayBuilder::ArrayBuilder(const Value& array) {
  if (!array.is_array()) return;
  original_ = array;
  has_original_ = true;
  elements_.assign(array.array().begin(), array.array().end());
}

void ArrayBuilder::Append(Value value) {
  elements_.push_back(value);
  changed_ = true;
}

bool ArrayBuilder::Insert(std::size_t index, Value value) {
  if (index > elements_.size()) return false;
  elements_.insert(elements_.begin() + static_cast<std::ptrdiff_t>(index),
                   value);
  changed_ = true;
  return true;
}

bool ArrayBuilder::Set(std::size_t index, Value value) {
  if (index >= elements_.size()) return false;
  elements_[index] = value;
  changed_ = true;
  return true;
}

bool ArrayBuilder::Erase(std::size_t index, std::size_t count) {
  if (index > elements_.size()) return false;
  std::size_t n = std::min(count, elements_.size() - index);
  if (n == 0) return true;
  auto first = elements_.begin() + static_cast<std::ptrdiff_t>(index);
  elements_.erase(first, first + static_cast<std::ptrdiff_t>(n));
  changed_ = true;
  return true;
}

std::size_t ArrayBuilder::EraseIf(
    const std::function<bool(const Value&)>& pred) {
  std::size_t removed = std::erase_if(elements_, pred);
  if (removed > 0) changed_ = true;
  return removed;
}

void ArrayBuilder::Reorder(
    const std::function<bool(const Value&, const Value&)>& less) {
  std::vector<std::size_t> order = Identity(elements_.size());
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return less(elements_[a], elements_[b]);
                   });
  if (Permute(&elements_, order)) changed_ = true;
}

bool ArrayBuilder::Reorder(std::span<const std::size_t> order) {
  if (order.size() != elements_.size()) return false;
  std::vector<bool> seen(order.size(), false);
  for (std::size_t i : order) {
    if (i >= order.size() || seen[i]) return false;
    seen[i] = true;
  }
  if (Permute(&elements_,
              std::vector<std::size_t>(order.begin(), order.end()))) {
    changed_ = true;
  }
  return true;
}

Value ArrayBuilder::Build(Arena& arena) const {
  if (has_original_ && !changed_) return original_;
  return arena.MakeArray(elements_, has_original_ ? original_.offset : 0);
}

}  // namespace pstate::json
