#include "state/schema.h"

#include "base/ascii.h"

namespace pstate::state {
namespace {

using ascii::ToLower;

/// Go's encoding/json matches a key to a struct field by exact name first,
/// then case-insensitively (bytes.EqualFold-like folding, in which the
/// Kelvin sign U+212A folds to 'k' and the long s U+017F to 's').
bool FoldEquals(std::string_view key, std::string_view field) {
  std::size_t i = 0;
  for (char fc : field) {
    if (i >= key.size()) return false;
    char f = ToLower(fc);
    if (ToLower(key[i]) == f) {
      ++i;
      continue;
    }
    if (f == 'k' && key.substr(i, 3) == "\xE2\x84\xAA") {
      i += 3;
      continue;
    }
    if (f == 's' && key.substr(i, 2) == "\xC5\xBF") {
      i += 2;
      continue;
    }
    return false;
  }
  return i == key.size();
}

}  // namespace

std::string_view MatchField(std::string_view key,
                            std::span<const Field> fields) {
  for (const Field& f : fields) {
    if (key == f.name) return f.name;
  }
  for (const Field& f : fields) {
    if (FoldEquals(key, f.name)) return f.name;
  }
  return {};
}

const Field* FindField(std::span<const Field> fields, std::string_view name) {
  for (const Field& f : fields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const ReferenceField* FindReferenceField(std::string_view name) {
  for (const ReferenceField& f : kReferenceFields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

}  // namespace pstate::state
