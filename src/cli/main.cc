// pstate: a fast, safe, offline tool for Pulumi state files.
//
// main only builds the command table, parses argv and runs the chosen
// command; every command lives in its own cmd_*.cc.
#include <CLI/CLI.hpp>

#include <array>
#include <cstdio>
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
};

}  // namespace

int main(int argc, char** argv) {
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
      if (sub->parsed()) return runner();
    }
  } catch (const std::bad_alloc&) {
    std::fputs("pstate: error: out of memory\n", stderr);
    return pstate::cli::kExitUnreadable;
  }
  return pstate::cli::kExitUnreadable;
}
