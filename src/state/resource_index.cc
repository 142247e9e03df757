#include "state/resource_index.h"

#include <utility>

namespace pstate::state {

void ResourceIndex::Reserve(std::size_t n) {
  std::size_t slots = first_.empty() ? 1024 : first_.size();
  while (slots < 2 * n) slots *= 2;
  if (slots > first_.size()) Rehash(slots);
}

std::size_t ResourceIndex::Slot(const Fingerprint& key) const {
  std::size_t mask = first_.size() - 1;
  std::size_t slot = static_cast<std::size_t>(key.lo) & mask;
  while (first_[slot] != kNone && !(entries_[first_[slot]].key == key)) {
    slot = (slot + 1) & mask;
  }
  return slot;
}

void ResourceIndex::Grow() {
  Rehash(first_.empty() ? 1024 : first_.size() * 2);
}

void ResourceIndex::Rehash(std::size_t size) {
  std::vector<std::uint32_t> old_first = std::move(first_);
  std::vector<std::uint32_t> old_last = std::move(last_);
  first_.assign(size, kNone);
  last_.assign(size, kNone);
  for (std::size_t i = 0; i < old_first.size(); ++i) {
    if (old_first[i] == kNone) continue;
    std::size_t slot = Slot(entries_[old_first[i]].key);
    first_[slot] = old_first[i];
    last_[slot] = old_last[i];
  }
}

std::uint32_t ResourceIndex::Add(const Fingerprint& key, ByteRange range) {
  // Keep the load factor under 1/2.
  if ((entries_.size() + 1) * 2 > first_.size()) Grow();
  auto position = static_cast<std::uint32_t>(entries_.size());
  entries_.push_back({key, range, kNone});
  std::size_t slot = Slot(key);
  if (first_[slot] == kNone) {
    first_[slot] = position;
  } else {
    entries_[last_[slot]].next = position;
  }
  last_[slot] = position;
  return position;
}

void ResourceIndex::Clear() {
  entries_.clear();
  first_.clear();
  last_.clear();
}

std::uint32_t ResourceIndex::First(const Fingerprint& key) const {
  if (first_.empty()) return kNone;
  return first_[Slot(key)];
}

std::size_t ResourceIndex::memory() const {
  return entries_.capacity() * sizeof(Entry) +
         (first_.capacity() + last_.capacity()) * sizeof(std::uint32_t);
}

}  // namespace pstate::state
