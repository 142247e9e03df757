// The plaintexts of a state's secrets, and a multi-pattern search for them
// inside other strings: `pstate scan`'s leak-known-secret rule, and the
// masking of identifiers that both scan and verify print (secrets/mask.h).
// Below both commands so that there is one definition of what is known.
//
// What is known. A secret object's payload is the JSON text of its value
// (pulumi-state-format.md §3): `"\"hunter2\""` is the string hunter2.
// Providers mark whole structures secret (awsx `tagsAll`, the `__inputs` of
// a pulumi-kubernetes Helm Release): most strings inside them are names,
// namespaces, chart names and URLs, which occur all over a state. So only
// these plaintexts are seeded:
//  - a scalar secret: the payload is a JSON string (or not JSON at all, then
//    the text itself);
//  - inside an object or array secret, a string whose nearest member name
//    is credential-like (detect::IsCredentialPropertyName), or that is the
//    "value" of a name/value pair whose "name" is (Kubernetes container
//    `env`, ECS `environment`/`secrets`, Elastic Beanstalk settings);
//  - nested secrets inside a payload, by the same rules, at any depth.
// Payloads come from `plaintext` members, or from `ciphertext` members when a
// Decryptor is given (the user asked for decryption).
//
// Two tiers. A seeded plaintext is searched for (leak-known-secret) only
// when IsMatchableSecret accepts it: at least kMinKnownSecretLength bytes,
// detect::IsPlausibleCredentialValue (no booleans, numbers, redaction markers,
// unknown sentinels, ARNs, paths, references) and detect::IsStrongSecret (at
// least 8 bytes, two character classes, 2.5 bits of entropy per byte). A
// weaker one of at least kMinKnownSecretLength bytes is kept for masking
// only: Mask() hides it in identifiers (URNs, pointers, property names) that
// findings print, so a secret that is also a name is never printed even
// when it is too weak to be reported as a leak. pstate's own redaction
// placeholders are never seeded.
//
// Search. An Aho-Corasick automaton over all matchable plaintexts, linear in
// the searched text whatever the number of secrets. Secrets may be added after
// a search (one-pass scanning of standard input): new ones go into a further
// automaton, and automata of similar sizes are merged (the logarithmic
// method), so a search runs over O(log n) automata and building costs
// O(total bytes * log n) overall.
//
// Not thread-safe: a search may build pending automata.
#ifndef PSTATE_SECRETS_KNOWN_SECRETS_H_
#define PSTATE_SECRETS_KNOWN_SECRETS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "json/parser.h"
#include "json/value.h"

namespace pstate::secrets {

inline constexpr std::size_t kMinKnownSecretLength = 6;

/// True when `plaintext` is searched for (rule above).
bool IsMatchableSecret(std::string_view plaintext);

/// What Mask writes in place of a known plaintext.
inline constexpr std::string_view kMaskedText = "***";

class KnownSecrets {
 public:
  KnownSecrets();
  ~KnownSecrets();
  KnownSecrets(const KnownSecrets&) = delete;
  KnownSecrets& operator=(const KnownSecrets&) = delete;

  /// Adds one decoded plaintext string: searched for when matchable, else
  /// kept for Mask only (when at least kMinKnownSecretLength bytes). Returns
  /// true when it became searchable now (false when it is not matchable or
  /// was already searchable).
  bool Add(std::string_view plaintext);

  /// Number of distinct searchable plaintexts.
  std::size_t size() const { return searchable_count_; }
  /// Builds the search for what was added so far: until the next Add, the
  /// const calls change nothing and may run on several threads at once.
  void Freeze() const { Flush(); }
  /// True when nothing is known, not even for masking.
  bool empty() const { return patterns_.empty(); }
  /// The id-th plaintext (ids are dense, in order of addition).
  std::string_view plaintext(std::size_t id) const { return *patterns_[id]; }

  /// The distinct known plaintexts occurring in `text`, in order of first
  /// occurrence end, at most `limit` of them. Appends ids to `ids`.
  void FindIn(std::string_view text, std::vector<std::size_t>* ids,
              std::size_t limit = 16) const;

  /// True when `text` equals a searchable known plaintext.
  bool Contains(std::string_view text) const;

  /// `text` with every occurrence of a known plaintext (either tier)
  /// replaced by kMaskedText; overlapping occurrences merge.
  std::string Mask(std::string_view text) const;
  /// True when Mask would change `text`.
  bool NeedsMask(std::string_view text) const;

 private:
  struct Automaton;
  void Flush() const;

  /// Calls on_match(id, begin) for every occurrence of any tier.
  template <typename F>
  void ForEachMatch(std::string_view text, F&& on_match) const;

  // Owns the plaintexts; maps each to its id.
  std::unordered_map<std::string, std::size_t> set_;
  std::vector<const std::string*> patterns_;  // by id, into set_ (stable)
  std::vector<bool> searchable_;              // by id
  std::size_t searchable_count_ = 0;
  mutable std::vector<std::unique_ptr<Automaton>> automata_;
  mutable std::size_t built_ = 0;  // patterns_[0, built_) are in automata_
};

/// Decrypts a `ciphertext` member to the payload JSON text; nullopt when it
/// cannot (wrong key, not this provider's shape).
using Decryptor =
    std::function<std::optional<std::string>(std::string_view ciphertext)>;

/// Walks a value (a resource, a property tree) and adds the plaintexts of
/// every secret in it to a KnownSecrets.
class SecretCollector {
 public:
  /// `decrypt` may be null (plaintext secrets only).
  SecretCollector(KnownSecrets* known, const Decryptor* decrypt)
      : known_(known), decrypt_(decrypt) {}

  /// Changes the decryptor (e.g. once the secrets provider was read).
  void set_decryptor(const Decryptor* decrypt) { decrypt_ = decrypt; }

  /// Adds every secret found in `value` (secret objects at any depth).
  void Collect(const json::Value& value);
  /// Adds the string leaves of a secret's payload JSON text (recursing into
  /// nested secrets). A payload that is not JSON counts as one string.
  void AddPayload(std::string_view json_text);

  /// Secrets whose ciphertext could not be decrypted.
  std::uint64_t undecryptable() const { return undecryptable_; }

 private:
  void AddSecretObject(const json::Value& secret, int level);
  void AddPayloadAt(std::string_view json_text, int level);
  /// The strings of a structured payload that are seeded (rule above).
  void AddStructured(const json::Value& value, int level);

  KnownSecrets* known_;
  const Decryptor* decrypt_;
  json::Parser parser_;
  std::uint64_t undecryptable_ = 0;
};

}  // namespace pstate::secrets

#endif  // PSTATE_SECRETS_KNOWN_SECRETS_H_
