// pstate extract STATE [URN|NAME...] [filters] [--with-dependencies]:
// the selection and what it needs (parents, providers, with the flag its
// dependencies) as a valid state of the same envelope (docs/edit.md). The
// core is edit's: the index, the splice writer and the "never worse"
// check are the same (edit::Operation::kExtract).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/input_limits.h"
#include "cli/select_options.h"
#include "cli/terminal.h"
#include "report/edit.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

struct ExtractFlags {
  std::string input;
  std::vector<std::string> args;
  SelectFlags select;
  bool with_dependencies = false;
  std::string output = "-";
  const CLI::Option* output_option = nullptr;
  bool quiet = false;
};

int RunExtract(const ExtractFlags& flags) {
  EditConfig config;
  config.operation = EditOperation::kExtract;
  config.urns = flags.args;
  config.select = ToSelector(flags.select);
  config.with_dependencies = flags.with_dependencies;
  if (config.urns.empty() && config.select.empty()) {
    report::PrintError(std::cerr,
                       "extract needs URNs, resource names or filters "
                       "(--type, --name, --urn, --provider, --parent, "
                       "--flag)");
    return kExitUnreadable;
  }
  if (RefuseStateOnTerminal(*flags.output_option, nullptr)) {
    return kExitUnreadable;
  }
  config.output = flags.output;
  Result<State> state = OpenState(flags.input);
  if (!state.ok()) {
    report::PrintError(std::cerr, state.status().message());
    return kExitUnreadable;
  }
  Result<EditResult> outcome = Edit(*state, config);
  if (!outcome.ok()) {
    report::PrintError(std::cerr, outcome.status().message());
    return kExitUnreadable;
  }
  const EditResult& o = *outcome;
  if (!flags.quiet) PrintSelection(std::cerr, "extract", o.selected);
  if (o.refused) {
    report::PrintError(std::cerr, o.refusal);
    report::RenderNewErrors(o.new_errors, std::cerr);
    return kExitFindings;
  }
  if (!flags.quiet) {
    for (const std::string& n : o.notes) {
      std::cerr << "note: " << report::TerminalSafe(n) << "\n";
    }
  }
  return kExitOk;
}

}  // namespace

std::function<int()> SetupExtract(CLI::App& app) {
  auto flags = std::make_shared<ExtractFlags>();
  app.add_option("state", flags->input,
                 "State to cut down (export or checkpoint; plain, gzip or "
                 "zstd); - reads standard input")
      ->required();
  app.add_option("resources", flags->args,
                 "URNs or unique resource names to extract (with or instead "
                 "of the filters)");
  AddSelectOptions(app, flags->select);
  app.add_flag("--with-dependencies", flags->with_dependencies,
               "Also extract what the selection depends on (dependencies, "
               "propertyDependencies, deletedWith, replaceWith), "
               "transitively; without it those references are removed");
  flags->output_option =
      app.add_option("-o,--output", flags->output,
                     "Where to write the state (default: standard output); "
                     "written atomically, compressed like the input");
  app.add_flag("-q,--quiet", flags->quiet,
               "Do not print the selection and the summary on stderr");
  return [flags] { return RunExtract(*flags); };
}

}  // namespace pstate::cli
