// The renderers of `pstate assets`: a text table and one JSON object per
// input, from the API's rows (pstate/pstate.h). They write to a
// std::ostream the caller chooses; text passes every string from the state
// through TerminalSafe, so no terminal escape or forged line can come from
// it.
#ifndef PSTATE_REPORT_ASSETS_H_
#define PSTATE_REPORT_ASSETS_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "pstate/pstate.h"

namespace pstate::report {

/// The text table aligns its columns on the first kTableBatch rows.
inline constexpr std::size_t kTableBatch = 1000;

/// One input's rendering: Row for each row in order, then End once.
class AssetsRenderer {
 public:
  virtual ~AssetsRenderer() = default;
  virtual void Row(const AssetRow& row) = 0;
  /// `failure`: the input could not be read (text leaves its reason to
  /// stderr; JSON holds it as "error").
  virtual void End(const AssetTally& tally,
                   const std::optional<ReadFailure>& failure) = 0;
};

enum class AssetsFormat { kText, kJson };

/// A renderer of `file`'s results in `format`.
std::unique_ptr<AssetsRenderer> MakeAssetsRenderer(AssetsFormat format,
                                                   std::string file,
                                                   std::ostream& out);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_ASSETS_H_
