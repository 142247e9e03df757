#include "detect/credential_value.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>
#include <vector>

#include "base/ascii.h"

namespace pstate::detect {
namespace {

using ascii::IsDigit;
bool IsUpperOrDigitOrUnderscore(char c) {
  return ascii::IsUpper(c) || IsDigit(c) || c == '_';
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool StartsWithIgnoreCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() &&
         ascii::EqualFold(s.substr(0, prefix.size()), prefix);
}

constexpr auto kNonValues = std::to_array<std::string_view>(
    {"true", "false", "yes", "no", "on", "off", "null", "nil", "none",
     "undefined", "<nil>", "n/a"});

constexpr auto kRedactionMarkers = std::to_array<std::string_view>(
    {"redacted", "[secret]", "[sensitive]", "(sensitive value)", "sensitive",
     "[redacted]", "<redacted>", "hidden", "masked", "omitted"});

// Pulumi's unknown sentinels (sdk/go/common/resource/plugin/rpc.go).
constexpr auto kUnknownSentinels =
    std::to_array<std::string_view>({"04da6b54-80e4-46f7-96ec-b56ff0331ba9",
                                     "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
                                     "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
                                     "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
                                     "030794c1-ac77-496b-92df-f27374a8bd58",
                                     "e48ece36-62e2-4504-bad9-02848725956a",
                                     "dd056dcd-154b-4c76-9bd3-c8f88648b5ff"});

constexpr auto kPathPrefixes = std::to_array<std::string_view>(
    {"~/", "./", "../", "/etc/", "/var/", "/run/", "/home/", "/tmp/", "/root/",
     "/opt/", "/usr/", "/Users/", "/mnt/", "/secrets/", "/vault/"});

bool IsNumber(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (s.empty()) return false;
  bool dot = false;
  bool digit = false;
  for (char c : s) {
    if (c == '.') {
      if (dot) return false;
      dot = true;
    } else if (IsDigit(c)) {
      digit = true;
    } else {
      return false;
    }
  }
  return digit;
}

// A run of one mask character: "****", "xxxxxxxx", "••••".
bool IsMaskRun(std::string_view s) {
  static constexpr std::string_view kBullet = "\xE2\x80\xA2";
  if (s.empty()) return false;
  if (StartsWith(s, kBullet)) {
    while (StartsWith(s, kBullet)) s.remove_prefix(kBullet.size());
    return s.empty();
  }
  const char mask = s[0];
  if (mask != '*' && mask != 'x' && mask != 'X' && mask != '#' && mask != '.')
    return false;
  return std::all_of(s.begin(), s.end(), [mask](char c) { return c == mask; });
}

bool IsWrappedPlaceholder(std::string_view s) {
  if (s.size() < 2) return false;
  const char open = s.front();
  const char close = s.back();
  if (!((open == '<' && close == '>') || (open == '[' && close == ']')))
    return false;
  const std::string_view inner = s.substr(1, s.size() - 2);
  // One wrapper around plain words ("<your-password>", "[secret]"); a
  // bracketed value with symbols inside may be a real password.
  return !inner.empty() && std::all_of(inner.begin(), inner.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || IsDigit(c) ||
           c == ' ' || c == '-' || c == '_' || c == '.';
  });
}

bool IsReference(std::string_view s) {
  // arn:<partition>:<service>:...
  if (StartsWith(s, "arn:aws")) {
    const std::size_t colon = s.find(':', 4);
    return colon != std::string_view::npos &&
           s.find(':', colon + 1) != std::string_view::npos;
  }
  if (StartsWithIgnoreCase(s, "/subscriptions/")) return true;
  if (StartsWithIgnoreCase(s, "https://")) {
    const std::string_view rest = s.substr(8);
    const std::string_view host = rest.substr(0, rest.find('/'));
    constexpr std::string_view kVault = ".vault.azure.net";
    if (host.size() > kVault.size() &&
        ascii::EqualFold(host.substr(host.size() - kVault.size()), kVault)) {
      return true;
    }
  }
  if (StartsWith(s, "projects/") &&
      s.find("/secrets/") != std::string_view::npos)
    return true;
  // Templates and environment references.
  if (StartsWith(s, "${") && s.back() == '}') return true;
  if (StartsWith(s, "{{") && s.size() >= 4 && s.substr(s.size() - 2) == "}}")
    return true;
  if (s.size() >= 2 && s[0] == '$' &&
      std::all_of(s.begin() + 1, s.end(), IsUpperOrDigitOrUnderscore)) {
    return true;
  }
  if (s.size() >= 3 && s.front() == '%' && s.back() == '%' &&
      std::all_of(s.begin() + 1, s.end() - 1, IsUpperOrDigitOrUnderscore)) {
    return true;
  }
  for (std::string_view prefix : kPathPrefixes) {
    if (StartsWith(s, prefix) && s.find('\n') == std::string_view::npos)
      return true;
  }
  return false;
}

}  // namespace

bool IsPlausibleCredentialValue(std::string_view value) {
  const std::string_view v = ascii::TrimSpace(value);
  if (v.size() < kMinCredentialLength) return false;
  for (std::string_view word : kNonValues) {
    if (ascii::EqualFold(v, word)) return false;
  }
  if (IsNumber(v)) return false;
  for (std::string_view marker : kRedactionMarkers) {
    if (ascii::EqualFold(v, marker)) return false;
  }
  if (IsMaskRun(v) || IsWrappedPlaceholder(v)) return false;
  for (std::string_view sentinel : kUnknownSentinels) {
    if (v == sentinel) return false;
  }
  return !IsReference(v);
}

namespace {

bool IsBcryptChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || IsDigit(c) ||
         c == '.' || c == '/';
}

