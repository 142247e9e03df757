// A DIY backend as one inventory: `ls`, `stats` and `verify` given a
// backend directory (one holding `.pulumi/`, or `.pulumi` itself) cover
// every stack in it. One loop over the stacks (backend::ListStacks' order)
// calls, for each stack's current checkpoint, the very function the
// command calls for one file (inspect::List, inspect::Stats,
// verify::VerifyInput); with --jobs N the stacks are read on N threads and
// their results delivered in stack order, so the output is the same for
// any N. report/inventory.h renders the results.
#ifndef PSTATE_INVENTORY_INVENTORY_H_
#define PSTATE_INVENTORY_INVENTORY_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.h"
#include "base/result.h"
#include "base/thread_pool.h"
#include "inspect/inspect.h"

namespace pstate::inventory {

/// True when `dir` is a backend directory: a directory holding a `.pulumi`
/// directory, or a directory named `.pulumi`. A directory inside a backend
/// (`.pulumi/stacks/web`) is not one: it is read as a plain directory.
bool IsBackendDir(const std::string& dir);

/// The stacks of the backend directory `dir` (IsBackendDir), by project,
/// then name, each with its current checkpoint (backend::ListStacks).
/// kNotFound naming `dir` when it has none.
Result<std::vector<backend::Stack>> Stacks(const std::string& dir);

/// How a stack is named in `ls`' stack column and `stats`' rows:
/// "<project>/<stack>", or "<stack>" in the legacy layout (which has no
/// project level).
std::string StackLabel(const backend::Stack& stack);

/// Calls work(i) for every i in [0, n) on up to `jobs` threads (1: on the
/// calling thread, one after the other) and deliver(i, result) on the
/// calling thread, in index order, whatever the number of threads. When
/// deliver returns false, the work not yet started is skipped and nothing
/// more is delivered. What work throws is rethrown here.
template <typename T>
void ForEachOrdered(std::size_t n, int jobs,
                    const std::function<T(std::size_t)>& work,
                    const std::function<bool(std::size_t, T&&)>& deliver) {
  if (jobs <= 1 || n <= 1) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!deliver(i, work(i))) return;
    }
    return;
  }
  // At most 2 x jobs results wait to be delivered (ThreadPool's bound).
  ThreadPool pool(jobs, 2 * static_cast<std::size_t>(jobs));
  auto stopped = std::make_shared<std::atomic<bool>>(false);
  for (std::size_t i = 0; i < n && !stopped->load(); ++i) {
    auto slot = std::make_shared<std::optional<T>>();
    pool.Submit(
        [&work, i, slot, stopped] {
          if (!stopped->load()) slot->emplace(work(i));
        },
        [&deliver, i, slot, stopped] {
          if (stopped->load() || !slot->has_value()) return;
          if (!deliver(i, std::move(**slot))) stopped->store(true);
          slot->reset();
        });
  }
  pool.Finish();
}

// ---- ls ---------------------------------------------------------------------

/// One stack's rows, as inspect::List streams them, or why it could not be
/// read (`status`; the rows read before the failure are kept).
struct StackRows {
  std::vector<inspect::ResourceRow> rows;
  std::vector<inspect::PendingRow> pending;
  Status status;
};

/// inspect::List over the stack's checkpoint with `config`'s filters;
/// stops after `limit` rows (0: all).
StackRows ListStack(const backend::Stack& stack,
                    const inspect::ListConfig& config, std::uint64_t limit);

// ---- stats ------------------------------------------------------------------

/// The figures `stats` gives per stack and in total: one list, shared by
/// the text, JSON and CSV renderings.
struct Figures {
  std::uint64_t resources = 0;
  std::uint64_t types = 0;             ///< distinct resource types
  std::uint64_t bytes = 0;             ///< of the resources' JSON text
  std::uint64_t checkpoint_bytes = 0;  ///< of the file (compressed or not)
  std::uint64_t secrets = 0;
  std::uint64_t assets = 0;  ///< assets and archives
  std::uint64_t pending = 0;
  std::uint64_t protect = 0;
};

/// The figures of one state, read by inspect::Stats from a file of
/// `file_bytes` bytes.
Figures FiguresOf(const inspect::StatsResult& stats, std::uint64_t file_bytes);

/// One stack's statistics (inspect::Stats), or why it could not be read.
struct StackStats {
  backend::Stack stack;
  Status status;
  inspect::StatsResult stats;
  Figures figures;
};

/// inspect::Stats over the stack's checkpoint, with its figures.
StackStats StatsOfStack(const backend::Stack& stack);

/// The backend's statistics: the stacks that could be read, in stack order,
/// and the totals over them (types: distinct over every stack; by_type:
/// count and bytes of each type summed over the stacks).
struct BackendStats {
  std::vector<StackStats> stacks;
  Figures total;
  std::map<std::string, inspect::Tally> by_type;

  /// Adds a stack that was read (its status ok).
  void Add(StackStats stack);
};

}  // namespace pstate::inventory

#endif  // PSTATE_INVENTORY_INVENTORY_H_
