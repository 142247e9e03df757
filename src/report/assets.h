// The renderers of `pstate assets`: a text table and one JSON object per
// input. They write to a std::ostream the caller chooses; text passes
// every string from the state through TerminalSafe, so no terminal escape
// or forged line can come from it.
#ifndef PSTATE_REPORT_ASSETS_H_
#define PSTATE_REPORT_ASSETS_H_

#include <memory>
#include <ostream>
#include <string>

#include "assets/run.h"
#include "report/output_format.h"

namespace pstate::report {

/// The text table aligns its columns on the first kTableBatch rows.
inline constexpr std::size_t kTableBatch = 1000;

/// A renderer of `file`'s results in `format` (kText or kJson; kSarif is
/// not an assets format and renders as kText).
std::unique_ptr<assets::RowSink> MakeAssetsRenderer(report::OutputFormat format,
                                                    std::string file,
                                                    std::ostream& out);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_ASSETS_H_
