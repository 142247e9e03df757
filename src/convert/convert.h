// `pstate convert`: a state from one envelope or version to another
// (state-operations.md §2 in the reference notes; Pulumi's
// pkg/resource/stack/migrate/*.go, pkg/resource/stack/deployment.go and
// pkg/backend/diy/backend.go), written by the normalizer and verified
// before it is renamed into place.
#ifndef PSTATE_CONVERT_CONVERT_H_
#define PSTATE_CONVERT_CONVERT_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "io/input.h"
#include "io/spool.h"
#include "normalize/normalizer.h"

namespace pstate::convert {

/// The API's (pstate/pstate.h).
using Target = ::pstate::ConvertTarget;

struct Config {
  std::string input = "-";
  std::string output = "-";
  Target to = Target::kExport;
  /// 3 or 4; nullopt: the input's, with versions 0-2 migrated to 3.
  std::optional<int> version;
  /// The checkpoint's stack ("ORG/PROJECT/STACK" or a bare "STACK") when
  /// the input does not name one. Every URN must agree with it.
  std::string stack;
  /// Convert even when URNs name another stack or project.
  bool force = false;
  std::optional<normalize::Layout> layout;
  bool pulumi_numbers = false;
  bool drop_unknown = false;
  /// nullopt: from the output name (".gz", ".zst").
  std::optional<io::Compression> compression;
  /// Where standard input and compressed inputs are decoded: every pass
  /// (survey, conversion) reads the input again.
  io::SpoolOptions spool;
  /// state::ReadOptions::on_progress of the passes over the input (the
  /// survey, then the conversion: the count starts again).
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
};

/// The API's (pstate/pstate.h).
using Outcome = ::pstate::ConvertResult;

/// Runs the conversion. Failures: kInvalidArgument for a usage error (a
/// URN of another stack, a missing --stack), kUnsupported when version 4
/// cannot go down to 3 (the message names the resources using each
/// feature), kFormat when the converted state would fail verification
/// although the input passed (nothing is written), and the reader's
/// errors (kNotFound, kIo, kSyntax, ...) located as "file:line:column".
Result<Outcome> Run(const Config& config);

}  // namespace pstate::convert

#endif  // PSTATE_CONVERT_CONVERT_H_
