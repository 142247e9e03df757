// The plaintexts of a state's secrets, and a multi-pattern search for them
// inside other strings (`pstate scan`'s leak-known-secret rule).
//
// What is known. A secret object's payload is the JSON text of its value
// (pulumi-state-format.md §3): `"\"hunter2\""` is the string hunter2; for an
// object or array secret, every string leaf (at any depth, secret or not
// inside it) is known; a nested secret's payload is decoded recursively.
// Payloads come from `plaintext` members, or from `ciphertext` members when a
// Decryptor is given (the user asked for decryption).
//
// Matchable rule. A plaintext is searched for only when it is at least
// kMinKnownSecretLength (6) bytes long and scan::IsPlausibleCredentialValue
// accepts it: booleans, null-ish words, numbers, redaction markers ("[secret]"),
// the unknown-value sentinel, ARNs, Azure resource ids, paths and template
// references are not matched. They are either too common to mean anything
// when found elsewhere ("true", "16") or references that are meant to be
// repeated. A secret shorter than 6 bytes is therefore never reported as
// leaking; the trade is deliberate (few false positives).
//
// Search. An Aho-Corasick automaton over all matchable plaintexts, linear in
// the searched text whatever the number of secrets. Secrets may be added after
// a search (one-pass scanning of standard input): new ones go into a further
// automaton, and automata of similar sizes are merged (the logarithmic
// method), so a search runs over O(log n) automata and building costs
// O(total bytes * log n) overall.
//
// Not thread-safe: a search may build pending automata.
#ifndef PSTATE_SECURE_KNOWN_SECRETS_H_
#define PSTATE_SECURE_KNOWN_SECRETS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "pstate/json/parser.h"
#include "pstate/json/value.h"

namespace pstate::secure {

inline constexpr std::size_t kMinKnownSecretLength = 6;

/// True when `plaintext` is searched for (rule above).
bool IsMatchableSecret(std::string_view plaintext);

class KnownSecrets {
 public:
  KnownSecrets();
  ~KnownSecrets();
  KnownSecrets(const KnownSecrets&) = delete;
  KnownSecrets& operator=(const KnownSecrets&) = delete;

  /// Adds one decoded plaintext string. Returns false when it is not
  /// matchable or already known.
  bool Add(std::string_view plaintext);

  /// Number of distinct matchable plaintexts.
  std::size_t size() const { return patterns_.size(); }
  /// The id-th plaintext (ids are dense, in order of addition).
  std::string_view plaintext(std::size_t id) const { return *patterns_[id]; }

  /// The distinct known plaintexts occurring in `text`, in order of first
  /// occurrence end, at most `limit` of them. Appends ids to `ids`.
  void FindIn(std::string_view text, std::vector<std::size_t>* ids,
              std::size_t limit = 16) const;

  /// True when `text` equals a known plaintext.
  bool Contains(std::string_view text) const;

 private:
  struct Automaton;
  void Flush() const;

  std::unordered_set<std::string> set_;          // owns the plaintexts
  std::vector<const std::string*> patterns_;     // by id, into set_ (stable)
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
  void AddSecretObject(const json::Value& secret, int depth);
  void AddPayloadAt(std::string_view json_text, int depth);
  void AddLeaves(const json::Value& value, int depth);

  KnownSecrets* known_;
  const Decryptor* decrypt_;
  json::Parser parser_;
  std::uint64_t undecryptable_ = 0;
};

}  // namespace pstate::secure

#endif  // PSTATE_SECURE_KNOWN_SECRETS_H_
