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
#include <utility>
#include <vector>

#include "base/chunked_vector.h"
#include "base/fingerprint.h"
#include "base/fingerprint_table.h"
#include "base/result.h"
#include "diag/finding.h"
#include "io/input.h"
#include "io/window.h"
#include "verify/check_context.h"

namespace pstate::verify {

/// How often a URN occurs, and how many of its copies are pending deletion.
struct UrnCount {
  std::uint32_t count = 0;
  std::uint32_t deleted = 0;
};

/// A reference that could not be resolved when it was seen: a fixed-size
/// record, its finding made at Finish once its code is known. Its texts
/// (the target, and the URN of the resource it is in) are offsets into the
/// input when the input is a plain file that can be read again and the
/// text is there byte for byte (a string without escapes), otherwise they
/// are in the tracker's text blocks, as the pointer always is; the field
/// is an index into the tracker's field names. A chain written in reverse
/// has one per resource: 72 bytes and the end of its pointer each.
struct PendingReference {
  enum class Kind : std::uint8_t { kDependency, kProvider, kResourceReference };
  Kind kind = Kind::kDependency;
  bool in_secret = false;
  /// Whether target / urn are input offsets (else text positions).
  bool target_in_input = false, urn_in_input = false;
  std::uint32_t field = 0;
  /// An input offset, or a text position (block << 32 | offset in block).
  std::uint64_t target = 0, urn = 0, pointer = 0;
  std::uint32_t target_size = 0, urn_size = 0, pointer_size = 0;
  /// The pointer's first bytes are the previous reference's (a resource's
  /// siblings share "/deployment/resources/"): only the rest is stored.
  std::uint32_t pointer_shared = 0;
  io::LineColumn place;
};

/// Where a finding of the cross-resource rules would be, and about which
/// resource: the parts it is made of if it is reported. A valid state has
/// no such finding, so the parts are taken (a pointer spelled, an offset
/// located) only where the rule may fail (in a journal: the offset is
/// located only when it does), and the finding's strings are made only
/// when it does.
struct FindingPlace {
  std::string_view pointer;
  std::string_view urn;
  io::LineColumn at;
  /// Where `urn` is in the input byte for byte, or 0 (Reporter::urn_at).
  std::uint64_t urn_at = 0;
};

/// Bytes of an IntegrityJournal's texts: [at, at + size).
struct JournalText {
  std::size_t at = 0;
  std::size_t size = 0;
};

/// One step of a resource's checks that the cross-resource rules decide,
/// as a tracker in journal mode records it (on a worker thread of the
/// parallel executor) for the fold to replay in file order
/// (IntegrityTracker::Replay). The resource's own findings are steps too,
/// so the report receives everything in the order the sequential read adds
/// it. Its strings live in the journal's texts: a step costs no allocation.
struct IntegrityEvent {
  enum class Kind {
    kFinding,    ///< a finding of the per-resource checks, located
    kReference,  ///< Reference(reference, text, extra, in_secret, place)
    kProvider,   ///< AddProvider(text)
    kDuplicate,  ///< Duplicate(text, place), then AddResource when `adds`
    kResource,   ///< AddResource(text, deleted)
    kStack,      ///< NoteStack(text, extra, place)
    kPlaintext,  ///< a secret's plaintext (text), for the mask at the end
  };
  Kind kind = Kind::kFinding;
  PendingReference::Kind reference = PendingReference::Kind::kDependency;
  bool deleted = false;  ///< kResource, kDuplicate that `adds`
  /// kDuplicate: the resource is also added (AddResource(text, deleted)):
  /// one step where the checks take two, one right after the other.
  bool adds = false;
  bool in_secret = false;  ///< kReference: found inside a secret's plaintext
  /// kReference: the target is not copied into the texts (`text` has only
  /// its size): it is in the input at target_at, which the fold's context
  /// can read again.
  bool target_in_input = false;
  /// The URN, reference, stack or plaintext; the field or the project.
  JournalText text, extra;
  /// kReference, kProvider, kDuplicate, kResource: the fingerprint of
  /// `text`, taken on the worker (where the text is still in its cache),
  /// so the fold's lookups read no text.
  Fingerprint fingerprint;
  /// The place's pointer and URN, and its offset (located by the fold's
  /// context, only if a finding is made).
  JournalText pointer, urn;
  std::uint64_t offset = 0;
  /// kReference: where the target and the place's URN are in the input
  /// byte for byte, or 0 (IntegrityTracker::Reference's target_at).
  std::uint64_t target_at = 0, urn_at = 0;
  std::size_t finding = 0;  ///< kFinding: its index in findings
};

/// The steps of one resource, in the order the checks took them.
struct IntegrityJournal {
  std::vector<IntegrityEvent> events;
  std::vector<diag::Finding> findings;
  std::string texts;
  /// The last URN added with AddUrn (a resource's steps share it).
  JournalText last_urn;

