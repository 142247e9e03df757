// The renderings of `pstate edit`'s outcome: the change list as text or
// as one JSON object, and the integrity errors an edit would add.
//
// Text (on stderr, one line per change):
//     ~ (envelope)
//         ~ field: before -> after
//     - urn:pulumi:...
//         - protect: true
//     note: ...
// JSON (docs/edit.md): {"file", "operation", "refused"[, "reason"],
// "envelope": [field], "resources": [element], "pending_operations":
// [element], "notes": [...], "new_findings": [{"code", "message", "urn"}]}
// where element is {"op", "what", "fields": [field]} and field is {"op",
// "field", "before", "after"}.
#ifndef PSTATE_REPORT_EDIT_H_
#define PSTATE_REPORT_EDIT_H_

#include <ostream>

#include "edit/edit.h"

namespace pstate::report {

void RenderEditText(const edit::Outcome& outcome, std::ostream& out);
void RenderEditJson(const edit::Config& config, const edit::Outcome& outcome,
                    std::ostream& out);
/// `edit move --format json`: {"operation": "move", "dry_run", "refused"[,
/// "reason"], "selected": [urn], "moved", "providers_copied",
/// "providers_reused": [{"from", "to"}], "broken_dependencies":
/// [{"resource", "moving", "depends_on"}], "notes": [...], "source" and
/// "destination": {"file", "written"[, "backup"], "envelope", "resources",
/// "pending_operations", "new_findings"[, "diff": pstate diff's JSON]}}.
void RenderMoveJson(const edit::MoveConfig& config, const edit::MoveOutcome& o,
                    std::ostream& out);
/// "  error[code] message (urn)" per new finding, through TerminalSafe.
void RenderEditFindings(const edit::Outcome& outcome, std::ostream& out);
/// The same for the API's EditResult::new_errors.
void RenderNewErrors(const std::vector<Finding>& errors, std::ostream& out);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_EDIT_H_
