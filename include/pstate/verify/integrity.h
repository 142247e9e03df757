// Pulumi's cross-resource integrity rules (Snapshot.VerifyIntegrity,
// pulumi-state-format.md §4.1), checked in one forward pass.
//
// Memory: a compact 128-bit fingerprint per resource URN and per provider
// reference, never the URN text; only references that fail at the time they
// are seen (rare in a valid state) keep their text until the end, when they
// are classified as "comes after" or "missing".
#ifndef PSTATE_VERIFY_INTEGRITY_H_
#define PSTATE_VERIFY_INTEGRITY_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "pstate/diag/finding.h"

namespace pstate::verify {

/// A set of strings stored as 128-bit fingerprints, with a counter each.
class FingerprintSet {
 public:
  struct Entry {
    std::uint64_t a = 0, b = 0;
    std::uint32_t count = 0;
    std::uint32_t deleted = 0;
  };
  /// Adds one occurrence; returns its entry.
  Entry& Add(std::string_view s);
  const Entry* Find(std::string_view s) const;
  std::size_t size() const { return size_; }

 private:
  static void Hash(std::string_view s, std::uint64_t* a, std::uint64_t* b);
  std::size_t Slot(std::uint64_t a, std::uint64_t b) const;
  void Grow();

  std::vector<Entry> slots_;
  std::size_t size_ = 0;
};

/// A reference that could not be resolved when it was seen.
struct PendingReference {
  std::string target;
  diag::Finding finding;  ///< prepared, located; code decided at the end
  enum class Kind { kDependency, kProvider, kResourceReference } kind;
};

class IntegrityTracker {
 public:
  /// Whether `urn` belongs to a resource already seen.
  bool Seen(std::string_view urn) const { return urns_.Find(urn) != nullptr; }
  bool SeenProvider(std::string_view reference) const {
    return providers_.Find(reference) != nullptr;
  }
  /// Records a resource (after its references were checked).
  void AddResource(std::string_view urn, bool deleted);
  void AddProvider(std::string_view reference) { providers_.Add(reference); }

  /// Keeps a reference that failed now, to be classified at the end.
  void Defer(PendingReference ref) { pending_.push_back(std::move(ref)); }

  /// Remembers where a URN occurs again (the first repeat is kept), so
  /// Finish can report it if the copies break the delete rule.
  void NoteDuplicate(std::string_view urn, diag::Finding at);

  /// Forgets every resource and reference seen so far: a later
  /// `resources` member replaces the earlier one, as Go's decoder keeps the
  /// last duplicate key, so the earlier resources never reach Pulumi's
  /// integrity check.
  void Reset() { *this = IntegrityTracker(); }

  /// Resolves deferred references and duplicate URNs into findings.
  std::vector<diag::Finding> Finish();

 private:
  FingerprintSet urns_;
  FingerprintSet providers_;
  std::map<std::string, diag::Finding> duplicates_;
  std::vector<PendingReference> pending_;
};

}  // namespace pstate::verify

#endif  // PSTATE_VERIFY_INTEGRITY_H_
