#include "detect/credential_names.h"

#include <algorithm>
#include <array>

#include "base/ascii.h"

namespace pstate::detect {
namespace {

using ascii::IsAlnum;
using ascii::IsDigit;
using ascii::IsLower;
using ascii::IsUpper;
using ascii::ToLower;

template <std::size_t N>
bool In(std::string_view word, const std::array<std::string_view, N>& set) {
  return std::find(set.begin(), set.end(), word) != set.end();
}

constexpr auto kTransparentSuffixes = std::to_array<std::string_view>(
    {"value",     "values",  "pem",      "openssh", "pkcs1",   "pkcs8",
     "der",       "b64",     "base64",   "hex",     "encoded", "plain",
     "plaintext", "raw",     "text",     "json",    "bytes",   "binary",
     "data",      "content", "contents", "wo"});

constexpr auto kCredentialHeads =
    std::to_array<std::string_view>({"password",
                                     "passwd",
                                     "pwd",
                                     "passphrase",
                                     "secret",
                                     "secrets",
                                     "token",
                                     "tokens",
                                     "credential",
                                     "credentials",
                                     "creds",
                                     "kubeconfig",
                                     "authorization",
                                     "apikey",
                                     "apikeys",
                                     "privatekey",
                                     "secretkey",
                                     "accesskey",
                                     "accountkey",
                                     "masterkey",
                                     "clientsecret",
                                     "accesstoken",
                                     "authtoken",
                                     "sastoken",
                                     "connectionstring",
                                     "connectionstrings",
                                     "connstr"});

// Suffixes that make a single concatenated lower-case word a credential.
constexpr auto kConcatenatedSuffixes = std::to_array<std::string_view>(
    {"password", "passwd", "passphrase", "secret", "token", "credentials",
     "apikey", "privatekey", "secretkey", "accesskey", "accountkey",
     "masterkey", "connectionstring", "authtoken", "accesstoken"});

constexpr auto kKeyModifiers = std::to_array<std::string_view>(
    {"private",  "api",     "secret",      "access",     "account",
     "master",   "shared",  "signing",     "primary",    "secondary",
     "readonly", "admin",   "client",      "auth",       "subscription",
     "hmac",     "webhook", "encryption",  "decryption", "license",
     "tls",      "ssl",     "storage",     "root",       "session",
     "app",      "service", "integration", "raw",        "server",
     "deploy"});

constexpr auto kTokenHandleModifiers = std::to_array<std::string_view>(
    {"next", "page", "pagination", "continuation", "idempotency", "creation"});

constexpr auto kFlagPrefixes = std::to_array<std::string_view>(
    {"require",  "requires", "required", "enable",   "enabled", "disable",
     "disabled", "use",      "uses",     "allow",    "allowed", "has",
     "is",       "should",   "min",      "max",      "minimum", "maximum",
     "no",       "skip",     "ignore",   "generate", "create",  "reset",
     "rotate",   "show",     "hide",     "force",    "must",    "manage",
     "include",  "num",      "number",   "count",    "auto",    "with",
     "without",  "can"});

// Prefixes checked inside a single concatenated word; only long, unambiguous
// verbs ("use" would also match "user").
constexpr auto kConcatenatedFlagPrefixes = std::to_array<std::string_view>(
    {"require", "enable", "disable", "allow", "generate", "manage", "rotate",
     "reset", "minimum", "maximum"});

constexpr auto kNotPlaintextModifiers = std::to_array<std::string_view>(
    {"hashed", "hash", "encrypted", "salted", "masked"});

bool IsVersionOrNumber(std::string_view word) {
  if (word.empty()) return true;
  std::size_t i = word[0] == 'v' ? 1 : 0;
  if (i == word.size()) return false;  // "v" alone is a word
  for (; i < word.size(); ++i) {
    if (!IsDigit(word[i])) return false;
  }
  return true;
}

std::string_view StripTrailingDigits(std::string_view word) {
  while (!word.empty() && IsDigit(word.back())) word.remove_suffix(1);
  return word;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool IsConcatenatedCredential(std::string_view word) {
  for (std::string_view prefix : kConcatenatedFlagPrefixes) {
    if (StartsWith(word, prefix)) return false;
  }
  for (std::string_view suffix : kConcatenatedSuffixes) {
    if (!EndsWith(word, suffix)) continue;
    const std::string_view stem = word.substr(0, word.size() - suffix.size());
    if (suffix == "token" && In(stem, kTokenHandleModifiers)) return false;
    for (std::string_view not_plain : kNotPlaintextModifiers) {
      if (StartsWith(stem, not_plain)) return false;
    }
    return true;
  }
  return false;
}

}  // namespace

namespace {

/// "Secret/v1", "apps/v1beta1": text, '/', then v<digits> optionally
/// followed by alpha<digits> or beta<digits>.
bool IsKindVersionToken(std::string_view name) {
  std::size_t slash = name.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return false;
  std::string_view v = name.substr(slash + 1);
  if (v.size() < 2 || v[0] != 'v' || !IsDigit(v[1])) return false;
  std::size_t i = 1;
  while (i < v.size() && IsDigit(v[i])) ++i;
  std::string_view rest = v.substr(i);
  if (rest.empty()) return true;
  for (std::string_view stage :
       {std::string_view("alpha"), std::string_view("beta")}) {
    if (rest.substr(0, stage.size()) != stage) continue;
    rest.remove_prefix(stage.size());
    return !rest.empty() && std::all_of(rest.begin(), rest.end(),
                                        [](char c) { return IsDigit(c); });
  }
  return false;
}

}  // namespace

std::vector<std::string> SplitNameWords(std::string_view name) {
  std::vector<std::string> words;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) words.push_back(std::move(current));
    current.clear();
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (!IsAlnum(c)) {
      flush();
      continue;
    }
    if (IsUpper(c) && !current.empty()) {
      const char prev = name[i - 1];
      const bool next_lower = i + 1 < name.size() && IsLower(name[i + 1]);
      if (IsLower(prev) || IsDigit(prev) || (IsUpper(prev) && next_lower))
        flush();
    }
    current.push_back(ToLower(c));
  }
  flush();
  return words;
}

