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
#include <string_view>
#include <vector>

#include "pstate/pstate.h"

namespace pstate::report {

void RenderEditText(const EditResult& result, std::ostream& out);
/// `file`: the input as the user named it.
void RenderEditJson(std::string_view file, EditOperation operation,
                    const EditResult& result, std::ostream& out);
/// The two files of `edit move` as the user named them, and whether it was
/// a dry run.
struct MoveFiles {
  std::string_view source, destination;
  bool dry_run = false;
};
/// `edit move --format json`: {"operation": "move", "dry_run", "refused"[,
/// "reason"], "selected": [urn], "moved", "providers_copied",
/// "providers_reused": [{"from", "to"}], "broken_dependencies":
/// [{"resource", "moving", "depends_on"}], "notes": [...], "source" and
/// "destination": {"file", "written"[, "backup"], "envelope", "resources",
/// "pending_operations", "new_findings"[, "diff": pstate diff's JSON]}}.
void RenderMoveJson(const MoveFiles& files, const EditMoveResult& result,
                    std::ostream& out);
/// "  error[code] message (urn)" per new error finding, through
/// TerminalSafe.
void RenderNewErrors(const std::vector<Finding>& errors, std::ostream& out);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_EDIT_H_
