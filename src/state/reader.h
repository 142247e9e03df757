// The streaming state reader: one forward pass that recognizes a Pulumi
// state's structure and hands each piece to a Handler.
//
// Pulumi writes two envelopes (reference: pulumi-state-format.md §1):
//   export      {"version", "features", "deployment": {...}}
//   checkpoint  {"version", "features", "checkpoint": {"stack", "config",
//                                                      "latest": {...}}}
//   and the legacy unversioned checkpoint {"stack"|"target", "config",
//   "latest"}. The deployment holds "manifest", "secrets_providers",
//   "resources", "pending_operations", "metadata", "snippets", "extensions".
//
// The reader walks those containers itself and parses every other value as a
// Leaf (the version, the manifest, each resource, each pending operation,
// ...). A Leaf lives until the handler returns; then its memory is reused.
// So memory holds one leaf at a time plus what handlers choose to keep,
// whatever the size of the file.
//
// The handler sees structure events only for the containers the reader
// descends into, in document order, interleaved with the leaves, so a
// writer can reproduce the document by mirroring them.
#ifndef PSTATE_STATE_READER_H_
#define PSTATE_STATE_READER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "diag/report.h"
#include "io/input.h"
#include "io/window.h"
#include "json/parser.h"
#include "json/value.h"

namespace pstate::state {

/// What a leaf is, by where it sits in the envelope.
enum class Role {
  kVersion,
  kFeatures,
  kStack,   ///< checkpoint "stack" (or legacy "target")
  kConfig,  ///< checkpoint "config"
  kManifest,
  kSecretsProviders,
  kResource,  ///< one element of "resources"
  kPendingOperation,
  kMetadata,
  kSnippet,
  kExtension,  ///< one member of "extensions"
  /// A known container holding something other than the expected object or
  /// array (e.g. "resources": null); the whole value is the leaf.
  kMisshapenContainer,
  kUnknown,  ///< a member Pulumi does not define
};

enum class EnvelopeKind {
  kUnknown,
  kExport,            ///< pulumi stack export
  kCheckpoint,        ///< versioned file-backend checkpoint
  kLegacyCheckpoint,  ///< unversioned (version 0) checkpoint
};

std::string_view EnvelopeKindName(EnvelopeKind kind);

/// What the reader learned about the envelope. Complete at Finish; during
/// the walk it holds what has been read so far (Pulumi writes version and
/// features first, so they are normally known before any resource).
struct Envelope {
  EnvelopeKind kind = EnvelopeKind::kUnknown;
  std::optional<std::int64_t> version;
  std::vector<std::string> features;
  /// A deployment is present (export "deployment" or checkpoint "latest",
  /// not null). A checkpoint without one is a valid empty stack.
  bool has_deployment = false;
  std::uint64_t resources = 0;
  std::uint64_t pending_operations = 0;
};

struct Leaf {
  Role role = Role::kUnknown;
  std::string_view pointer;  ///< JSON pointer of `value`
  std::string_view key;      ///< member name (decoded), for member leaves
  std::size_t index = 0;     ///< position in its array, for element leaves
  /// The parsed value. Handlers that rewrite the document may replace it
  /// with values allocated in `arena`.
  json::Value value;
  json::Arena* arena = nullptr;
  /// The value's bytes are [value.offset, end_offset) of the decoded input
  /// (for sizes, and to read the leaf again by range on a second pass).
  std::uint64_t end_offset = 0;
  /// Those bytes, as they are in the input window: valid during OnLeaf only
  /// (e.g. to hash or copy a leaf without walking its tree).
  std::string_view bytes;
  /// Keys that repeat inside `value`, as the parser found them (Go's
  /// decoder keeps the last occurrence). Valid during OnLeaf only.
  std::span<const json::DuplicateKey> duplicates;
};

/// A member of an object of the envelope (the root, "checkpoint", the
/// deployment), announced before its value is read. The reader matches
/// keys to Pulumi's struct fields as Go's encoding/json does: an exact
/// match first, otherwise case-insensitively ("Resources" is "resources").
struct EnvelopeMember {
  std::string_view parent;  ///< JSON pointer of the object holding it
  std::string_view key;     ///< the key as written (decoded)
  /// The Pulumi field the key matched ("" for a member Pulumi ignores).
  std::string_view field;
  std::uint64_t key_offset = 0;
  /// The object already had a member for the same field (or, for an
  /// unknown member, the same key). Go keeps the last one.
  bool duplicate = false;
};

/// Whether the read goes on after a handler call (ripgrep's sink contract):
/// kStop ends the read at once, successfully, without OnFinish. A handler
/// that fails returns its Status instead; Read returns that Status.
enum class Flow { kContinue, kStop };

/// Services the reader offers to handlers while a leaf is current.
class Context {
 public:
  virtual ~Context() = default;
  /// Adds a finding located at `offset` (an absolute offset inside the
  /// current leaf, e.g. json::Value::offset).
  virtual void Report(diag::Finding finding, std::uint64_t offset) = 0;
  /// Adds a finding that has no place in the file (cross-resource results
  /// computed at the end); line and column stay as given.
  virtual void ReportUnlocated(diag::Finding finding) = 0;
  virtual io::LineColumn Locate(std::uint64_t offset) = 0;
  virtual const Envelope& envelope() const = 0;
  /// The plain file being read, when its bytes can be read again by offset
  /// (io::RangeReader), so a result made at the end may keep offsets
  /// instead of copies of texts; nullptr for a pipe or a compressed
  /// stream (the default).
  virtual const io::InputStream* input_file() const { return nullptr; }
};

class Handler {
 public:
  virtual ~Handler() = default;

