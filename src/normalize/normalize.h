// `pstate normalize`: one state in, the same state in one of Pulumi's exact
// layouts out (normalizer.h has the rules), or, with `check`, whether the
// input already is in that form and where it first is not.
#ifndef PSTATE_NORMALIZE_NORMALIZE_H_
#define PSTATE_NORMALIZE_NORMALIZE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "io/input.h"
#include "io/spool.h"
#include "normalize/normalizer.h"

namespace pstate::normalize {

struct Config {
  std::string input = "-";   ///< path, or "-" for standard input
  std::string output = "-";  ///< path, or "-" for standard output
  /// Replace the input (atomically), keeping the old file as "<in>.bak".
  bool in_place = false;
  /// Write nothing; report whether the input is already normalized.
  bool check = false;
  Options options;
  /// nullopt: from the output name (".gz", ".zst"); in place, the input's.
  std::optional<io::Compression> compression;
  /// Where standard input and compressed inputs are decoded, so that they
  /// can be read again (--check, a second pass for a hand-edited file).
  io::SpoolOptions spool;
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
};

/// The API's (pstate/pstate.h): the layout, with `check` whether the
/// input is normalized and else the first place that differs, the notes.
using Outcome = ::pstate::NormalizeResult;

/// Runs normalize. The input is opened with io::OpenReplayable ("-" is
/// standard input, read by the io layer only). Failures (kNotFound, kIo,
/// kSyntax, kFormat, kInvalidArgument, kUnsupported) carry a message naming the
/// file and, where there is one, "line:column" and the JSON pointer. On failure
/// no output file appears and an existing one is untouched.
Result<Outcome> Run(const Config& config);

/// The JSON pointer of the innermost value of the state in `input` that
/// holds decoded byte `offset`; "after P" when the offset lies between
/// values, after the one P names; "" before the first value.
std::string PointerAtOffset(const io::Replayable& input, std::uint64_t offset);

}  // namespace pstate::normalize

#endif  // PSTATE_NORMALIZE_NORMALIZE_H_
