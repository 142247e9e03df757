#include "cli/inventory.h"

#include <iostream>
#include <utility>
#include <vector>

#include "cli/exit_code.h"
#include "cli/jobs.h"
#include "inventory/inventory.h"
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

int LsBackend(const std::string& dir, const inspect::ListConfig& config,
              const std::string& format, std::uint64_t limit, bool color,
              int jobs) {
  auto stacks = inventory::Stacks(dir);
  if (!stacks.ok()) {
    report::PrintError(std::cerr, stacks.status().message());
    return kExitUnreadable;
  }
  const bool json = format == "json", csv = format == "csv";
  report::CsvWriter writer(std::cout);
  if (csv) report::LsCsvHeader(writer, config.pending, true);
  std::uint64_t printed = 0;
  bool unreadable = false;
  inventory::ForEachOrdered<inventory::StackRows>(
      stacks->size(), PassJobs(jobs),
      [&](std::size_t i) {
        return inventory::ListStack((*stacks)[i], config, limit);
      },
      [&](std::size_t i, inventory::StackRows&& rows) {
        const std::string label = inventory::StackLabel((*stacks)[i]);
        auto full = [&] { return limit != 0 && ++printed >= limit; };
        for (const inspect::ResourceRow& row : rows.rows) {
          if (csv) {
            report::RowCsv(writer, row, &label);
          } else if (json) {
            std::cout << report::RowJson(row, label) << '\n';
          } else {
            std::cout << report::TerminalSafe(label) << '\t'
                      << report::RowText(row, color) << '\n';
          }
          if (full()) return false;
        }
        for (const inspect::PendingRow& row : rows.pending) {
          if (csv) {
            report::PendingCsv(writer, row, &label);
          } else if (json) {
            std::cout << report::PendingJson(row, label) << '\n';
          } else {
            std::cout << report::TerminalSafe(label) << '\t'
                      << report::PendingText(row) << '\n';
          }
          if (full()) return false;
        }
        if (!rows.status.ok()) {
          StackFailed(rows.status);
          unreadable = true;
        }
        return true;
      });
  std::cout.flush();
  return unreadable ? kExitUnreadable : kExitOk;
}

int StatsBackend(const std::string& dir, const std::string& format,
                 bool exact_bytes, int jobs) {
  auto stacks = inventory::Stacks(dir);
  if (!stacks.ok()) {
    report::PrintError(std::cerr, stacks.status().message());
    return kExitUnreadable;
  }
  inventory::BackendStats all;
  bool unreadable = false;
  inventory::ForEachOrdered<inventory::StackStats>(
      stacks->size(), PassJobs(jobs),
      [&](std::size_t i) { return inventory::StatsOfStack((*stacks)[i]); },
      [&](std::size_t, inventory::StackStats&& stats) {
        if (!stats.status.ok()) {
          StackFailed(stats.status);
          unreadable = true;
        } else {
          all.Add(std::move(stats));
        }
        return true;
      });
  if (format == "json") {
    report::RenderBackendStatsJson(all, std::cout);
  } else if (format == "csv") {
    report::RenderBackendStatsCsv(all, std::cout);
  } else {
    report::RenderBackendStatsText(all, exact_bytes, std::cout);
  }
  std::cout.flush();
  return unreadable ? kExitUnreadable : kExitOk;
}

}  // namespace pstate::cli
