// The renderings of `pstate ls`, `show`, `tree` and `stats`: text
// (inspect_text.cc; every string from the state through TerminalSafe) and
// JSON (inspect_json.cc; schemas in docs/inspect.md).
#ifndef PSTATE_REPORT_INSPECT_H_
#define PSTATE_REPORT_INSPECT_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "inspect/inspect.h"
#include "json/writer.h"

namespace pstate::report {

/// Tab-separated; with `color` the flags yellow and empty columns ("-")
/// dim.
std::string RowText(const ResourceRow& row, bool color = false);
/// One JSON object; with `stack` (a backend's BackendStackLabel) a
/// first member "stack".
std::string RowJson(const ResourceRow& row, std::string_view stack = {});
std::string PendingText(const PendingRow& row);
std::string PendingJson(const PendingRow& row, std::string_view stack = {});
/// "protect,taint": the flags' names as ls prints them.
std::string FlagsText(const std::vector<ResourceFlag>& flags);

struct ShowTextOptions {
  /// Labels bold, "[secret]" values yellow.
  bool color = false;
  /// Values longer than this many bytes are cut (report::Shorten); 0
  /// prints them whole.
  std::size_t max_value_width = 0;
};
std::string ShowText(const ShowResult& result,
                     const ShowTextOptions& options = {});
std::string ShowJson(const ShowResult& result);

/// Write the tree as it goes (iteratively: a deep parent chain needs no
/// deep stack), so the output is never held whole. A `limit` above 0
/// writes the first `limit` resources (lines of text, nodes of JSON) in
/// the same order, then says how many were left out: a last line of text,
/// or "truncated": true and "omitted": N after "resources" in JSON.
/// With `color` the guides are dim, "[delete]" red and "[provider]" cyan.
void WriteTreeText(const TreeResult& tree, std::ostream& stream,
                   std::size_t limit = 0, bool color = false);
void WriteTreeJson(const TreeResult& tree, std::ostream& stream,
                   std::size_t limit = 0);
std::string TreeText(const TreeResult& tree);
std::string TreeJson(const TreeResult& tree);

struct StatsOptions {
  /// Exact byte counts instead of B/KiB/MiB/GiB with one decimal.
  bool exact_bytes = false;
  /// The byte split (StatsResult::sizes): sections, shares and
  /// each type's largest properties.
  const StatsSizes* sizes = nullptr;
};

/// "1.5 KiB" (binary units, one decimal; bytes below 1 KiB as "512 B").
std::string HumanBytes(std::uint64_t bytes);

std::string StatsText(const StatsResult& stats,
                      const StatsOptions& options = {});
std::string StatsJson(const StatsResult& stats,
                      const StatsSizes* sizes = nullptr);
/// {"NAME": {"count": N, "bytes": B}, ...}.
void TallyMapJson(const std::map<std::string, Tally>& m, json::Writer& w);

/// `stats A B`: how each type and section grew from `before` to `after`
/// (both read with sizes).
struct StatsSide {
  const StatsResult* stats = nullptr;
  const StatsSizes* sizes = nullptr;
};
std::string StatsGrowthText(const StatsSide& before, const StatsSide& after,
                            bool exact_bytes);
std::string StatsGrowthJson(const StatsSide& before, const StatsSide& after);

}  // namespace pstate::report

#endif  // PSTATE_REPORT_INSPECT_H_
