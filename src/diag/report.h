// The findings of one input, with counts that are never capped.
#ifndef PSTATE_DIAG_REPORT_H_
#define PSTATE_DIAG_REPORT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "diag/finding.h"
#include "diag/fingerprint.h"

namespace pstate::diag {

/// The API's counts (pstate/pstate.h).
using Summary = ::pstate::FindingCounts;

/// Collects the findings of one input into the API's result (Findings):
/// fingerprints, filters, counts and the bound on the findings kept.
class Report {
 public:
  /// `max_kept` bounds the findings kept for printing (0 = no bound): the
  /// first `max_kept` in file order are kept, whatever order they arrive
  /// in, in memory bounded by `max_kept`; counts
  /// always include every finding.
  explicit Report(std::string file, std::size_t max_kept = 0)
      : identity_(LogicalIdentity(file)), max_kept_(max_kept) {
    result_.file = std::move(file);
  }

  /// Sets the finding's fingerprint, then counts and keeps it unless the
  /// filter rejects it. Fatal findings are never filtered: an unreadable
  /// input is never "accepted".
  void Add(Finding finding);

  /// `findings` (all of an input's: made with max_kept 0) added again
  /// through `filter`, keeping `max_kept` (pstate::FilterFindings).
  static Findings Refilter(const Findings& findings,
                           std::shared_ptr<const FindingFilter> filter,
                           std::size_t max_kept);

  /// Calls `rewrite` on every kept finding; one it changed (it returns
  /// true) gets the fingerprint of its new text. For rewriting texts once a
  /// pass has ended (secrets/mask.h: verify masks known secrets); places,
  /// codes and counts must not change.
  void RewriteKept(const std::function<bool(Finding&)>& rewrite);

  /// Findings the filter rejects are tallied as suppressed only.
  void set_filter(std::shared_ptr<const FindingFilter> filter) {
    filter_ = std::move(filter);
  }
  /// The file's logical identity in fingerprints (LogicalIdentity(file)).
  const std::string& identity() const { return identity_; }

  const std::string& file() const { return result_.file; }
  /// The kept findings; in file order only after SortByLocation().
  const std::vector<Finding>& findings() const { return result_.findings; }
  /// Findings counted but not kept because of max_kept.
  std::uint64_t omitted() const { return result_.omitted; }
  const Summary& summary() const { return result_; }
  void set_resources(std::uint64_t n) { result_.resources = n; }
  /// The findings as the API returns them (report/ renders them); in file
  /// order only after SortByLocation().
  const Findings& result() const { return result_; }
  /// The result, sorted by location, taken out of the report.
  Findings Take() &&;
  /// Orders kept findings by line and column (stable; findings without a
  /// place keep their order after the located ones). Checks that only
  /// conclude at the end of the input report late; readers want file order.
  void SortByLocation();
  /// True once a finding with a fatal code (IsFatal) was added: the input
  /// could not be read as a state.
  bool fatal() const { return result_.unreadable; }

 private:
  std::string identity_;
  std::shared_ptr<const FindingFilter> filter_;
  std::size_t max_kept_;
  /// The file, the kept findings (when capped and not sorted: a heap), the
  /// counts, omitted and unreadable.
  Findings result_;
  std::uint64_t next_sequence_ = 0;
  /// The kept findings are in file order (else, when capped, a heap).
  bool sorted_ = false;
};

}  // namespace pstate::diag

#endif  // PSTATE_DIAG_REPORT_H_
