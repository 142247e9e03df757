// The one hash table keyed by 128-bit fingerprints (base/fingerprint.h):
// what verify's integrity rules and diff's order check keep instead of URN
// strings. Open addressing with linear probing, at most half full; the key
// {0, 0} marks an empty slot (FingerprintOf never returns it; a key made by
// mixing fingerprints may, with odds of 2^-128, and is kept beside the
// slots). Slots move only when the table grows, which invalidates pointers
// to values.
#ifndef PSTATE_BASE_FINGERPRINT_TABLE_H_
#define PSTATE_BASE_FINGERPRINT_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/fingerprint.h"

namespace pstate {

/// A value type that costs no room: FingerprintTable<NoValue> is a set.
struct NoValue {};

template <typename V>
class FingerprintTable {
 public:
  /// The value of `key`, value-initialised when the key is new; second is
  /// true when it was.
  std::pair<V*, bool> Insert(const Fingerprint& key) {
    if (key.empty()) {
      bool added = !has_empty_key_;
      size_ += added ? 1 : 0;
      has_empty_key_ = true;
      return {&empty_key_value_, added};
    }
    if ((size_ + 1) * 2 > slots_.size()) {
      Grow(slots_.empty() ? 1024 : slots_.size() * 2);
    }
    Slot& slot = slots_[SlotOf(key)];
    if (!slot.key.empty()) return {&slot.value, false};
    slot.key = key;
    ++size_;
    return {&slot.value, true};
  }
  /// The value of `key`, or null when it is absent.
  const V* Find(const Fingerprint& key) const {
    if (key.empty()) return has_empty_key_ ? &empty_key_value_ : nullptr;
    if (slots_.empty()) return nullptr;
    const Slot& slot = slots_[SlotOf(key)];
    return slot.key.empty() ? nullptr : &slot.value;
  }
  V* Find(const Fingerprint& key) {
    return const_cast<V*>(std::as_const(*this).Find(key));
  }
  bool Contains(const Fingerprint& key) const { return Find(key) != nullptr; }
  std::size_t size() const { return size_; }
  /// Bytes held by the slots.
  std::size_t memory() const { return slots_.capacity() * sizeof(Slot); }
  /// Room for `n` keys without growing: a table whose size is known
  /// never holds its old and new slots at once.
  void Reserve(std::size_t n) {
    std::size_t slots = slots_.empty() ? 1024 : slots_.size();
    while (slots < 2 * n) slots *= 2;
    if (slots > slots_.size()) Grow(slots);
  }
  void Clear() {
    slots_.clear();
    size_ = 0;
    has_empty_key_ = false;
    empty_key_value_ = V{};
  }

 private:
  struct Slot {
    Fingerprint key;
    [[no_unique_address]] V value{};
  };

  /// The slot holding `key`, or the empty slot where it would go.
  std::size_t SlotOf(const Fingerprint& key) const {
    std::size_t mask = slots_.size() - 1;
    std::size_t i = static_cast<std::size_t>(key.lo) & mask;
    while (!slots_[i].key.empty() && !(slots_[i].key == key)) {
      i = (i + 1) & mask;
    }
    return i;
  }
  void Grow(std::size_t slots) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(slots, Slot{});
    for (Slot& s : old) {
      if (!s.key.empty()) slots_[SlotOf(s.key)] = std::move(s);
    }
  }

  std::vector<Slot> slots_;  ///< a power of two, or empty
  std::size_t size_ = 0;
  bool has_empty_key_ = false;
  V empty_key_value_{};
};

/// A set of fingerprints (16 bytes a slot).
using FingerprintSet = FingerprintTable<NoValue>;

}  // namespace pstate

#endif  // PSTATE_BASE_FINGERPRINT_TABLE_H_
