// pstate: a fast, safe, offline tool for Pulumi state files.
//
// main only builds the command table, parses argv and runs the chosen
// command; every command lives in its own cmd_*.cc.
#include <CLI/CLI.hpp>

#include <poll.h>
#include <unistd.h>

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

#ifndef PSTATE_VERSION
#define PSTATE_VERSION "0.0.0"
#endif

namespace {

using pstate::cli::Command;

const std::array kCommands = {
    Command{"verify", "Check states for every problem Pulumi would find, and more",
            pstate::cli::SetupVerify},
    Command{"assets", "Check that every asset and archive still hashes to what the state recorded",
            pstate::cli::SetupAssets},
    Command{"scan", "Find secrets stored in the clear", pstate::cli::SetupScan},
    Command{"redact", "Write a copy of a state with every secret replaced",
            pstate::cli::SetupRedact},
    Command{"decrypt", "Decrypt every secret (passphrase or b64 provider) into the --show-secrets form",
            pstate::cli::SetupDecrypt},
    Command{"encrypt", "Encrypt every plaintext secret with the state's passphrase or b64 provider",
            pstate::cli::SetupEncrypt},
    Command{"typecheck", "Check a value against a type in one of six type languages", pstate::cli::SetupTypecheck},
    Command{"normalize", "Write a state in the exact layout Pulumi writes, losing nothing", pstate::cli::SetupNormalize},
    Command{"convert", "Convert between export and checkpoint, and between state versions", pstate::cli::SetupConvert},
    Command{"ls", "List resources (filters by type, name, URN, provider, parent, flag) or pending operations", pstate::cli::SetupLs},
    Command{"show", "Show one resource in full, with its dependencies and dependents", pstate::cli::SetupShow},
    Command{"tree", "Show the parent/child tree of resources", pstate::cli::SetupTree},
    Command{"stats", "Count and size resources by package, type and provider", pstate::cli::SetupStats},
    Command{"diff", "Compare two states resource by resource (exit 0 same, 1 different)", pstate::cli::SetupDiff},
    Command{"edit", "Offline state surgery: delete, rename, reparent, protect, taint, pending operations, repair",
            pstate::cli::SetupEdit},
};

/// True when standard output is a pipe or socket whose reader went away
/// (`pstate verify big.json | head`): the write end then polls POLLERR.
bool StdoutReaderGone() {
  struct pollfd p{};
  p.fd = STDOUT_FILENO;
  p.events = 0;
  return ::poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP)) != 0;
}

/// The exit code once standard output is flushed. A reader that went away
/// ends the command quietly with the status it would have had (as ripgrep
/// does; no 141 from SIGPIPE). Any other write failure (a full disk) means
/// the report was lost: exit 2 with the reason.
int FinishStdout(int code) {
  std::cout.flush();
  errno = 0;
  // Every step runs, in this order (fflush before ferror), whatever the
  // earlier ones said.
  const bool stream_failed = !std::cout.good();
  const bool flush_failed = std::fflush(stdout) != 0;
  bool failed = stream_failed || flush_failed || std::ferror(stdout) != 0;
  int error = errno;
  if (!failed) return code;
  if (error == EPIPE || StdoutReaderGone()) return code;
  std::fprintf(stderr, "pstate: error: cannot write to standard output: %s\n",
               std::strerror(error != 0 ? error : EIO));
  return pstate::cli::kExitUnreadable;
}

}  // namespace

int main(int argc, char** argv) {
  // A closed pipe is a failed write (EPIPE), handled as such, not a signal
  // that kills the process halfway through an output file.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"pstate: fast, safe, offline tooling for Pulumi state files",
               "pstate"};
  app.set_version_flag("--version", PSTATE_VERSION);
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, std::function<int()>>> runners;
  for (const Command& command : kCommands) {
    CLI::App* sub = app.add_subcommand(std::string(command.name),
                                       std::string(command.summary));
    runners.emplace_back(sub, command.setup(*sub));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : pstate::cli::kExitUnreadable;
  }
  try {
    for (auto& [sub, runner] : runners) {
      if (sub->parsed()) return FinishStdout(runner());
    }
  } catch (const std::bad_alloc&) {
    std::fputs("pstate: error: out of memory\n", stderr);
    return pstate::cli::kExitUnreadable;
  } catch (const std::exception& e) {
    // No pstate API throws; this is a library's (or a bug's) last word.
    std::fprintf(stderr, "pstate: error: internal error: %s\n", e.what());
    return pstate::cli::kExitUnreadable;
  }
  return pstate::cli::kExitUnreadable;
}
