// The state::Handler behind `pstate normalize` and `pstate convert`: writes
// the state it is fed in one of Pulumi's exact layouts (layout.h), as Go's
// encoding/json would marshal Pulumi's structs (state/schema.h), losing
// nothing Pulumi would not lose unless asked to.
//
// Rules (reference: state-operations.md §1.2-1.3; Go's encoding/json
// encode.go, Pulumi's sdk/go/common/apitype/core.go):
//  - struct-typed objects (envelope, checkpoint, deployment, manifest,
//    resources, operations, metadata, snippets, ...) in Go's field order;
//    keys matched as Go matches them (exact, then case-insensitively) and
//    written with the field's own spelling; omitempty fields dropped when
//    false, "", 0, empty or null; non-omitempty fields written even when
//    absent, with Go's zero value ("metadata": {} on a version 3+
//    deployment); members Pulumi does not define kept after the known ones,
//    in their order, with a note (or dropped with drop_unknown);
//  - maps (property values, propertyDependencies, resourceHooks,
//    extensions, config, env_vars, references) sorted bytewise by unescaped
//    key, as Go sorts map keys;
//  - duplicate keys: the last wins (Go's decoder), each dropped one noted;
//  - strings in Go's escaping for the layout; `secrets_providers.state`
//    passed through as Go passes a json.RawMessage;
//  - numbers: Go's float64 spelling when it denotes the very same value,
//    otherwise the source digits are kept and noted (pulumi_numbers rounds
//    as Go does); integer fields (`version`) as integers;
//  - timestamps as Go's time.Time writes them (RFC 3339, fraction without
//    trailing zeros, "Z" for a zero offset); features sorted.
//
// Resources are written as they arrive: memory holds one resource plus the
// small envelope members. When the input has a member after a resource
// array that Go writes before it (a hand-edited file), a streaming pass
// cannot put it in place: the pass fails with needs_reorder() and the
// caller runs it again with Mode::kSpool, in which the arrays are spooled
// to temporary files and everything is written at the end.
#ifndef PSTATE_NORMALIZE_NORMALIZER_H_
#define PSTATE_NORMALIZE_NORMALIZER_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "diag/failure.h"
#include "io/output.h"
#include "normalize/layout.h"
#include "state/reader.h"

namespace pstate::normalize {

/// The API's (pstate/pstate.h).
using NoteKind = ::pstate::NoteKind;
using Note = ::pstate::Note;

/// What envelope the output has.
enum class Envelope {
  kSameAsInput,
  kExport,
  kCheckpoint,
};

struct Options {
  /// nullopt: kExport for export envelopes, kDiy for checkpoints.
  std::optional<Layout> layout;
  /// Round every property number through float64 as Pulumi does (a number
  /// beyond float64, such as 1e400, is then an error, as in Pulumi).
  bool pulumi_numbers = false;
  /// Leave out members Pulumi does not define, as Pulumi does.
  bool drop_unknown = false;
  /// Notes kept per kind; the rest are counted only.
  std::size_t max_notes = 100;

  // Conversion (pstate convert). Normalize leaves these as they are.
  Envelope envelope = Envelope::kSameAsInput;
  /// The output's version (3 or 4); nullopt keeps the input's. Versions
  /// 0-2 are migrated to 3 field by field when a version is set.
  std::optional<int> version;
  /// The output's features (for version 4), sorted by the caller.
  std::vector<std::string> features;
  /// The checkpoint's "stack" when the output is a checkpoint.
  std::string stack;
  /// Leave pending operations out, each with a kDropped note, as `pulumi
  /// stack import` does (pkg/cmd/pulumi/stack/io.go: SaveSnapshot).
  bool drop_pending_operations = false;
};

enum class Mode {
  kStream,  ///< write as the input arrives; may need a second pass
  kSpool,   ///< spool arrays to temporary files; always succeeds
};

class Normalizer : public state::Handler {
 public:
  Normalizer(io::Output& out, Options options, Mode mode = Mode::kStream);
  ~Normalizer() override;
  Normalizer(const Normalizer&) = delete;
  Normalizer& operator=(const Normalizer&) = delete;

  void BeginObject() override;
  void Key(std::string_view raw_key) override;
  void EndObject() override;
  void BeginArray() override;
  void EndArray() override;
  void OnEnvelopeMember(const state::EnvelopeMember& member,
                        state::Context& context) override;
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override;
  Status OnFinish(const state::Envelope& envelope,
                  state::Context& context) override;

  /// The pass failed because the input's members are out of Go's order
  /// and part of the output was already written: run again in kSpool.
  bool needs_reorder() const;
  /// The normalizer's own failure with its place and pointer (its file is
  /// left empty), when it found one in the input: what a failed Read's
  /// Status says, located.
  const std::optional<diag::Failure>& failure() const;
  /// The layout written (known once output began).
  Layout layout() const;
  /// Notes in input order, at most max_notes per kind.
  const std::vector<Note>& notes() const;
  /// All notes of a kind, including those not kept.
  std::uint64_t note_count(NoteKind kind) const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace pstate::normalize

#endif  // PSTATE_NORMALIZE_NORMALIZER_H_
