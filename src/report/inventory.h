// The renderings of a backend read as one inventory (the API's
// InventoryStatsResult, InventoryStackRows) and the CSV form of `ls` and
// `stats` (docs/history.md, "A backend as one inventory"): text, JSON through
// json::Writer, CSV through CsvWriter.
#ifndef PSTATE_REPORT_INVENTORY_H_
#define PSTATE_REPORT_INVENTORY_H_

#include <ostream>
#include <string>
#include <string_view>

#include "pstate/pstate.h"
#include "report/csv.h"

namespace pstate::report {

// ---- ls ---------------------------------------------------------------------

/// The header record of `ls --format csv` (of `--pending` with `pending`);
/// with `stack_column` a first column "stack".
void LsCsvHeader(CsvWriter& csv, bool pending, bool stack_column);
/// One row; `stack` (BackendStackLabel) is the first field when given.
void RowCsv(CsvWriter& csv, const ResourceRow& row,
            const std::string* stack = nullptr);
void PendingCsv(CsvWriter& csv, const PendingRow& row,
                const std::string* stack = nullptr);

// ---- stats ------------------------------------------------------------------

/// A table of the stacks, one line each with InventoryFigures, then the
/// totals; sizes as HumanBytes unless `exact_bytes`.
void RenderBackendStatsText(const InventoryStatsResult& stats, bool exact_bytes,
                            std::ostream& out);
/// {"stacks": [{"stack", "file", figures...}], "total": {"stacks",
/// figures..., "by_type": {TYPE: {"count", "bytes"}}}}.
void RenderBackendStatsJson(const InventoryStatsResult& stats,
                            std::ostream& out);
/// The header, a record per stack and a last record with stack "(total)".
void RenderBackendStatsCsv(const InventoryStatsResult& stats,
                           std::ostream& out);
/// `stats --format csv` of one file: the same header, one record (stack
/// empty, file `path`).
void RenderStatsCsv(const InventoryFigures& figures, std::string_view path,
                    std::ostream& out);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_INVENTORY_H_
