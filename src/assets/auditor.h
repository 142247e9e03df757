// The asset audit over a stream of state leaves: finds every asset and
// archive, hashes them on a thread pool, and hands the results back in the
// state's order. Shared by `pstate assets` and `pstate verify --assets`.
#ifndef PSTATE_ASSETS_AUDITOR_H_
#define PSTATE_ASSETS_AUDITOR_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "asset_hash/hasher.h"
#include "asset_hash/spec.h"
#include "assets/asset_finder.h"
#include "base/thread_pool.h"
#include "diag/finding.h"
#include "io/window.h"
#include "state/reader.h"

namespace pstate::assets {

/// The audit of one item: where it is, what was recorded, what was found.
struct ItemResult {
  FoundItem item;  ///< spec.text is cleared once hashed (may be secret)
  asset_hash::Outcome
      outcome;        ///< outcome.source is set even for invalid items
  io::LineColumn at;  ///< line:column of the object in the input
  std::vector<io::LineColumn> notes_at;  ///< line:column of each item.notes
};

/// Hashes one item (unless invalid). Never throws for I/O problems.
asset_hash::Outcome CheckItem(const FoundItem& item,
                              const asset_hash::Options& options);

/// Counts per status, in asset_hash::Status order, plus audit notes (the
/// API's AssetTally).
using Tally = ::pstate::AssetTally;

/// Counts `r` in `tally`.
void Count(Tally& tally, const ItemResult& r);

/// The API's row for `r` (its spec's text, which may be secret, is not in
/// it).
AssetRow ToRow(ItemResult&& r);

/// The findings for one result: the status's code (none for ok), then one
/// per audit note, all placed at the item's line:column.
std::vector<diag::Finding> ToFindings(const ItemResult& result);

class Auditor {
 public:
  using Sink = std::function<void(ItemResult&& result)>;

  /// `sink` receives every result in state order, on the calling thread,
  /// from inside OnLeaf or Finish.
  Auditor(asset_hash::Options options, int jobs, Sink sink);

  /// Queues the leaf's items (resources and pending operations; other
  /// roles hold none). Must be called while `leaf` is current.
  void OnLeaf(const state::Leaf& leaf, state::Context& context);
  /// Queues `deliver` behind everything queued so far: it runs, on the
  /// calling thread, right after the sink received every earlier result.
  void Enqueue(std::function<void()> deliver);
  /// Delivers everything still queued.
  void Finish();
  /// Ok, or why the hashing threads could not all be started.
  const Status& status() const { return pool_.status(); }

 private:
  asset_hash::Options options_;
  Sink sink_;
  ThreadPool pool_;
};

/// A state::Handler that only audits (pstate assets).
class AuditHandler : public state::Handler {
 public:
  explicit AuditHandler(Auditor& auditor) : auditor_(auditor) {}
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override {
    auditor_.OnLeaf(leaf, context);
    return state::Flow::kContinue;
  }
  /// Delivers every result still queued.
  Status OnFinish(const state::Envelope&, state::Context&) override {
    auditor_.Finish();
    return Status::Ok();
  }

 private:
  Auditor& auditor_;
};

}  // namespace pstate::assets

#endif  // PSTATE_ASSETS_AUDITOR_H_
