// `ls` and `stats` given a backend directory (pstate::InventoryList,
// pstate::InventoryStats): every stack, read on --jobs threads, printed in
// stack order.
#ifndef PSTATE_CLI_INVENTORY_H_
#define PSTATE_CLI_INVENTORY_H_

#include <string>

#include <pstate/pstate.h>

namespace pstate::cli {

/// `ls BACKEND_DIR`: `config`'s filters over every stack, each row with its
/// stack (text: a first column; json: a "stack" member; csv: a first
/// field); `config.limit` counts lines over all stacks. A stack that cannot
/// be read is an error naming its checkpoint; the others are still listed,
/// and the exit code is 2.
int LsBackend(const std::string& dir, const InventoryListConfig& config,
              const std::string& format, bool color);

/// `stats BACKEND_DIR`: per-stack figures and the totals.
int StatsBackend(const std::string& dir, const std::string& format,
                 bool exact_bytes, int jobs);

}  // namespace pstate::cli

#endif  // PSTATE_CLI_INVENTORY_H_
