// pstate ignore add FINGERPRINT [--reason TEXT] [--file F]: accept one
// finding from now on, by writing its fingerprint to the ignore file that
// verify and scan read (.pstateignore in the current directory).
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "diag/ignore_file.h"
#include "io/output.h"
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
  std::string text;
  {
    std::ifstream in(flags.file, std::ios::binary);
    if (in) {
      std::ostringstream buffer;
      buffer << in.rdbuf();
      text = buffer.str();
    } else if (errno != ENOENT) {
      return Fail(flags.file + ": cannot open: " + std::strerror(errno));
    }
  }
  Result<diag::IgnoreAddition> added =
      diag::AddToIgnoreFile(text, flags.file, flags.fingerprint, flags.reason);
  if (!added.ok()) return Fail(added.status().message());
  if (added->already_listed) {
    std::cerr << "pstate ignore: " << report::TerminalSafe(flags.file)
              << " already lists this fingerprint\n";
    return kExitOk;
  }
  auto out = io::OpenOutput(flags.file);
  if (!out.ok()) return Fail(out.status().message());
  (*out)->Write(added->text);
  if (Status st = (*out)->Commit(); !st.ok()) return Fail(st.message());
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
