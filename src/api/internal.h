// What the files of the API (src/api/) share: the one-call-at-a-time lock
// and the mappings more than one call uses. Private to src/api/.
#ifndef PSTATE_API_INTERNAL_H_
#define PSTATE_API_INTERNAL_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>

#include "diag/report.h"
#include "io/input.h"
#include "io/spool.h"
#include "pstate/pstate.h"
#include "verify/run.h"

namespace pstate {

struct State::Impl {
  std::string path;  ///< what the modules open: the file, "-", or the copy
  std::string name;
  InputLimits limits;
  /// A state in memory: its private copy (removed with the last handle).
  std::unique_ptr<io::TempPath> copy;
  /// Standard input is read by one call only.
  mutable std::atomic<bool> stdin_taken{false};
};

}  // namespace pstate

namespace pstate::api {

/// Calls are serialized by one mutex: the input limits are process-wide in
/// io (io::DefaultInputLimits), so a call sets its inputs' limits for its
/// duration (docs/api.md, "Threading").
inline std::mutex& CallMutex() {
  static std::mutex mu;
  return mu;
}

/// One API call: exclusive, with `limits` as io's defaults (restored when
/// the call ends).
class Call {
 public:
  explicit Call(const InputLimits& limits)
      : lock_(CallMutex()), saved_(io::DefaultInputLimits()) {
    io::SetDefaultInputLimits(limits);
  }
  ~Call() { io::SetDefaultInputLimits(saved_); }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

 private:
  std::lock_guard<std::mutex> lock_;
  InputLimits saved_;
};

/// verify's config for `config` (schemas, assets, threads, progress).
verify::Config ToVerifyConfig(const VerifyConfig& config);

/// The report's findings, in file order, taken out of it; with a filter,
/// those it admits (the report kept every finding), the first
/// `max_findings`.
Findings TakeFindings(diag::Report&& report, const FindingFilter& filter,
                      std::size_t max_findings);

}  // namespace pstate::api

#endif  // PSTATE_API_INTERNAL_H_
