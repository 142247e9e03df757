#include "diff/property_path.h"

#include "base/ascii.h"

namespace pstate::diff {

bool KeyNeedsQuotes(std::string_view key) {
  if (key.empty()) return true;
  for (char c : key) {
    bool plain = ascii::IsAlnum(c) || c == '_';
    if (!plain) return true;
  }
  return false;
}

void AppendPathKey(std::string* path, std::string_view key) {
  if (!KeyNeedsQuotes(key)) {
    if (!path->empty()) path->push_back('.');
    path->append(key);
    return;
  }
  path->append("[\"");
  for (char c : key) {
    if (c == '"') path->push_back('\\');
    path->push_back(c);
  }
  path->append("\"]");
}

void AppendPathIndex(std::string* path, std::size_t index) {
  path->push_back('[');
  path->append(std::to_string(index));
  path->push_back(']');
}

}  // namespace pstate::diff
