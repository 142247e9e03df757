// The command table: one entry per subcommand, each in its own cmd_*.cc.
#ifndef PSTATE_CLI_COMMAND_H_
#define PSTATE_CLI_COMMAND_H_

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string_view>

namespace pstate::cli {

/// Registers a subcommand's flags on `app` and returns what runs it once
/// the command line is parsed. The runner returns the exit code.
using CommandSetup = std::function<std::function<int()>(CLI::App& app)>;

struct Command {
  std::string_view name;
  std::string_view summary;
  CommandSetup setup;
};

// help.h and cmd_help.cc / cmd_rules.cc: commands about pstate itself.
std::function<int()> SetupHelp(CLI::App& app);
std::function<int()> SetupRules(CLI::App& app);
std::function<int()> SetupExplain(CLI::App& app);
std::function<int()> SetupCompletion(CLI::App& app);
std::function<int()> SetupMan(CLI::App& app);
std::function<int()> SetupVersion(CLI::App& app);
std::function<int()> SetupVerify(CLI::App& app);
std::function<int()> SetupAssets(CLI::App& app);
std::function<int()> SetupRedact(CLI::App& app);
std::function<int()> SetupScan(CLI::App& app);
std::function<int()> SetupDecrypt(CLI::App& app);
std::function<int()> SetupEncrypt(CLI::App& app);
std::function<int()> SetupTypecheck(CLI::App& app);
std::function<int()> SetupNormalize(CLI::App& app);
std::function<int()> SetupConvert(CLI::App& app);
std::function<int()> SetupLs(CLI::App& app);
std::function<int()> SetupShow(CLI::App& app);
std::function<int()> SetupTree(CLI::App& app);
std::function<int()> SetupStats(CLI::App& app);
std::function<int()> SetupDiff(CLI::App& app);
std::function<int()> SetupEdit(CLI::App& app);
std::function<int()> SetupIgnore(CLI::App& app);
std::function<int()> SetupExtract(CLI::App& app);
std::function<int()> SetupHistory(CLI::App& app);
std::function<int()> SetupGraph(CLI::App& app);
std::function<int()> SetupReport(CLI::App& app);

}  // namespace pstate::cli

#endif  // PSTATE_CLI_COMMAND_H_
