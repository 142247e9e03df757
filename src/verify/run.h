// `pstate verify`'s core entry point: one input in, one report out.
//
// The command line (src/cli/cmd_verify.cc) maps flags to a Config, calls
// LoadSchemas once per run and VerifyInput once per input, and prints. Here
// the checks are put together for one pass over the input: verify's own
// (Verifier, an engine::Pass, run by engine::Run on config.jobs threads
// over a plain file), or, with --assets (assets::AuditHandler) or --schema
// (SchemaChecks), those beside it through state::Tee in one sequential
// read.
#ifndef PSTATE_VERIFY_RUN_H_
#define PSTATE_VERIFY_RUN_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "asset_hash/spec.h"
#include "base/result.h"
#include "diag/report.h"
#include "types/schema_set.h"

namespace pstate::verify {

struct Config {
  /// --assets: also hash every asset and archive (see `pstate assets`).
  bool assets = false;
  asset_hash::Options asset_options;
  /// Threads for hashing assets (--assets).
  int jobs = 1;
  /// Threads for the checks of a plain file's resources (the engine's
  /// parallel executor; the output is the same for any value). 1 reads
  /// sequentially.
  int check_jobs = 1;
  /// --schema / --schema-dir: the loaded package schemas, or null.
  const types::SchemaSet* schemas = nullptr;
  /// Called every few MiB with (bytes consumed, size or 0).
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
};

/// Reads `path` ("-" is standard input) and adds every finding to
/// `report`. Never fails: an input that cannot be opened or read is a
/// located fatal finding in the report (diag::IsFatal).
void VerifyInput(const std::string& path, const Config& config,
                 diag::Report& report);

/// Loads the package schemas named by `files` and every `*.json` and
/// `*.json.gz` file directly inside each of `dirs` (in name order) into
/// `set`. The first failure is returned; its message names the file and,
/// for a file that is not JSON or not a package schema, the line:column.
Status LoadSchemas(const std::vector<std::string>& files,
                   const std::vector<std::string>& dirs, types::SchemaSet* set);

}  // namespace pstate::verify

#endif  // PSTATE_VERIFY_RUN_H_