  /// Empty, keeping the capacity of the vectors and texts.
  void Clear() {
    events.clear();
    findings.clear();
    texts.clear();
    last_urn = {};
  }
  JournalText Add(std::string_view text);
  /// Add, but the same bytes as the last URN are stored once.
  JournalText AddUrn(std::string_view urn);
  std::string_view View(JournalText t) const {
    return std::string_view(texts).substr(t.at, t.size);
  }
  FindingPlace Place(const IntegrityEvent& e, state::Context& context) const {
    return {View(e.pointer), View(e.urn), context.Locate(e.offset)};
  }
  void AddFinding(diag::Finding finding);
};

class IntegrityTracker {
 public:
  /// Journal mode (for a worker of the parallel executor): nothing is
  /// known, every step is appended to `journal` instead of applied, with
  /// the parts of the finding it may give, and the fold replays it
  /// (Replay). Null: normal mode.
  void set_journal(IntegrityJournal* journal) { journal_ = journal; }

  /// Whether `urn` belongs to a resource already seen (never in journal
  /// mode: a step is recorded and the fold decides).
  bool Seen(std::string_view urn) const {
    return journal_ == nullptr && urns_.Contains(FingerprintOf(urn));
  }
  bool SeenProvider(std::string_view reference) const {
    return journal_ == nullptr && providers_.Contains(FingerprintOf(reference));
  }
  /// Room for `n` resources' URNs without growing (a hint).
  void Reserve(std::size_t n) { urns_.Reserve(n); }
  /// Records a resource (after its references were checked).
  void AddResource(std::string_view urn, bool deleted);
  void AddProvider(std::string_view reference);

  /// A reference of `kind` to `target` (a URN, or for kProvider a provider
  /// reference) from `field` at `offset` of `reporter`'s position: kept,
  /// to be classified at the end, unless its target was seen already.
  /// `in_secret`: found inside a secret's plaintext, so the finding must
  /// not quote it. `target_at`: where `target` is in the input byte for
  /// byte (json::Value::verbatim_at), or 0. When the reporter's context
  /// can read its input again (state::Context::input_file), the texts that
  /// are in the input are kept as offsets; the tracker then reads that
  /// input again at Finish, so it must stay open until then.
  void Reference(PendingReference::Kind kind, std::string_view target,
                 std::uint64_t target_at, std::string_view field,
                 bool in_secret, Reporter& reporter, std::uint64_t offset);
  void Reference(PendingReference::Kind kind, std::string_view target,
                 std::string_view field, bool in_secret,
                 const FindingPlace& place, std::uint64_t target_at = 0);

  /// The resource `urn` at `offset` (its first byte): if a resource with
  /// that URN was seen, the first such repeat is kept, so Finish can
  /// report it if the copies break the delete rule.
  void Duplicate(std::string_view urn, Reporter& reporter,
                 std::uint64_t offset);
  void Duplicate(std::string_view urn, const FindingPlace& place);

  /// Every resource is in the stack and project of the first one. Returns
  /// the finding to report now when a resource (whose URN is at `offset`)
  /// breaks the rule for the first time.
  std::optional<diag::Finding> NoteStack(std::string_view stack,
                                         std::string_view project,
                                         Reporter& reporter,
                                         std::uint64_t offset);
  std::optional<diag::Finding> NoteStack(std::string_view stack,
                                         std::string_view project,
                                         const FindingPlace& place);

  /// Applies a journal's steps in order: its findings and the mismatches
  /// the steps find are reported to `context` (which locates the offsets
  /// of the journal's resource), its plaintexts go to `plaintext`.
  void Replay(IntegrityJournal& journal, state::Context& context,
              const std::function<void(std::string_view)>& plaintext);

