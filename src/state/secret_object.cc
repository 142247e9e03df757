#include "state/secret_object.h"

#include "base/ascii.h"
#include "base/hex.h"

namespace pstate::state {

const json::Value* FindLast(const json::Value& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const json::Value* found = nullptr;
  for (const json::Member& m : object.object()) {
    if (m.key.StrEquals(key)) found = &m.value;
  }
  return found;
}

bool KeyMatches(const json::Value& key, std::string_view name) {
  if (!key.has_escapes) return ascii::EqualFold(key.raw(), name);
  return ascii::EqualFold(key.Str(), name);
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
  return text.substr(0, kPrefix.size()) == kPrefix &&
         IsLowerHex(text.substr(kPrefix.size()), 64);
}

}  // namespace pstate::state
