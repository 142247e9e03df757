// `pstate assets`' core entry point: every asset and archive of one input,
// hashed on a thread pool and handed over as the API's rows in the state's
// order, then the tally and, for an unreadable input, its one failure.
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

struct Config {
  std::string input = "-";  ///< path, or "-" for standard input
  /// Root, outside-root policy and limits; set `options.run` to share the
  /// run's totals between inputs.
  asset_hash::Options options;
  /// Hashing threads, the caller's included (1 to 1024).
  int jobs = 1;
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
  /// Every row, in state order, as soon as it and every row before it are
  /// hashed (so memory stays bounded), on the calling thread.
  std::function<void(AssetRow&&)> on_row;
};

struct Outcome {
  Tally tally;
  /// The input could not be read (or hashing could not start); rows
  /// delivered before stay valid.
  std::optional<diag::Failure> failure;
  /// Any mismatch, missing or error (tally.failed()).
  bool failed() const { return tally.failed(); }
};

/// Audits `config.input`, handing each row to `config.on_row`.
Outcome Run(const Config& config);

}  // namespace pstate::assets

#endif  // PSTATE_ASSETS_RUN_H_