  /// Forgets every resource and reference seen so far: a later
  /// `resources` member replaces the earlier one, as Go's decoder keeps the
  /// last duplicate key, so the earlier resources never reach Pulumi's
  /// integrity check. (The stack rule spans both, as it always did.)
  void Reset();

  /// Resolves deferred references and duplicate URNs into findings, each
  /// passed to `emit` as it is made (never all held). Fails (kIo) only
  /// when the input cannot be read again for the texts kept as offsets
  /// (the file was rewritten meanwhile).
  Status Finish(const std::function<void(diag::Finding)>& emit);
  Result<std::vector<diag::Finding>> Finish();

 private:
  FingerprintTable<UrnCount> urns_;
  FingerprintSet providers_;
  std::map<std::string, diag::Finding> duplicates_;
  /// In chunks of 4096 (288 KiB): no doubling slack, and freed whole.
  ChunkedVector<PendingReference> pending_;
  /// The pending references' texts, in blocks that never move (no copy
  /// of the whole when they grow).
  std::vector<std::string> blocks_;
  /// The fields references are found in ("dependencies", "parent", ...),
  /// each once; PendingReference::field indexes field_names_.
  std::vector<std::string> field_names_;
  std::map<std::string, std::uint32_t, std::less<>> field_ids_;
  /// The pointer of the last pending reference (they share prefixes).
  std::string last_pointer_;
  /// The input the offsets of pending references point into.
  const io::InputStream* input_ = nullptr;
  /// Appends `text` to a block; returns its position (block << 32 | at).
  std::uint64_t Store(std::string_view text);
  std::string_view Text(std::uint64_t position, std::uint32_t size) const {
    return std::string_view(blocks_[position >> 32])
        .substr(position & 0xffffffffu, size);
  }
  std::uint32_t FieldId(std::string_view field);
  /// Keeps a reference that is not resolved yet (`target` unseen): its
  /// text, or (target_at != 0, an input that can be read again) only where
  /// it is and its size.
  void Keep(PendingReference::Kind kind, std::string_view target,
            std::size_t target_size, std::string_view field, bool in_secret,
            const FindingPlace& place, std::uint64_t target_at);
  bool Seen(const Fingerprint& urn) const {
    return journal_ == nullptr && urns_.Contains(urn);
  }
  void AddResource(const Fingerprint& urn, bool deleted);
  /// Keeps texts that are in the input as offsets from now on when
  /// `context` can read its input again (one tracker reads one input).
  void UseInput(const state::Context& context);
  std::optional<std::string> stack_;
  std::optional<std::string> project_;
  bool reported_stack_mismatch_ = false;
  /// Records a step whose finding would be at `offset` of `reporter`.
  IntegrityEvent& Record(IntegrityEvent::Kind kind, Reporter& reporter,
                         std::uint64_t offset);
  /// Whether a resource in `stack` of `project` breaks the rule now.
  bool StackMismatch(std::string_view stack, std::string_view project);
  diag::Finding StackFinding(std::string_view stack, std::string_view project,
                             const FindingPlace& place) const;

  IntegrityJournal* journal_ = nullptr;
  /// Journal mode: the URNs and provider references of the resources this
  /// tracker journaled before. A worker's resources come in file order
  /// (its ranges are handed out in order, one at a time) within one
  /// "resources" array (a worker serves one), so the fold will have seen
  /// each of them before the current resource: a reference to one of them
  /// is resolved, and no step is recorded for it (most references are to
  /// a resource a little earlier: a parent, a bucket). Cleared at
  /// kEarlierLimit entries, so the tables stay small.
  FingerprintSet earlier_urns_;
  FingerprintSet earlier_providers_;
  static constexpr std::size_t kEarlierLimit = 4096;
  /// Journal mode: the stack and project of the last resource whose stack
  /// step was recorded. The fold replays that step before a later one, and
  /// after it a resource of the same stack and project cannot be the first
  /// to break the stack rule (it matches the first resource's, or the
  /// mismatch was reported already): no step is recorded for it.
  std::optional<std::pair<std::string, std::string>> journaled_stack_;
  static void Remember(FingerprintSet& set, const Fingerprint& fingerprint) {
    if (set.size() >= kEarlierLimit) set.Clear();
    set.Insert(fingerprint);
  }
};

}  // namespace pstate::verify

#endif  // PSTATE_VERIFY_INTEGRITY_H_
