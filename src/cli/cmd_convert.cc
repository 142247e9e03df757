// pstate convert IN --to export|checkpoint [--stack S] [--version 3|4]: a
// state moved between envelopes and versions, verified before it is
// written.
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

struct ConvertFlags {
  std::string input;
  std::string output = "-";
  const CLI::Option* output_option = nullptr;
  std::string to;
  std::string stack;
  int version = 0;
  bool force = false;
  std::string layout;
  std::string compress;
  bool pulumi_numbers = false;
  bool drop_unknown = false;
  bool quiet = false;
};

int RunConvert(const ConvertFlags& flags) {
  if (RefuseStateOnTerminal(*flags.output_option, nullptr)) {
    return kExitUnreadable;
  }
  ConvertConfig config;
  config.output = flags.output;
  if (flags.to == "export") {
    config.to = ConvertTarget::kExport;
  } else if (flags.to == "checkpoint") {
    config.to = ConvertTarget::kCheckpoint;
  } else {
    return Fail("--to: expected export or checkpoint, got \"" + flags.to +
                "\"");
  }
  if (flags.version != 0) {
    if (flags.version != 3 && flags.version != 4) {
      return Fail("--version: expected 3 or 4, got " +
                  std::to_string(flags.version));
    }
    config.version = flags.version;
  }
  config.stack = flags.stack;
  config.force = flags.force;
  config.pulumi_numbers = flags.pulumi_numbers;
  config.drop_unknown = flags.drop_unknown;
  Result<OutputForm> form = ParseOutputForm(flags.layout, flags.compress);
  if (!form.ok()) return Fail(form.status().message());
  config.layout = form->layout;
  config.compression = form->compression;
  Result<State> state = OpenState(flags.input);
  if (!state.ok()) return Fail(state.status().message());
  config.on_progress =
      MakeProgress(state->name(), flags.quiet, {"checking", "converting"});
  Result<ConvertResult> outcome = Convert(*state, config);
  EndProgress();
  if (!outcome.ok()) {
    return Fail(outcome.status().message(),
                outcome.status().code() == Errc::kUnsupported
                    ? kExitFindings
                    : kExitUnreadable);
  }
  report::RenderNormalizeNotes(state->name(), outcome->notes, outcome->counts,
                               flags.quiet, std::cerr);
  return kExitOk;
}

}  // namespace

std::function<int()> SetupConvert(CLI::App& app) {
  auto flags = std::make_shared<ConvertFlags>();
  app.add_option("input", flags->input,
                 "State to convert (export or checkpoint, versions 0 to 4; "
                 "plain, gzip or zstd); - reads standard input")
      ->required();
  app.add_option("--to", flags->to,
                 "export (pulumi stack export) or checkpoint (a DIY "
                 "backend's stack file)")
      ->required();
  flags->output_option = app.add_option(
      "-o,--output", flags->output,
      "Where to write (default: standard output, never a terminal); a name "
      "ending in .gz or .zst is compressed. Written only after the result "
      "passed verify");
  app.add_option("--stack", flags->stack,
                 "The checkpoint's stack, ORG/PROJECT/STACK or STACK, when "
                 "the input does not name one (default: from the URNs)");
  app.add_option("--version", flags->version,
                 "3 or 4 (default: the input's; 0 to 2 become 3)");
  app.add_flag("--force", flags->force,
               "Convert even when URNs name another stack or project");
  app.add_option("--layout", flags->layout,
                 "export, diy or diy-state-command (default: export for "
                 "--to export, diy for --to checkpoint)");
  app.add_option("--compress", flags->compress,
                 "gzip, zstd or none (default: from the -o name)");
  app.add_flag("--pulumi-numbers", flags->pulumi_numbers,
               "Round every number through float64 as Pulumi does");
  app.add_flag("--drop-unknown", flags->drop_unknown,
               "Drop members Pulumi does not define, as Pulumi does");
  app.add_flag("-q,--quiet", flags->quiet,
               "No notes or progress line (warnings still print)");
  return [flags] { return RunConvert(*flags); };
}

}  // namespace pstate::cli