bool IsB64Char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || IsDigit(c) ||
         c == '+' || c == '/' || c == '=' || c == '.' || c == '-' || c == '_';
}

/// Splits `s` on '$' (s does not start with '$').
std::vector<std::string_view> SplitDollar(std::string_view s) {
  std::vector<std::string_view> parts;
  while (true) {
    std::size_t d = s.find('$');
    parts.push_back(s.substr(0, d));
    if (d == std::string_view::npos) break;
    s.remove_prefix(d + 1);
  }
  return parts;
}

bool AllOf(std::string_view s, bool (*pred)(char)) {
  return !s.empty() && std::all_of(s.begin(), s.end(), pred);
}

bool IsBcrypt(std::string_view v) {
  // $2b$12$ + 22 salt + 31 hash characters.
  std::size_t p = 0;
  if (v.size() < 4 || v[0] != '$' || v[1] != '2') return false;
  p = 2;
  if (v[p] != '$') ++p;
  if (p >= v.size() || v[p] != '$') return false;
  ++p;
  if (p + 3 > v.size() || !IsDigit(v[p]) || !IsDigit(v[p + 1]) ||
      v[p + 2] != '$') {
    return false;
  }
  std::string_view rest = v.substr(p + 3);
  return rest.size() == 53 && AllOf(rest, IsBcryptChar);
}

bool IsCryptOrPhc(std::string_view v) {
  if (v.size() < 2 || v[0] != '$') return false;
  std::vector<std::string_view> parts = SplitDollar(v.substr(1));
  if (parts.size() < 3) return false;
  std::string_view id = parts[0];
  static constexpr std::array<std::string_view, 9> kIds = {
      "1", "5", "6", "apr1", "y", "7", "argon2i", "argon2d", "argon2id"};
  if (std::find(kIds.begin(), kIds.end(), id) == kIds.end()) return false;
  // Every field non-empty and from the hash alphabets (parameters such as
  // "rounds=5000", "v=19" and "m=65536,t=3,p=4" allowed).
  for (std::size_t i = 1; i < parts.size(); ++i) {
    std::string_view f = parts[i];
    if (f.empty()) return false;
    for (char c : f) {
      if (!IsB64Char(c) && c != ',' && c != '=') return false;
    }
  }
  return parts.back().size() >= 16;  // the hash itself
}

bool IsFrameworkHash(std::string_view v) {
  static constexpr std::array<std::string_view, 6> kPrefixes = {
      "pbkdf2_sha1$",   "pbkdf2_sha256$", "pbkdf2_sha512$",
      "bcrypt_sha256$", "argon2$",        "scrypt$"};
  for (std::string_view prefix : kPrefixes) {
    if (!StartsWith(v, prefix)) continue;
    std::vector<std::string_view> parts = SplitDollar(v);
    return parts.size() >= 3 && parts.back().size() >= 16;
  }
  return false;
}

bool IsLdapHash(std::string_view v) {
  static constexpr std::array<std::string_view, 6> kSchemes = {
      "{SSHA}", "{SHA}", "{SSHA256}", "{SSHA512}", "{CRYPT}", "{PBKDF2"};
  for (std::string_view scheme : kSchemes) {
    if (!StartsWithIgnoreCase(v, scheme)) continue;
    std::size_t close = v.find('}');
    return close != std::string_view::npos && v.size() - close > 16;
  }
  return false;
}

}  // namespace

bool IsPasswordHash(std::string_view value) {
  const std::string_view v = ascii::TrimSpace(value);
  if (v.size() < 20 || v.find_first_of(" \t\n") != std::string_view::npos) {
    return false;
  }
  return IsBcrypt(v) || IsCryptOrPhc(v) || IsFrameworkHash(v) || IsLdapHash(v);
}

bool IsEncryptedBlob(std::string_view value) {
  const std::string_view v = ascii::TrimSpace(value);
  if (StartsWith(v, "ENC[") && v.back() == ']') return true;
  if (StartsWith(v, "EJ[") && v.back() == ']') return true;
  if (StartsWith(v, "vault:v") && v.size() > 8 && IsDigit(v[7])) return true;
  if (StartsWith(v, "$ANSIBLE_VAULT;")) return true;
  if (StartsWith(v, "-----BEGIN PGP MESSAGE-----")) return true;
  if (StartsWith(v, "-----BEGIN AGE ENCRYPTED FILE-----") ||
      StartsWith(v, "age-encryption.org/v1")) {
    return true;
  }
  if ((StartsWith(v, "AQICAH") || StartsWith(v, "AQIBAH")) && v.size() >= 100) {
    return std::all_of(v.begin(), v.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || IsDigit(c) ||
             c == '+' || c == '/' || c == '=';
    });
  }
  return false;
}

bool IsStrongSecret(std::string_view value) {
  const std::string_view v = ascii::TrimSpace(value);
  if (v.size() < kMinStrongSecretLength) return false;
  bool lower = false, upper = false, digit = false, other = false;
  std::array<std::size_t, 256> counts{};
  for (char ch : v) {
    auto c = static_cast<unsigned char>(ch);
    ++counts[c];
    if (ascii::IsLower(ch)) {
      lower = true;
    } else if (ascii::IsUpper(ch)) {
      upper = true;
    } else if (IsDigit(ch)) {
      digit = true;
    } else {
      other = true;
    }
  }
  int classes = int{lower} + int{upper} + int{digit} + int{other};
  if (classes < 2) return false;
  std::size_t distinct = 0;
  double bits = 0;
  const auto n = static_cast<double>(v.size());
  for (std::size_t c : counts) {
    if (c == 0) continue;
    ++distinct;
    double p = static_cast<double>(c) / n;
    bits -= p * std::log2(p);
  }
  return distinct >= 5 && bits >= kMinStrongSecretBits;
}

}  // namespace pstate::detect
