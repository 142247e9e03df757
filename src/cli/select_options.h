// The `ls` filters as command-line options (--type, --name, --urn,
// --provider GLOB; --parent URN; --flag F): one definition for ls, edit and
// extract, so they read and describe the filters the same way.
#ifndef PSTATE_CLI_SELECT_OPTIONS_H_
#define PSTATE_CLI_SELECT_OPTIONS_H_

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <pstate/pstate.h>

namespace pstate::cli {

struct SelectFlags {
  std::string type, name, urn, provider, parent;
  std::vector<std::string> flags;
};

/// Adds the filters to `app`; `--type` and `--urn` only when
/// `with_type_and_urn` (edit defines them itself: clear-pending gives them
/// its own meaning).
void AddSelectOptions(CLI::App& app, SelectFlags& flags,
                      bool with_type_and_urn = true);

/// The filter the flags give (empty strings: no filter).
ResourceFilter ToSelector(const SelectFlags& flags);

/// "pstate: WHO: selected N resources:" and the URNs, one a line (nothing
/// when `urns` is empty).
void PrintSelection(std::ostream& os, std::string_view who,
                    const std::vector<std::string>& urns);

}  // namespace pstate::cli

#endif  // PSTATE_CLI_SELECT_OPTIONS_H_
