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
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/finding.h"

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

/// One step of a resource's checks that the cross-resource rules decide,
/// as a tracker in journal mode records it (on a worker thread of the
/// parallel executor) for the fold to replay in file order
/// (Verifier::Fold). The resource's own findings are steps too, so the
/// report receives everything in the order the sequential read adds it.
struct IntegrityEvent {
  enum class Kind {
    kFinding,    ///< a finding of the per-resource checks, located
    kReference,  ///< Defer(text, finding) unless text was seen
    kProvider,   ///< AddProvider(text)
    kDuplicate,  ///< NoteDuplicate(text, finding) if text was seen
    kResource,   ///< AddResource(text, deleted)
    kStack,      ///< NoteStack(text, project, finding)
    kPlaintext,  ///< a secret's plaintext (text), for the mask at the end
  };
  Kind kind = Kind::kFinding;
  std::string text;
  std::string project;
  bool deleted = false;
  PendingReference::Kind reference = PendingReference::Kind::kDependency;
  diag::Finding finding;
};

class IntegrityTracker {
 public:
  /// Journal mode (for a worker of the parallel executor): nothing is
  /// known, every query answers so that the step is recorded, and every
  /// step is appended to `journal` instead of applied. Null: normal mode.
  void set_journal(std::vector<IntegrityEvent>* journal) { journal_ = journal; }

  /// Whether `urn` belongs to a resource already seen (never in journal
  /// mode: a reference is recorded and the fold decides).
  bool Seen(std::string_view urn) const {
    return journal_ == nullptr && urns_.Find(urn) != nullptr;
  }
  bool SeenProvider(std::string_view reference) const {
    return journal_ == nullptr && providers_.Find(reference) != nullptr;
  }
  /// Whether `urn` may belong to a resource already seen (always in
  /// journal mode: a possible duplicate is recorded and the fold decides).
  bool MaybeSeen(std::string_view urn) const {
    return journal_ != nullptr || urns_.Find(urn) != nullptr;
  }
  /// Records a resource (after its references were checked).
  void AddResource(std::string_view urn, bool deleted);
  void AddProvider(std::string_view reference);

  /// Keeps a reference that failed now, to be classified at the end.
  void Defer(PendingReference ref);

  /// Remembers where a URN occurs again (the first repeat is kept), so
  /// Finish can report it if the copies break the delete rule.
  void NoteDuplicate(std::string_view urn, diag::Finding at);

  /// Every resource is in the stack and project of the first one. Returns
  /// the finding to report now when a resource breaks the rule for the
  /// first time; `at` makes it, located, without a message.
  std::optional<diag::Finding> NoteStack(
      std::string_view stack, std::string_view project,
      const std::function<diag::Finding()>& at);

  /// Forgets every resource and reference seen so far: a later
  /// `resources` member replaces the earlier one, as Go's decoder keeps the
  /// last duplicate key, so the earlier resources never reach Pulumi's
  /// integrity check. (The stack rule spans both, as it always did.)
  void Reset();

  /// Resolves deferred references and duplicate URNs into findings.
  std::vector<diag::Finding> Finish();

 private:
  FingerprintSet urns_;
  FingerprintSet providers_;
  std::map<std::string, diag::Finding> duplicates_;
  std::vector<PendingReference> pending_;
  std::optional<std::string> stack_;
  std::optional<std::string> project_;
  bool reported_stack_mismatch_ = false;
  std::vector<IntegrityEvent>* journal_ = nullptr;
};

}  // namespace pstate::verify

#endif  // PSTATE_VERIFY_INTEGRITY_H_
