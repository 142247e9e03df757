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
#include <string>
#include <string_view>
#include <vector>

#include "pstate/base/result.h"
#include "pstate/diag/report.h"
#include "pstate/io/input.h"
#include "pstate/io/window.h"
#include "pstate/json/parser.h"
#include "pstate/json/value.h"

namespace pstate::state {

/// What a leaf is, by where it sits in the envelope.
enum class Role {
  kVersion,
  kFeatures,
  kStack,           ///< checkpoint "stack" (or legacy "target")
  kConfig,          ///< checkpoint "config"
  kManifest,
  kSecretsProviders,
  kResource,        ///< one element of "resources"
  kPendingOperation,
  kMetadata,
  kSnippet,
  kExtension,       ///< one member of "extensions"
  /// A known container holding something other than the expected object or
  /// array (e.g. "resources": null); the whole value is the leaf.
  kMisshapenContainer,
  kUnknown,         ///< a member Pulumi does not define
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
};

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
  /// A parser for values embedded in strings (a secret's plaintext).
  virtual json::Parser& parser() = 0;
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
  virtual void OnLeaf(Leaf& leaf, Context& context) = 0;
  /// After the whole input was read without a fatal error.
  virtual void OnFinish(const Envelope& envelope, Context& context) {
    (void)envelope;
    (void)context;
  }
};

struct ReadOptions {
  int max_depth = json::kDefaultMaxDepth;
  std::size_t window_size = 4u << 20;
  /// Called every few MiB with (source bytes consumed, source size or 0).
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
};

/// Reads `input` to its end, calling `handler`. Findings go to `report`.
/// Returns an error Status when the input cannot be read as a state (I/O,
/// invalid JSON, not a state envelope, unsupported version); the same
/// problem is then also in `report` as a located fatal finding.
Status Read(io::InputStream& input, Handler& handler, diag::Report& report,
            const ReadOptions& options = {});

/// Feature names Pulumi knows (pulumi-state-format.md §1.8).
bool IsKnownFeature(std::string_view name);

}  // namespace pstate::state

#endif  // PSTATE_STATE_READER_H_
