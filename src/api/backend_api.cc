// The API's calls over several inputs (pstate/pstate.h): a backend
// directory as one inventory (inventory/inventory.h) and verify of several
// inputs N at once. Each holds the call lock (api::Call) for its whole run
// and reads its inputs on threads of its own, so the result is delivered
// in input order whatever the number of threads.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/internal.h"
#include "backend/backend.h"
#include "diag/report.h"
#include "inventory/inventory.h"
#include "io/input.h"
#include "pstate/pstate.h"
#include "verify/run.h"

namespace pstate {

bool IsBackendDirectory(const std::string& dir) {
  return inventory::IsBackendDir(dir);
}

Result<std::vector<BackendStack>> BackendStacks(const std::string& dir) {
  return inventory::Stacks(dir);
}

std::string BackendStackLabel(const BackendStack& stack) {
  return inventory::StackLabel(stack);
}

Status InventoryList(
    const std::string& dir, const InventoryListConfig& config,
    const std::function<bool(InventoryStackRows&&)>& on_stack) {
  if (config.jobs < 1) {
    return Status(Errc::kInvalidArgument, "jobs must be at least 1");
  }
  api::Call call(config.limits);
  return inventory::List(dir, config, on_stack);
}

InventoryFigures InventoryFiguresOf(const State& state,
                                    const StatsResult& stats) {
  const std::string& path = state.impl().path;
  return inventory::FiguresOf(stats,
                              path == "-" ? 0 : backend::FileBytes(path));
}

Result<InventoryStatsResult> InventoryStats(
    const std::string& dir, const InventoryStatsConfig& config) {
  if (config.jobs < 1) {
    return Status(Errc::kInvalidArgument, "jobs must be at least 1");
  }
  api::Call call(config.limits);
  return inventory::Stats(dir, config.jobs);
}

Status VerifyMany(
    const std::vector<std::string>& inputs, const VerifyManyConfig& config,
    const std::function<void(std::size_t, Findings&&)>& on_findings) {
  if (config.jobs < 1 || config.asset_jobs < 0) {
    return Status(Errc::kInvalidArgument, "jobs must be at least 1");
  }
  api::Call call(config.limits);
  verify::Config c = api::ToVerifyConfig(config);
  c.on_progress = {};
  // With a filter every finding is kept until it is applied: the kept ones
  // are the first max_findings of those it admits.
  const std::size_t kept = config.filter.empty() ? config.max_findings : 0;
  auto take = [&](diag::Report&& report) {
    return api::TakeFindings(std::move(report), config.filter,
                             config.max_findings);
  };
  if (config.jobs > 1 && inputs.size() > 1) {
    // N inputs at once, each read on one thread.
    verify::Config one = c;
    one.jobs = 1;
    one.check_jobs = 1;
    using ReportPtr = std::unique_ptr<diag::Report>;
    inventory::ForEachOrdered<ReportPtr>(
        inputs.size(), config.jobs,
        [&](std::size_t i) {
          auto report =
              std::make_unique<diag::Report>(io::InputName(inputs[i]), kept);
          verify::VerifyInput(inputs[i], one, *report);
          return report;
        },
        [&](std::size_t i, ReportPtr&& report) {
          on_findings(i, take(std::move(*report)));
          return true;
        });
    return Status::Ok();
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    diag::Report report(io::InputName(inputs[i]), kept);
    c.on_progress = config.progress_of ? config.progress_of(i) : Progress();
    verify::VerifyInput(inputs[i], c, report);
    on_findings(i, take(std::move(report)));
  }
  return Status::Ok();
}

}  // namespace pstate
