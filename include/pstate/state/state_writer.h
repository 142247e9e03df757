// A Handler that writes the state it is fed back out, as it streams:
// structure events and leaves go straight to a json::Writer. Rewriting
// commands (redact, decrypt, encrypt, ...) put their pass in front of it:
// the pass changes a Leaf's value, then the writer writes it.
//
// Key order, numbers and unknown fields come out exactly as read; layout
// and string escaping follow the chosen json::Layout (Go's).
#ifndef PSTATE_STATE_STATE_WRITER_H_
#define PSTATE_STATE_STATE_WRITER_H_

#include <functional>
#include <optional>
#include <string_view>

#include "pstate/json/writer.h"
#include "pstate/state/reader.h"

namespace pstate::state {

class StateWriter : public Handler {
 public:
  /// Runs on each leaf before it is written; may replace leaf.value with
  /// values allocated in leaf.arena. A failure stops the read at once and
  /// nothing more is written.
  using Pass = std::function<Result<Flow>(Leaf& leaf, Context& context)>;

  StateWriter(json::Writer& writer, Pass pass = {})
      : writer_(writer), pass_(std::move(pass)) {}

  void BeginObject() override { writer_.BeginObject(); }
  void Key(std::string_view raw_key) override {
    writer_.Key(raw_key, raw_key.find('\\') != std::string_view::npos);
  }
  void EndObject() override { writer_.EndObject(); }
  void BeginArray() override { writer_.BeginArray(); }
  void EndArray() override { writer_.EndArray(); }
  Result<Flow> OnLeaf(Leaf& leaf, Context& context) override {
    Result<Flow> flow = Flow::kContinue;
    if (pass_) flow = pass_(leaf, context);
    if (flow.ok()) writer_.Write(leaf.value);
    return flow;
  }
  Status OnFinish(const Envelope& envelope, Context& context) override {
    (void)envelope;
    (void)context;
    writer_.Finish();
    return Status::Ok();
  }

 private:
  json::Writer& writer_;
  Pass pass_;
};

/// Copy-on-write rewriting of a value tree: calls `fn` on every value in
/// pre-order with the key it sits under (nullptr for the root and array
/// elements); when `fn` returns a replacement, that subtree is replaced and
/// not descended into. Containers on the path to a replacement are copied
/// into `arena`; everything else is shared with the input. Returns the
/// (possibly new) root. No pointer strings are built: rewriting stays as
/// fast as walking.
using RewriteFn = std::function<std::optional<json::Value>(
    const json::Value& value, const json::Value* key)>;
json::Value RewriteValue(const json::Value& root, json::Arena& arena,
                         const RewriteFn& fn);

}  // namespace pstate::state

#endif  // PSTATE_STATE_STATE_WRITER_H_
