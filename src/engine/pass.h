// A command as a typed pass: per-resource work that can run on any thread,
// a fold in file order, and the rest of the state read as always.
//
// A pass is a state::Handler (it sees the envelope, every leaf that is not
// a resource, and OnFinish, on the reader's thread) that also splits its
// work on resources in two:
//   Worker::PerResource  pure with respect to the pass: it reads the
//                        resource and its worker's own scratch, and writes
//                        only its Partial, so workers run side by side;
//   Pass::Fold           the cross-resource half, called on the reader's
//                        thread with each resource's Partial strictly in
//                        file (ordinal) order.
// The executor (executor.h) chooses how resources reach them. Sequentially
// the pass's OnLeaf gets each resource as any other leaf and does both
// halves at once (RunInline, or a fused path that needs no Partial); in
// parallel the executor hands resources to workers and their partials to
// Fold. Both must give the same result: the executor's tests and the golden
// cases run both ways.
#ifndef PSTATE_ENGINE_PASS_H_
#define PSTATE_ENGINE_PASS_H_

#include <memory>
#include <utility>

#include "state/reader.h"

namespace pstate::engine {

template <typename PartialT>
class Worker {
 public:
  virtual ~Worker() = default;
  /// The per-resource work on `resource` (an element of "resources").
  /// `context` locates offsets inside the resource; findings reported
  /// through it are added to the report, in the order they came, just
  /// before the resource's Fold. It touches only this worker and `out`.
  virtual void PerResource(state::Leaf& resource, state::Context& context,
                           PartialT& out) = 0;
};

template <typename PartialT>
class Pass : public state::Handler {
 public:
  using Partial = PartialT;

  /// A worker that starts from what the pass knows now (what the envelope
  /// said so far: e.g. the secrets provider). Called on the reader's thread
  /// before each run of consecutive resources, once per thread.
  virtual std::unique_ptr<Worker<Partial>> NewWorker() = 0;
  /// The cross-resource half, on the reader's thread, in file order.
  /// Fold may move from `partial`; the executor then reuses it for a later
  /// resource: a Partial with a `void Recycle()` member is recycled by it
  /// (emptied, keeping its allocations), any other is assigned anew, so
  /// PerResource always starts from an empty Partial.
  /// `context` locates offsets inside this resource (in parallel by
  /// reading its bytes again: Locate there is for the rare finding made
  /// here, not for every step). kStop ends the read as a handler's kStop
  /// does (a sink that has what it wants: `ls --limit`); in parallel the
  /// ranges read ahead are dropped unfolded.
  virtual state::Flow Fold(Partial&& partial, state::Context& context) = 0;
  /// False when this run of the pass cannot be split (e.g. it carries
  /// handlers that are not passes); the executor then reads sequentially.
  virtual bool splittable() const { return true; }
};

/// Both halves at once, for a pass's OnLeaf in the sequential executor.
template <typename PartialT>
state::Flow RunInline(Pass<PartialT>& pass, Worker<PartialT>& worker,
                      state::Leaf& resource, state::Context& context) {
  PartialT partial{};
  worker.PerResource(resource, context, partial);
  return pass.Fold(std::move(partial), context);
}

}  // namespace pstate::engine

#endif  // PSTATE_ENGINE_PASS_H_
