#include "pstate/state/secret_object.h"

namespace pstate::state {
namespace {

char Lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool EqualFoldAscii(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != Lower(b[i])) return false;
  }
  return true;
}

bool IsLowerHex(std::string_view s) {
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

const json::Value* FindLast(const json::Value& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const json::Value* found = nullptr;
  for (const json::Member& m : object.object()) {
    if (m.key.StrEquals(key)) found = &m.value;
  }
  return found;
}

bool KeyMatches(const json::Value& key, std::string_view name) {
  if (!key.has_escapes) return EqualFoldAscii(key.raw(), name);
  return EqualFoldAscii(key.Str(), name);
}

bool IsPstatePlaceholder(std::string_view text) {
  static constexpr std::string_view kText = "[redacted by pstate]";
  static constexpr std::string_view kPrefix = "hmac-sha256:";
  if (text == kText || text == "\"[redacted by pstate]\"") return true;
  // The ciphertext, base64 and salt placeholders all end in the base64 of
  // "\"[redacted by pstate]\"".
  static constexpr std::string_view kBase64 =
      "IltyZWRhY3RlZCBieSBwc3RhdGVdIg==";
  if (text.size() >= kBase64.size() &&
      text.substr(text.size() - kBase64.size()) == kBase64) {
    return true;
  }
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    text = text.substr(1, text.size() - 2);
  }
  return text.size() == kPrefix.size() + 64 &&
         text.substr(0, kPrefix.size()) == kPrefix &&
         IsLowerHex(text.substr(kPrefix.size()));
}

}  // namespace pstate::state