bool IsCredentialPropertyName(std::string_view name) {
  if (IsKindVersionToken(name)) return false;  // rule 5
  std::vector<std::string> words = SplitNameWords(name);
  // Rule 1: drop encoding/version words at the end.
  while (words.size() > 1 &&
         (In(std::string_view(words.back()), kTransparentSuffixes) ||
          IsVersionOrNumber(words.back()))) {
    words.pop_back();
  }
  if (words.empty()) return false;
  const std::size_t n = words.size();
  const std::string_view head = StripTrailingDigits(words[n - 1]);
  const std::string_view prev =
      n >= 2 ? std::string_view(words[n - 2]) : std::string_view();

  // Rule 4: settings about a credential, and non-plaintext forms.
  if (n >= 2 && In(std::string_view(words[0]), kFlagPrefixes)) return false;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    if (In(std::string_view(words[i]), kNotPlaintextModifiers)) return false;
  }

  // Rule 2: the head decides.
  if (In(head, kCredentialHeads)) {
    if ((head == "token" || head == "tokens") &&
        In(prev, kTokenHandleModifiers)) {
      return false;
    }
    return true;
  }
  if (head == "auth") return n == 1 || prev == "basic";
  if (head == "key" || head == "keys") return In(prev, kKeyModifiers);
  if (head == "string" || head == "strings") {
    return prev == "connection" || prev == "secret";
  }
  if (head == "config") return prev == "kube";
  // Rule 3: a concatenated head word.
  return IsConcatenatedCredential(head);
}

}  // namespace pstate::detect
