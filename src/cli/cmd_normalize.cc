// pstate normalize IN [-o OUT | --in-place] [--layout L] [--check]: a state
// in the exact layout Pulumi writes, losing nothing Pulumi would not lose.
#include <iostream>
#include <memory>
#include <string>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/input_limits.h"
#include "cli/normalize_output.h"
#include "cli/terminal.h"
#include "report/normalize.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

struct NormalizeFlags {
  std::string input;
  std::string output = "-";
  const CLI::Option* output_option = nullptr;
  bool in_place = false;
  bool check = false;
  std::string layout;
  std::string compress;
  bool pulumi_numbers = false;
  bool drop_unknown = false;
  bool quiet = false;
};

int RunNormalize(const NormalizeFlags& flags) {
  if (!flags.check &&
      RefuseStateOnTerminal(*flags.output_option, &flags.in_place)) {
    return kExitUnreadable;
  }
  NormalizeConfig config;
  config.output = flags.output;
  config.in_place = flags.in_place;
  config.check = flags.check;
  config.pulumi_numbers = flags.pulumi_numbers;
  config.drop_unknown = flags.drop_unknown;
  Result<OutputForm> form = ParseOutputForm(flags.layout, flags.compress);
  if (!form.ok()) return Fail(form.status().message());
  config.layout = form->layout;
  config.compression = form->compression;
  Result<State> state = OpenState(flags.input);
  if (!state.ok()) return Fail(state.status().message());
  const std::string& file = state->name();
  if (!flags.check) config.on_progress = MakeProgress(flags.input, flags.quiet);
  Result<NormalizeResult> outcome = Normalize(*state, config);
  EndProgress();
  if (!outcome.ok()) return Fail(outcome.status().message());
  report::RenderNormalizeNotes(file, outcome->notes, outcome->counts,
                               flags.quiet || flags.check, std::cerr);
  if (flags.check && !outcome->normalized) {
    report::RenderNormalizeCheck(file, *outcome, std::cerr);
    return kExitFindings;
  }
  return kExitOk;
}

}  // namespace

std::function<int()> SetupNormalize(CLI::App& app) {
  auto flags = std::make_shared<NormalizeFlags>();
  app.add_option("input", flags->input,
                 "State to normalize (export or checkpoint; plain, gzip or "
                 "zstd); - reads standard input")
      ->required();
  auto* out = app.add_option("-o,--output", flags->output,
                             "Where to write (default: standard output); a "
                             "name ending in .gz or .zst is compressed");
  app.add_flag("--in-place", flags->in_place,
               "Replace the input atomically, keeping the old file as "
               "IN.bak (as Pulumi's DIY backend does)")
      ->excludes(out);
  flags->output_option = out;
  app.add_option("--layout", flags->layout,
                 "export (pulumi stack export: 4-space indent), diy (engine "
                 "save: compact) or diy-state-command (compact, HTML-escaped). "
                 "Default: export for exports, diy for checkpoints");
  app.add_flag("--check", flags->check,
               "Write nothing; exit 1 and name the first place that differs "
               "when the input is not in normalized form");
  app.add_option("--compress", flags->compress,
                 "Compress the output: gzip, zstd or none (default: from the "
                 "-o name; --in-place keeps the input's)");
  app.add_flag("--pulumi-numbers", flags->pulumi_numbers,
               "Round every number through float64 as Pulumi does (default: "
               "keep digits Pulumi would lose)");
  app.add_flag("--drop-unknown", flags->drop_unknown,
               "Drop members Pulumi does not define, as Pulumi does (default: "
               "keep them after the known ones)");
  app.add_flag("-q,--quiet", flags->quiet,
               "No progress line and no notes (warnings still print)");
  return [flags] { return RunNormalize(*flags); };
}

}  // namespace pstate::cli
