// The renderers of `pstate assets`: a text table and one JSON object per
// input. They write to a std::ostream the caller chooses; text escapes
// control characters from the state so no terminal escape or forged line
// can come from it.
#ifndef PSTATE_ASSETS_RENDER_H_
#define PSTATE_ASSETS_RENDER_H_

#include <memory>
#include <ostream>
#include <string>

#include "pstate/assets/run.h"
#include "pstate/diag/output_format.h"

namespace pstate::assets {

/// The text table aligns its columns on the first kTableBatch rows.
inline constexpr std::size_t kTableBatch = 1000;

/// A renderer of `file`'s results in `format` (kText or kJson; kSarif is
/// not an assets format and renders as kText).
std::unique_ptr<RowSink> MakeRenderer(diag::OutputFormat format,
                                      std::string file, std::ostream& out);

/// Control characters become '?': names and paths must not drive the
/// terminal.
std::string Printable(std::string_view s);

}  // namespace pstate::assets

#endif  // PSTATE_ASSETS_RENDER_H_
