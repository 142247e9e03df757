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
#include <string>
#include <string_view>

#include "json/writer.h"
#include "state/reader.h"

namespace pstate::state {

/// What a pass decides for a leaf.
enum class LeafAction {
  kWrite,  ///< write leaf.value (as read, or as the pass replaced it)
  kDrop,   ///< leave the leaf out: an array element, or a member with its key
};

class StateWriter : public Handler {
 public:
  /// Runs on each leaf before it is written; may replace leaf.value with
  /// values allocated in leaf.arena, or drop the leaf. A failure stops the
  /// read at once and nothing more is written.
  using Pass = std::function<Result<LeafAction>(Leaf& leaf, Context& context)>;

  StateWriter(json::Writer& writer, Pass pass = {})
      : writer_(writer), pass_(std::move(pass)) {}

  void BeginObject() override {
    FlushKey();
    writer_.BeginObject();
  }
  void Key(std::string_view raw_key) override {
    // Held until the member's value is known: a dropped leaf takes its key
    // with it. The reader's key text lives until the next event only.
    pending_key_.assign(raw_key);
    has_pending_key_ = true;
  }
  void EndObject() override { writer_.EndObject(); }
  void BeginArray() override {
    FlushKey();
    writer_.BeginArray();
  }
  void EndArray() override { writer_.EndArray(); }
  Result<Flow> OnLeaf(Leaf& leaf, Context& context) override {
    Result<LeafAction> action = LeafAction::kWrite;
    if (pass_) action = pass_(leaf, context);
    if (!action.ok()) return action.status();
    if (*action == LeafAction::kDrop) {
      has_pending_key_ = false;
      return Flow::kContinue;
    }
    FlushKey();
    writer_.Write(leaf.value);
    return Flow::kContinue;
  }
  Status OnFinish(const Envelope& envelope, Context& context) override {
    (void)envelope;
    (void)context;
    writer_.Finish();
    return Status::Ok();
  }

 private:
  void FlushKey() {
    if (!has_pending_key_) return;
    writer_.Key(pending_key_, pending_key_.find('\\') != std::string::npos);
    has_pending_key_ = false;
  }

  json::Writer& writer_;
  Pass pass_;
  std::string pending_key_;
  bool has_pending_key_ = false;
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
