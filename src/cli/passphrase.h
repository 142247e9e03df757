// Where diff, show, decrypt and encrypt get a passphrase from.
#ifndef PSTATE_CLI_PASSPHRASE_H_
#define PSTATE_CLI_PASSPHRASE_H_

#include <string>

#include <pstate/pstate.h>

namespace pstate::cli {

/// Prompt written to standard error before reading a passphrase from a
/// terminal (Pulumi's words, pkg/secrets/passphrase/manager.go).
inline constexpr char kPassphrasePrompt[] =
    "Enter your passphrase to unlock config/secrets: ";

/// --passphrase-file's help, where PassphraseFromFlags gives the phrase.
inline constexpr char kPassphraseFileHelp[] =
    "File holding the passphrase (trimmed); otherwise "
    "PULUMI_CONFIG_PASSPHRASE, then PULUMI_CONFIG_PASSPHRASE_FILE, then a "
    "prompt when standard input is a terminal";

/// The passphrase from `passphrase_file` when not empty, then
/// PULUMI_CONFIG_PASSPHRASE (even ""), then PULUMI_CONFIG_PASSPHRASE_FILE
/// when not empty: the environment is read here, the core takes the values
/// (PassphraseResolve); kInvalidArgument naming the variables when
/// none is given.
Result<std::string> ResolvePassphrase(const std::string& passphrase_file);

/// The passphrase, asked only when a state needs one: ResolvePassphrase;
/// when none
/// of them is given and standard input and standard error are both
/// terminals, the prompt on standard error and one line read from
/// standard input with echo off, as Pulumi's readPassphrase does for an
/// interactive session. Otherwise the error naming the variables.
PassphraseSource PassphraseFromFlags(std::string passphrase_file);

}  // namespace pstate::cli

#endif  // PSTATE_CLI_PASSPHRASE_H_
