// `pstate assets`' core entry point: every asset and archive of one input,
// hashed on a thread pool and handed to a sink in the state's order, then
// the tally and, for an unreadable input, its one failure.
#ifndef PSTATE_ASSETS_RUN_H_
#define PSTATE_ASSETS_RUN_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "asset_hash/hasher.h"
#include "assets/auditor.h"
#include "diag/failure.h"

namespace pstate::assets {

/// Receives one input's results (report/assets.h has the text and JSON
/// renderers). Row is called in state order as soon as a row and every row
/// before it are hashed, so memory stays bounded; End once, last.
class RowSink {
 public:
  virtual ~RowSink() = default;
  virtual void Row(ItemResult&& result) = 0;
  /// `failure`: the input could not be read (or hashing could not start);
  /// rows delivered before stay valid.
  virtual void End(const Tally& tally,
                   const std::optional<diag::Failure>& failure) = 0;
};

struct Config {
  std::string input = "-";  ///< path, or "-" for standard input
  /// Root, outside-root policy and limits; set `options.run` to share the
  /// run's totals between inputs.
  asset_hash::Options options;
  /// Hashing threads, the caller's included (1 to 1024).
  int jobs = 1;
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
};

struct Outcome {
  Tally tally;
  std::optional<diag::Failure> failure;
  /// Any mismatch, missing or error (tally.failed()).
  bool failed() const { return tally.failed(); }
};

/// Audits `config.input`, feeding `sink` (End included).
Outcome Run(const Config& config, RowSink& sink);

}  // namespace pstate::assets

#endif  // PSTATE_ASSETS_RUN_H_
