#include "crypto/ciphertext.h"

#include "base/base64.h"

namespace pstate::crypto {
namespace {

std::size_t CountColons(std::string_view text) {
  std::size_t count = 0;
  for (char c : text) count += c == ':';
  return count;
}

}  // namespace

std::optional<std::string> PassphraseCiphertextShapeProblem(
    std::string_view text) {
  const std::size_t colons = CountColons(text);
  if (colons != 2) {
    return "expected 3 ':'-separated parts (v1:<nonce>:<ciphertext>), found " +
           std::to_string(colons + 1);
  }
  const std::size_t first = text.find(':');
  const std::size_t second = text.find(':', first + 1);
  const std::string_view version = text.substr(0, first);
  const std::string_view nonce = text.substr(first + 1, second - first - 1);
  const std::string_view sealed = text.substr(second + 1);
  if (version != "v1")
    return std::string("unknown ciphertext version (expected v1)");
  const long long nonce_bytes = Base64DecodedSize(nonce);
  if (nonce_bytes < 0) return std::string("nonce is not valid base64");
  if (nonce_bytes != static_cast<long long>(kNonceBytes)) {
    return "nonce is " + std::to_string(nonce_bytes) + " bytes, expected " +
           std::to_string(kNonceBytes);
  }
  const long long sealed_bytes = Base64DecodedSize(sealed);
  if (sealed_bytes < 0) return std::string("ciphertext is not valid base64");
  if (sealed_bytes < static_cast<long long>(kTagBytes)) {
    return "ciphertext is " + std::to_string(sealed_bytes) +
           " bytes, shorter than the " + std::to_string(kTagBytes) +
           "-byte GCM tag";
  }
  return std::nullopt;
}

bool IsPassphraseCiphertextShape(std::string_view text) {
  return !PassphraseCiphertextShapeProblem(text).has_value();
}

std::optional<std::string> PassphraseSaltShapeProblem(std::string_view text) {
  const std::size_t colons = CountColons(text);
  if (colons != 4) {
    return "expected 5 ':'-separated parts "
           "(v1:<salt>:v1:<nonce>:<ciphertext>), found " +
           std::to_string(colons + 1);
  }
  const std::size_t first = text.find(':');
  const std::size_t second = text.find(':', first + 1);
  if (text.substr(0, first) != "v1") {
    return std::string("unknown salt state version (expected v1)");
  }
  const long long salt_bytes =
      Base64DecodedSize(text.substr(first + 1, second - first - 1));
  if (salt_bytes < 0) return std::string("salt is not valid base64");
  if (salt_bytes != static_cast<long long>(kSaltBytes)) {
    return "salt is " + std::to_string(salt_bytes) + " bytes, expected " +
           std::to_string(kSaltBytes);
  }
  if (auto problem =
          PassphraseCiphertextShapeProblem(text.substr(second + 1))) {
    return "salt check value: " + *problem;
  }
  return std::nullopt;
}

bool IsPassphraseSaltShape(std::string_view text) {
  return !PassphraseSaltShapeProblem(text).has_value();
}

}  // namespace pstate::crypto
