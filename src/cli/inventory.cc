#include "cli/inventory.h"

#include <iostream>
#include <utility>

#include "cli/exit_code.h"
#include "cli/input_limits.h"
#include "cli/jobs.h"
#include "report/csv.h"
#include "report/inspect.h"
#include "report/inventory.h"
#include "report/terminal.h"

namespace pstate::cli {
namespace {

/// Prints why a stack could not be read (its checkpoint is named by the
/// status) after what was printed so far.
void StackFailed(const Status& status) {
  std::cout.flush();
  report::PrintError(std::cerr, status.message());
}

}  // namespace

int LsBackend(const std::string& dir, const InventoryListConfig& config,
              const std::string& format, bool color) {
  const bool json = format == "json", csv = format == "csv";
  report::CsvWriter writer(std::cout);
  bool unreadable = false, started = false;
  Status status = InventoryList(dir, config, [&](InventoryStackRows&& rows) {
    // The first stack comes once the backend's stacks are known (a
    // backend without stacks fails before it).
    if (!started && csv) report::LsCsvHeader(writer, config.pending, true);
    started = true;
    const std::string label = BackendStackLabel(rows.stack);
    for (const ResourceRow& row : rows.rows) {
      if (csv) {
        report::RowCsv(writer, row, &label);
      } else if (json) {
        std::cout << report::RowJson(row, label) << '\n';
      } else {
        std::cout << report::TerminalSafe(label) << '\t'
                  << report::RowText(row, color) << '\n';
      }
    }
    for (const PendingRow& row : rows.pending) {
      if (csv) {
        report::PendingCsv(writer, row, &label);
      } else if (json) {
        std::cout << report::PendingJson(row, label) << '\n';
      } else {
        std::cout << report::TerminalSafe(label) << '\t'
                  << report::PendingText(row) << '\n';
      }
    }
    if (!rows.status.ok()) {
      StackFailed(rows.status);
      unreadable = true;
    }
    return true;
  });
  if (!status.ok()) {
    report::PrintError(std::cerr, status.message());
    return kExitUnreadable;
  }
  std::cout.flush();
  return unreadable ? kExitUnreadable : kExitOk;
}

int StatsBackend(const std::string& dir, const std::string& format,
                 bool exact_bytes, int jobs) {
  InventoryStatsConfig config;
  config.jobs = PassJobs(jobs);
  config.limits = InputLimitFlags();
  Result<InventoryStatsResult> all = InventoryStats(dir, config);
  if (!all.ok()) {
    report::PrintError(std::cerr, all.status().message());
    return kExitUnreadable;
  }
  for (const InventoryStackStats& failed : all->failed) {
    StackFailed(failed.status);
  }
  if (format == "json") {
    report::RenderBackendStatsJson(*all, std::cout);
  } else if (format == "csv") {
    report::RenderBackendStatsCsv(*all, std::cout);
  } else {
    report::RenderBackendStatsText(*all, exact_bytes, std::cout);
  }
  std::cout.flush();
  return all->failed.empty() ? kExitOk : kExitUnreadable;
}

}  // namespace pstate::cli
