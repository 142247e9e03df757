// Editing objects and arrays without touching the original tree.
//
// Values are immutable views (value.h), so an edit builds a new container
// value. The builders copy only the container being edited: members and
// elements they do not change are shared with the original, keys keep
// their original escaped spelling, and Build() returns the original value
// itself when nothing changed. Build allocates the new member or element
// array (and any new key text) in the given Arena; the values passed to
// Set/Append/Insert are stored as they are (shallow), so their storage
// must live at least as long as the built value.
//
// Keys are given and compared unescaped ("\u0061" is the key "a").
#ifndef PSTATE_JSON_BUILDER_H_
#define PSTATE_JSON_BUILDER_H_

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pstate/json/value.h"

namespace pstate::json {

class ObjectBuilder {
 public:
  /// An empty object.
  ObjectBuilder() = default;
  /// Starts from the members of `object` (duplicates included, in order).
  /// Anything else than an object starts empty.
  explicit ObjectBuilder(const Value& object);

  /// Number of members, duplicates included.
  std::size_t size() const { return entries_.size(); }
  /// The value of the last member named `key` (the one Go's decoder
  /// keeps), or nullptr.
  const Value* Get(std::string_view key) const;
  bool Has(std::string_view key) const { return Get(key) != nullptr; }
  /// The unescaped keys, in order (duplicates included).
  std::vector<std::string> Keys() const;

  /// Replaces the value of the member named `key` in place, or appends a
  /// member when there is none. With duplicates, the last occurrence (the
  /// one that counts) is replaced and the earlier ones are removed, so the
  /// key means `value` unambiguously.
  void Set(std::string_view key, Value value);
  /// Removes every member named `key`; returns how many there were.
  std::size_t Remove(std::string_view key);
  /// Inserts a member before (after) the last member named `anchor`,
  /// first removing any member already named `key` (so it moves). False,
  /// and nothing changes, when there is no `anchor`. When `key` is
  /// `anchor`, this is Set(key, value).
  [[nodiscard]] bool InsertBefore(std::string_view anchor, std::string_view key,
                                  Value value);
  [[nodiscard]] bool InsertAfter(std::string_view anchor, std::string_view key,
                                 Value value);
  /// Removes members shadowed by a later member of the same key; the
  /// survivors keep their places.
  void RemoveShadowed();

  /// Stable sort by unescaped key with `less`.
  void Reorder(
      const std::function<bool(std::string_view, std::string_view)>& less);
  /// Members named in `keys` first, in that order (all occurrences of a
  /// key, in their relative order), then the others in their current
  /// order. Keys in the list that no member has are ignored.
  void Reorder(std::span<const std::string_view> keys);
  void Reorder(std::initializer_list<std::string_view> keys) {
    Reorder(std::span<const std::string_view>(keys.begin(), keys.size()));
  }
  /// Stable sort by the unescaped key bytes, compared as unsigned bytes:
  /// the order Go's json.Marshal writes map keys in.
  void SortKeysBytewise();

  /// The edited object. Returns the original value when nothing changed.
  Value Build(Arena& arena) const;

 private:
  struct Entry {
    /// The key as stored (escaped), when it came from the original or was
    /// already materialized; otherwise only `decoded` is set.
    Value key;
    bool has_key_value = false;
    /// The unescaped key when it is not simply key.raw(): new keys and
    /// original keys with escapes.
    std::string decoded;
    bool use_decoded = false;
    Value value;

    std::string_view name() const {
      return use_decoded ? std::string_view(decoded) : key.raw();
    }
  };
  /// Index of the last entry named `key`, or npos.
  std::size_t FindLast(std::string_view key) const;
  static Entry MakeEntry(std::string_view key, Value value);
  bool Insert(std::string_view anchor, std::string_view key, Value value,
              bool after);

  std::vector<Entry> entries_;
  Value original_;
  bool has_original_ = false;
  bool changed_ = false;
};

class ArrayBuilder {
 public:
  /// An empty array.
  ArrayBuilder() = default;
  /// Starts from the elements of `array`; anything else starts empty.
  explicit ArrayBuilder(const Value& array);

  std::size_t size() const { return elements_.size(); }
  const Value& operator[](std::size_t i) const { return elements_[i]; }

  void Append(Value value);
  /// Inserts before position `index` (size() appends). False when
  /// index > size().
  [[nodiscard]] bool Insert(std::size_t index, Value value);
  /// Replaces element `index`. False when out of range.
  [[nodiscard]] bool Set(std::size_t index, Value value);
  /// Removes elements [index, index + count) (clamped to the end). False
  /// when index > size().
  [[nodiscard]] bool Erase(std::size_t index, std::size_t count = 1);
  /// Removes every element for which `pred` is true; returns how many.
  std::size_t EraseIf(const std::function<bool(const Value&)>& pred);
  /// Stable sort with `less`.
  void Reorder(const std::function<bool(const Value&, const Value&)>& less);
  /// Rearranges to elements[order[0]], elements[order[1]], ... False, and
  /// nothing changes, unless `order` is a permutation of 0..size()-1.
  [[nodiscard]] bool Reorder(std::span<const std::size_t> order);

  /// The edited array. Returns the original value when nothing changed.
  Value Build(Arena& arena) const;

 private:
  std::vector<Value> elements_;
  Value original_;
  bool has_original_ = false;
  bool changed_ = false;
};

}  // namespace pstate::json

#endif  // PSTATE_JSON_BUILDER_H_
