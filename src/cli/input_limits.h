// --max-decompressed-bytes and --max-resource-bytes: the input limits of
// every command that reads a state (docs/cli.md "Input limits").
#ifndef PSTATE_CLI_INPUT_LIMITS_H_
#define PSTATE_CLI_INPUT_LIMITS_H_

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <pstate/pstate.h>

namespace pstate::cli {

/// A byte count as the limit flags take it: digits, then optionally K, M,
/// G, T or P (binary multiples: 1K = 1024), optionally followed by "i"
/// and/or "B", in any case ("64G", "512MiB", "1000"). nullopt when it is
/// not one, is 0, or does not fit in 64 bits.
std::optional<std::uint64_t> ParseByteSize(std::string_view text);

/// Registers the two flags on a command that reads states. Their values
/// are the limits OpenState gives a state and InputLimitFlags gives the
/// calls that open their inputs themselves, set when the command line is
/// parsed; a bad value is a usage error (exit 2).
void AddInputLimitOptions(CLI::App& app);

/// The state a command reads (`path`, "-" for standard input), opened with
/// the limits the two flags gave (pstate::State::Open).
Result<State> OpenState(const std::string& path);

/// The limits the two flags gave, for the calls that open their inputs
/// themselves (VerifyMany, InventoryList, InventoryStats, the history and
/// typecheck calls).
InputLimits InputLimitFlags();

}  // namespace pstate::cli

#endif  // PSTATE_CLI_INPUT_LIMITS_H_
