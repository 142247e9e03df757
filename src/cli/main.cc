// pstate: a fast, safe, offline tool for Pulumi state files.
//
// main only builds the command table, parses argv and runs the chosen
// command; every command lives in its own cmd_*.cc.
#include <CLI/CLI.hpp>

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/help.h"
#include "cli/input_limits.h"
#include "cli/stdout_stream.h"
#include "cli/suggest.h"
#include "report/terminal.h"

#ifndef PSTATE_VERSION
#define PSTATE_VERSION "0.0.0"
#endif

namespace {

using pstate::cli::Command;

const std::array kCommands = {
    Command{"verify",
            "Check states for every problem Pulumi would find, and more",
            pstate::cli::SetupVerify},
    Command{"assets",
            "Check that every asset and archive still hashes to what the state "
            "recorded",
            pstate::cli::SetupAssets},
    Command{"scan", "Find secrets stored in the clear", pstate::cli::SetupScan},
    Command{"redact", "Write a copy of a state with every secret replaced",
            pstate::cli::SetupRedact},
    Command{"decrypt",
            "Decrypt every secret (passphrase or b64 provider) into the "
            "--show-secrets form",
            pstate::cli::SetupDecrypt},
    Command{"encrypt",
            "Encrypt every plaintext secret with the state's passphrase or b64 "
            "provider",
            pstate::cli::SetupEncrypt},
    Command{"typecheck",
            "Check a value against a type in one of six type languages",
            pstate::cli::SetupTypecheck},
    Command{"normalize",
            "Write a state in the exact layout Pulumi writes, losing nothing",
            pstate::cli::SetupNormalize},
    Command{"convert",
            "Convert between export and checkpoint, and between state versions",
            pstate::cli::SetupConvert},
    Command{"ls",
            "List resources (filters by type, name, URN, provider, parent, "
            "flag) or pending operations",
            pstate::cli::SetupLs},
    Command{"show",
            "Show one resource in full, with its dependencies and dependents",
            pstate::cli::SetupShow},
    Command{"tree", "Show the parent/child tree of resources",
            pstate::cli::SetupTree},
    Command{"stats", "Count and size resources by package, type and provider",
            pstate::cli::SetupStats},
    Command{
        "diff",
        "Compare two states resource by resource (exit 0 same, 1 different)",
        pstate::cli::SetupDiff},
    Command{"edit",
            "Offline state surgery: delete, rename, move, reparent, protect, "
            "taint, pending operations, repair",
            pstate::cli::SetupEdit},
    Command{"ignore",
            "Accept a finding from now on: add its fingerprint to "
            ".pstateignore",
            pstate::cli::SetupIgnore},
    Command{"extract",
            "Write the selected resources and what they need as a state of "
            "their own",
            pstate::cli::SetupExtract},
    Command{"history",
            "The updates of DIY backend stacks: list, restore, prune, blame",
            pstate::cli::SetupHistory},
    Command{"graph",
            "Draw resources and their references (DOT, Mermaid or JSON)",
            pstate::cli::SetupGraph},
    Command{"report",
            "Write a self-contained HTML report of a state (or of two: their "
            "diff)",
            pstate::cli::SetupReport},
};

// Commands about pstate itself (help.h: one source for all of them).
const std::array kMetaCommands = {
    Command{"help", "Show the help of pstate or of one command",
            pstate::cli::SetupHelp},
    Command{"rules", "List every finding code with its severity and summary",
            pstate::cli::SetupRules},
    Command{"explain", "Print the documentation of a finding code",
            pstate::cli::SetupExplain},
    Command{"completion",
            "Print a shell completion script (bash, zsh, fish, powershell)",
            pstate::cli::SetupCompletion},
    Command{"man", "Print the man page (roff)", pstate::cli::SetupMan},
    Command{"version", "Print the version, commit and library versions",
            pstate::cli::SetupVersion},
};

/// The parsed subcommand, or null.
CLI::App* ParsedCommand(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands({})) {
    if (sub->parsed()) return sub;
  }
  return nullptr;
}

