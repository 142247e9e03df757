// One source for everything that describes the command line: --help
// footers (examples, exit codes, environment), `pstate help`, shell
// completions, the man page and --version all read the CLI11 command tree
// and the tables in help.cc, so they cannot disagree.
#ifndef PSTATE_CLI_HELP_H_
#define PSTATE_CLI_HELP_H_

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace pstate::cli {

/// The root command, once main built it (help, completion and man walk it).
CLI::App& RootApp();
void SetRootApp(CLI::App* app);

/// "pstate 0.1.0 (commit abc1234)" and the library versions, one per line.
std::string VersionText();

/// The --help footer of a command: its examples, exit codes and the
/// environment variables it reads.
std::string CommandFooter(std::string_view command);
/// The root --help footer.
std::string RootFooter();

/// Completion scripts for bash, zsh and fish; "" for another shell.
std::string CompletionScript(std::string_view shell);
/// The man page (roff, section 1).
std::string ManPage();

/// --help's formatter: an option's value as the man page names it
/// ("--jobs JOBS", "--format FORMAT:{text,json}=text"), without CLI11's
/// type and range wording ("INT:INT in [1 - 1024]"). Set on the root app
/// before the commands are added (they inherit it).
std::shared_ptr<CLI::Formatter> MakeHelpFormatter();

/// The long and short flag spellings of `app` ("--format", "-q").
std::vector<std::string> FlagNames(const CLI::App& app);

}  // namespace pstate::cli

#endif  // PSTATE_CLI_HELP_H_
