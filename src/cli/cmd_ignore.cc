// pstate ignore add FINGERPRINT [--reason TEXT] [--file F]: accept one
// finding from now on, by writing its fingerprint to the ignore file that
// verify and scan read (.pstateignore in the current directory).
#include <iostream>
#include <memory>
#include <string>

#include <pstate/pstate.h>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

struct IgnoreFlags {
  std::string action;
  std::string fingerprint;
  std::string reason;
  std::string file = ".pstateignore";
};

int RunIgnore(const IgnoreFlags& flags) {
  if (flags.action != "add") {
    return Fail("ignore: unknown action \"" +
                report::TerminalSafe(flags.action) + "\"; expected add");
  }
  IgnoreAddConfig config;
  config.file = flags.file;
  config.fingerprint = flags.fingerprint;
  config.reason = flags.reason;
  Result<IgnoreAddResult> added = IgnoreAdd(config);
  if (!added.ok()) return Fail(added.status().message());
  if (added->already_listed) {
    std::cerr << "pstate ignore: " << report::TerminalSafe(flags.file)
              << " already lists this fingerprint\n";
    return kExitOk;
  }
  std::cerr << "pstate ignore: added to " << report::TerminalSafe(flags.file)
            << "; verify and scan no longer count that finding\n";
  return kExitOk;
}

}  // namespace

std::function<int()> SetupIgnore(CLI::App& app) {
  auto flags = std::make_shared<IgnoreFlags>();
  app.add_option("action", flags->action, "add")->required();
  app.add_option("fingerprint", flags->fingerprint,
                 "The finding's fingerprint (32 hex digits): the "
                 "\"fingerprint:\" line of text output, \"fingerprint\" in "
                 "--format json")
      ->required();
  app.add_option("--reason", flags->reason,
                 "Why the finding is accepted: written after the fingerprint "
                 "as a # comment");
  app.add_option("--file", flags->file,
                 "The ignore file to write (default: .pstateignore in the "
                 "current directory, which verify and scan read)");
  return [flags] { return RunIgnore(*flags); };
}

}  // namespace pstate::cli