/// Every command-line error in one form: "pstate: error: ..." and where to
/// read more, exit 2. Unknown flags get the closest known one.
int UsageError(CLI::App& app, const CLI::ParseError& e) {
  CLI::App* sub = ParsedCommand(app);
  std::string where = sub != nullptr ? sub->get_name() + ": " : "";
  std::string message = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    std::size_t colon = message.find(": ");
    std::string rest =
        colon == std::string::npos ? message : message.substr(colon + 2);
    std::vector<std::string> names =
        pstate::cli::FlagNames(sub != nullptr ? *sub : app);
    message.clear();
    std::size_t pos = 0;
    while (pos < rest.size()) {
      std::size_t end = rest.find(' ', pos);
      if (end == std::string::npos) end = rest.size();
      std::string arg = rest.substr(pos, end - pos);
      pos = end + 1;
      if (arg.empty()) continue;
      if (!message.empty()) message += "; ";
      if (arg[0] == '-') {
        std::string flag = arg.substr(0, arg.find('='));
        message += "unknown flag '" + flag + "'" +
                   pstate::cli::DidYouMean(flag, names);
      } else {
        message += "unexpected argument '" + arg + "'";
      }
    }
  }
  pstate::report::PrintError(std::cerr, where + message);
  std::cerr << "Run 'pstate "
            << (sub != nullptr ? sub->get_name() + " " : std::string())
            << "--help' for usage.\n";
  return pstate::cli::kExitUnreadable;
}

/// True when standard output is a pipe or socket whose reader went away
/// (`pstate verify big.json | head`): the write end then polls POLLERR.
bool StdoutReaderGone() {
  struct pollfd p {};
  p.fd = STDOUT_FILENO;
  p.events = 0;
  return ::poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP)) != 0;
}

/// The exit code once standard output is flushed. A reader that went away
/// ends the command quietly with the status it would have had (as ripgrep
/// does; no 141 from SIGPIPE). Any other write failure (a full disk) means
/// the report was lost: exit 2 with the reason the first failed write gave.
int FinishStdout(int code) {
  std::cout.flush();
  int error = pstate::cli::StdoutWriteError();
  if (error == 0 && std::cout.good()) return code;
  if (error == EPIPE || StdoutReaderGone()) return code;
  pstate::report::PrintError(std::cerr,
                             std::string("cannot write to standard output: ") +
                                 std::strerror(error != 0 ? error : EIO));
  return pstate::cli::kExitUnreadable;
}

}  // namespace

int main(int argc, char** argv) {
  // A closed pipe is a failed write (EPIPE), handled as such, not a signal
  // that kills the process halfway through an output file.
  std::signal(SIGPIPE, SIG_IGN);
  pstate::cli::InstallStdoutBuffer();
  CLI::App app{"pstate: fast, safe, offline tooling for Pulumi state files",
               "pstate"};
  pstate::cli::SetRootApp(&app);
  app.set_version_flag("-V,--version", [] {
    std::string text = pstate::cli::VersionText();
    text.pop_back();  // CLI11 ends the line
    return text;
  });
  app.footer(pstate::cli::RootFooter());
  app.formatter(pstate::cli::MakeHelpFormatter());
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, std::function<int()>>> runners;
  std::vector<std::string> names;
  auto add = [&](const Command& command) {
    CLI::App* sub = app.add_subcommand(std::string(command.name),
                                       std::string(command.summary));
    sub->footer(pstate::cli::CommandFooter(command.name));
    runners.emplace_back(sub, command.setup(*sub));
    names.emplace_back(command.name);
  };
  for (const Command& command : kCommands) {
    add(command);
    // Every command that reads a state: --max-decompressed-bytes and
    // --max-resource-bytes.
    pstate::cli::AddInputLimitOptions(*runners.back().first);
  }
  for (const Command& command : kMetaCommands) add(command);
  if (argc < 2) {
    // Usage, not an error message alone: what a newcomer needs to go on.
    std::fputs(app.help().c_str(), stderr);
    return pstate::cli::kExitUnreadable;
  }
  if (argv[1][0] != '-' &&
      std::find(names.begin(), names.end(), argv[1]) == names.end()) {
    pstate::report::PrintError(
        std::cerr, std::string("unknown command '") + argv[1] + "'" +
                       pstate::cli::DidYouMean(argv[1], names));
    std::cerr << "Run 'pstate --help' for the list of commands.\n";
    return pstate::cli::kExitUnreadable;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    return UsageError(app, e);
  }
  try {
    for (auto& [sub, runner] : runners) {
      if (sub->parsed()) return FinishStdout(runner());
    }
  } catch (const std::bad_alloc&) {
    // PrintError's form, but written without allocating: memory is gone.
    std::fputs("pstate: error: out of memory\n", stderr);
    return pstate::cli::kExitUnreadable;
  } catch (const std::exception& e) {
    // No pstate API throws; this is a library's (or a bug's) last word.
    pstate::report::PrintError(std::cerr,
                               std::string("internal error: ") + e.what());
    return pstate::cli::kExitUnreadable;
  }
  return pstate::cli::kExitUnreadable;
}
