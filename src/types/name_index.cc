#include "types/name_index.h"

namespace pstate::types {
namespace {
thread_local std::uint64_t comparisons = 0;
}  // namespace

bool NameIndex::Equal::operator()(std::string_view a,
                                  std::string_view b) const {
  ++comparisons;
  return a == b;
}

std::optional<std::size_t> NameIndex::Insert(std::string_view name,
                                             std::size_t index) {
  auto it = names_.find(name);
  if (it != names_.end()) return it->second;
  names_.emplace(std::string(name), index);
  return std::nullopt;
}

std::optional<std::size_t> NameIndex::Find(std::string_view name) const {
  auto it = names_.find(name);
  if (it == names_.end()) return std::nullopt;
  return it->second;
}

std::uint64_t NameComparisons() { return comparisons; }

}  // namespace pstate::types
