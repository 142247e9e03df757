// What the CLI needs to know about the terminal: colour, progress, and
// no state written to it.
#ifndef PSTATE_CLI_TERMINAL_H_
#define PSTATE_CLI_TERMINAL_H_

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pstate::cli {

bool IsTerminal(int fd);

/// --color auto|always|never. "auto" colours only a terminal, and never
/// when NO_COLOR is set or TERM is "dumb".
bool UseColor(const std::string& choice, int fd);

/// Registers --color WHEN (auto, always, never; default auto) into
/// `choice`: the one spelling of the flag on every command with text
/// output for people.
CLI::Option* AddColorOption(CLI::App& app, std::string* choice);

/// gzip's rule for the commands that write a state (edit, redact,
/// normalize, convert, decrypt, encrypt, extract): a state is for files and
/// pipes, not for people. When `output` (the command's -o option) was not
/// given, `in_place` (null for a command without --in-place) is not set and
/// standard output is a terminal, prints the refusal with the flags to use
/// and returns true; the command then exits with kExitUnreadable. `-o -`
/// writes to the terminal anyway.
bool RefuseStateOnTerminal(const CLI::Option& output, const bool* in_place);

/// A progress callback for state::ReadOptions that redraws one stderr line
/// for inputs over 64 MiB when stderr is a terminal; empty otherwise.
/// Sizes are MiB of the input as stored (a compressed file's compressed
/// bytes). A callback that sees its count go back has started another pass
/// over the input: the line then names the pass ("pass 2"), with its label
/// from `passes` when given ({"collecting secrets", "scanning"} shows
/// "pass 1/2, collecting secrets").
std::function<void(std::uint64_t, std::uint64_t)> MakeProgress(
    const std::string& name, bool quiet, std::vector<std::string> passes = {});

/// Registers -q/--quiet (no progress line) into `quiet`.
CLI::Option* AddQuietOption(CLI::App& app, bool* quiet);

/// Clears the progress line if one was drawn.
void EndProgress();

}  // namespace pstate::cli

#endif  // PSTATE_CLI_TERMINAL_H_
