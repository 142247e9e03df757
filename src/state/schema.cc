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

Exposure ExposureOf(std::string_view key, std::span<const Field> fields) {
  std::string_view name = MatchField(key, fields);
  if (name.empty()) return Exposure::kPlain;
  return FindField(fields, name)->exposure;
}

namespace {
bool IsPlainCommandWord(std::string_view word) {
  if (word.empty() || word[0] == '-') return false;
  for (char c : word) {
    bool ok =
        (c >= 'a' && c <= 'z') || c == '/' || c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}
}  // namespace

CommandHead SplitCommandLine(std::string_view text) {
  CommandHead head;
  std::size_t pos = 0;
  for (int words = 0; words < 2; ++words) {
    std::size_t begin = text.find_first_not_of(' ', pos);
    if (begin == std::string_view::npos) break;
    std::size_t end = text.find(' ', begin);
    std::string_view word = text.substr(begin, end == std::string_view::npos
                                                   ? std::string_view::npos
                                                   : end - begin);
    if (!IsPlainCommandWord(word)) break;
    if (!head.shown.empty()) head.shown += ' ';
    head.shown += word;
    pos = end == std::string_view::npos ? text.size() : end;
  }
  head.rest = text.find_first_not_of(' ', pos) != std::string_view::npos;
  return head;
}

const ReferenceField* FindReferenceField(std::string_view name) {
  for (const ReferenceField& f : kReferenceFields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

}  // namespace pstate::state
