// A DIY backend as one inventory: `ls`, `stats` and `verify` given a
// backend directory (one holding `.pulumi/`, or `.pulumi` itself) cover
// every stack in it. One loop over the stacks (backend::ListStacks' order)
// calls, for each stack's current checkpoint, the very function the
// command calls for one file (inspect::List, inspect::Stats,
// verify::VerifyInput through pstate::VerifyMany); with --jobs N the stacks
// are read on N threads and their results delivered in stack order, so the
// output is the same for any N. The results are the API's types
// (pstate/pstate.h: InventoryList, InventoryStats); report/inventory.h
// renders them.
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
/// read (`status`; the rows read before the failure are kept): the API's.
using StackRows = ::pstate::InventoryStackRows;

/// inspect::List over the stack's checkpoint with `config`'s filters;
/// stops after `limit` rows (0: all).
StackRows ListStack(const backend::Stack& stack,
                    const inspect::ListConfig& config, std::uint64_t limit);

/// `ls BACKEND_DIR` (pstate::InventoryList): ListStack over every stack,
/// `config.jobs` at once, to `on_stack` in stack order; the stack that
/// reaches `config.limit` (rows over all stacks) comes cut there and is the
/// last (without its status: it was not read further).
Status List(const std::string& dir, const ::pstate::InventoryListConfig& config,
            const std::function<bool(StackRows&&)>& on_stack);

// ---- stats ------------------------------------------------------------------

/// The figures `stats` gives per stack and in total: the API's.
using Figures = ::pstate::InventoryFigures;

/// The figures of one state, read by inspect::Stats from a file of
/// `file_bytes` bytes.
Figures FiguresOf(const inspect::StatsResult& stats, std::uint64_t file_bytes);

/// One stack's statistics (inspect::Stats), or why it could not be read:
/// the API's.
using StackStats = ::pstate::InventoryStackStats;

/// inspect::Stats over the stack's checkpoint, with its figures.
StackStats StatsOfStack(const backend::Stack& stack);

/// The backend's statistics: the stacks that could be read, in stack order,
/// and the totals over them (types: distinct over every stack; by_type:
/// count and bytes of each type summed over the stacks): the API's.
using BackendStats = ::pstate::InventoryStatsResult;

/// Adds a stack that was read (its status ok) to `all` and its totals.
void Add(BackendStats& all, StackStats stack);

/// `stats BACKEND_DIR` (pstate::InventoryStats): StatsOfStack over every
/// stack, `jobs` at once, in stack order; a stack that cannot be read goes
/// to `failed`.
Result<BackendStats> Stats(const std::string& dir, int jobs);

}  // namespace pstate::inventory

#endif  // PSTATE_INVENTORY_INVENTORY_H_
