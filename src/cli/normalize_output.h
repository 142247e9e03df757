// What `normalize` and `convert` share on the command line: their output
// flags (--layout, --compress) mapped to the core's options (the notes they
// print are report/normalize.h's).
#ifndef PSTATE_CLI_NORMALIZE_OUTPUT_H_
#define PSTATE_CLI_NORMALIZE_OUTPUT_H_

#include <optional>
#include <string>

#include <pstate/pstate.h>

namespace pstate::cli {

/// The output form asked for; nullopt members are the command's defaults.
struct OutputForm {
  std::optional<Layout> layout;
  std::optional<Compression> compression;
};

/// Maps --layout ("" or export, diy, diy-state-command) and --compress (""
/// or gzip, zstd, none). kInvalidArgument names the flag and the value.
Result<OutputForm> ParseOutputForm(const std::string& layout,
                                   const std::string& compress);

}  // namespace pstate::cli

#endif  // PSTATE_CLI_NORMALIZE_OUTPUT_H_