  // Containers the reader descends into. `raw_key` is the escaped key text.
  virtual void BeginObject() {}
  virtual void Key(std::string_view raw_key) { (void)raw_key; }
  virtual void EndObject() {}
  virtual void BeginArray() {}
  virtual void EndArray() {}

  /// Each member of an envelope object, before its value (a leaf or a
  /// container) is read.
  virtual void OnEnvelopeMember(const EnvelopeMember& member,
                                Context& context) {
    (void)member;
    (void)context;
  }
  virtual Result<Flow> OnLeaf(Leaf& leaf, Context& context) = 0;
  /// After the whole input was read without a fatal error or a stop.
  virtual Status OnFinish(const Envelope& envelope, Context& context) {
    (void)envelope;
    (void)context;
    return Status::Ok();
  }
};

/// Two handlers fed the same events, `first` before `second` for each (e.g.
/// verify's checks and the asset audit of `verify --assets`). The read
/// stops when either stops, and fails with the first failure.
class Tee : public Handler {
 public:
  Tee(Handler& first, Handler& second) : first_(first), second_(second) {}
  void BeginObject() override {
    first_.BeginObject();
    second_.BeginObject();
  }
  void Key(std::string_view raw_key) override {
    first_.Key(raw_key);
    second_.Key(raw_key);
  }
  void EndObject() override {
    first_.EndObject();
    second_.EndObject();
  }
  void BeginArray() override {
    first_.BeginArray();
    second_.BeginArray();
  }
  void EndArray() override {
    first_.EndArray();
    second_.EndArray();
  }
  void OnEnvelopeMember(const EnvelopeMember& member,
                        Context& context) override {
    first_.OnEnvelopeMember(member, context);
    second_.OnEnvelopeMember(member, context);
  }
  Result<Flow> OnLeaf(Leaf& leaf, Context& context) override;
  Status OnFinish(const Envelope& envelope, Context& context) override;

 private:
  Handler& first_;
  Handler& second_;
};

/// One "resources" array about to be read (ReadOptions::on_resources).
struct ResourcesSpan {
  std::string_view pointer;  ///< JSON pointer of the array
  std::uint64_t offset = 0;  ///< absolute offset just past its '['
  io::LineColumn at;         ///< line:column of that offset
};

/// What ReadOptions::on_resources did with a "resources" array.
struct ResourcesRead {
  /// False: nothing; the reader reads the elements itself, as without the
  /// hook. True: the hook read every element and the closing ']'.
  bool handled = false;
  std::uint64_t end = 0;     ///< absolute offset just past the ']'
  io::LineColumn at_end;     ///< line:column of `end`
  std::size_t elements = 0;  ///< how many elements the array had
  /// The handler stopped (a fold answered Flow::kStop) before the array's
  /// end: the read ends as on a handler's kStop; `end` is not used.
  bool stopped = false;
};

struct ReadOptions {
  int max_depth = json::kDefaultMaxDepth;
  /// The window's first size (it grows for a larger piece). Small enough
  /// that the bytes read(2) brings in are still in the CPU's cache when
  /// the parser reaches them: 256 KiB parsed about 8% faster than 4 MiB
  /// (docs/performance.md, "Reading through a buffer").
  std::size_t window_size = 256u << 10;
  /// Called every few MiB with (source bytes consumed, source size or 0).
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
  /// The parallel executor's hook (engine/executor.h): called at each
  /// "resources" array, just past its '['. When it answers `handled`, it
  /// has read the elements and the ']' itself (on other threads, from the
  /// same plain file) and delivered them to the handler; the reader goes
  /// on at ResourcesRead::end without reading the bytes in between, so its
  /// handler sees BeginArray, then EndArray. Everything around the array
  /// is read as always, so every envelope rule holds. A failure it returns
  /// ends the read as a handler's failure does. The Context is the
  /// reader's.
  std::function<Result<ResourcesRead>(const ResourcesSpan&, Context&)>
      on_resources;
};

/// Reads `input` to its end (or until the handler stops), calling
/// `handler`. The reader has no policy: it reports only what makes the
/// input unreadable as a state (I/O, invalid JSON, not a state envelope,
/// an unsupported version). Such a failure is added to `report` as one
/// located fatal finding (diag::IsFatal), the single place its text lives,
/// and the returned Status carries only its class. A handler's failure is
/// returned as the handler's Status, and nothing is added to `report`.
/// Findings handlers add through Context go to `report`.
Status Read(io::InputStream& input, Handler& handler, diag::Report& report,
            const ReadOptions& options = {});

/// Feature names Pulumi knows (pulumi-state-format.md §1.8).
bool IsKnownFeature(std::string_view name);

}  // namespace pstate::state

#endif  // PSTATE_STATE_READER_H_
