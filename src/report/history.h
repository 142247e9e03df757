// The renderings of `pstate history` (docs/history.md): the stacks of a
// backend, the updates of a stack, restore, prune and blame, as aligned
// text or one compact JSON object (through json::Writer).
#ifndef PSTATE_REPORT_HISTORY_H_
#define PSTATE_REPORT_HISTORY_H_

#include <ostream>
#include <vector>

#include "history/history.h"

namespace pstate::report {

void RenderBackendText(const std::vector<history::StackSummary>& stacks,
                       std::ostream& out);
void RenderBackendJson(const std::vector<history::StackSummary>& stacks,
                       std::ostream& out);

void RenderUpdatesText(const history::Target& target,
                       const std::vector<history::UpdateRow>& rows,
                       std::ostream& out);
void RenderUpdatesJson(const history::Target& target,
                       const std::vector<history::UpdateRow>& rows,
                       std::ostream& out);

/// "restored VERSION_FILE -> OUTPUT: +A ~C -R resources against the
/// current state" (and the .bak kept).
void RenderRestoreText(const history::RestoreResult& result, std::ostream& out);
void RenderRestoreJson(const history::RestoreResult& result, std::ostream& out);

void RenderPruneText(const history::PruneResult& result, std::ostream& out);
void RenderPruneJson(const history::PruneResult& result, std::ostream& out);

void RenderBlameText(const history::BlameResult& result, std::ostream& out);
void RenderBlameJson(const history::BlameResult& result, std::ostream& out);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_HISTORY_H_
