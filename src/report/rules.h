// `pstate rules`: every finding code, as an aligned table or one JSON
// array of {code, severity, fatal, summary, description, help_uri}.
#ifndef PSTATE_REPORT_RULES_H_
#define PSTATE_REPORT_RULES_H_

#include <ostream>

#include "pstate/pstate.h"

namespace pstate::report {

void RenderRulesText(std::ostream& out);
void RenderRulesJson(std::ostream& out);
/// `pstate explain CODE`: the code, its severity, its documentation and
/// its link.
void RenderExplain(const FindingCodeInfo& code, std::ostream& out);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_RULES_H_
