// The names of one declaration (object attributes, Struct keys, object
// value members) by name, for the type-expression parsers and checkers: a
// repeat is found with one hash probe, so a type or value of n names costs
// O(n), not the O(n²) of comparing each new name with every earlier one.
#ifndef PSTATE_TYPES_NAME_INDEX_H_
#define PSTATE_TYPES_NAME_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace pstate::types {

class NameIndex {
 public:
  /// Adds `name` at `index` and returns nullopt, or, when `name` is
  /// already there, returns the index it was added with (unchanged).
  std::optional<std::size_t> Insert(std::string_view name, std::size_t index);
  /// The index `name` was added with, or nullopt.
  std::optional<std::size_t> Find(std::string_view name) const;
  std::size_t size() const { return names_.size(); }
  bool empty() const { return names_.empty(); }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const {
      return std::hash<std::string_view>()(s);
    }
  };
  struct Equal {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const;
  };
  std::unordered_map<std::string, std::size_t, Hash, Equal> names_;
};

/// How many name comparisons every NameIndex of this thread has made: the
/// work the linearity tests bound (a hash probe compares a name with the
/// few that share its bucket).
std::uint64_t NameComparisons();

}  // namespace pstate::types

#endif  // PSTATE_TYPES_NAME_INDEX_H_
