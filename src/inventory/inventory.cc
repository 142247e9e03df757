#include "inventory/inventory.h"

#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

namespace pstate::inventory {
namespace {

namespace fs = std::filesystem;

bool IsDirectory(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

}  // namespace

bool IsBackendDir(const std::string& dir) {
  if (!IsDirectory(dir)) return false;
  if (IsDirectory(fs::path(dir) / ".pulumi")) return true;
  // ".pulumi", ".pulumi/" and "x/.pulumi": the last named component.
  fs::path p = fs::path(dir).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p.filename() == ".pulumi";
}

Result<std::vector<backend::Stack>> Stacks(const std::string& dir) {
  Result<std::string> root = backend::FindRoot(dir);
  if (!root.ok()) return root.status();
  Result<std::vector<backend::Stack>> stacks = backend::ListStacks(*root);
  if (!stacks.ok()) return stacks.status();
  if (stacks->empty()) {
    return Status(Errc::kNotFound,
                  dir + ": the backend has no stacks (no checkpoint under " +
                      (fs::path(*root) / ".pulumi" / "stacks").string() + ")");
  }
  return stacks;
}

std::string StackLabel(const backend::Stack& stack) {
  return stack.project.empty() ? stack.name : stack.project + "/" + stack.name;
}

StackRows ListStack(const backend::Stack& stack,
                    const inspect::ListConfig& config, std::uint64_t limit) {
  StackRows out;
  out.stack = stack;
  inspect::ListConfig one = config;
  one.path = stack.checkpoint;
  one.on_progress = {};
  one.jobs = 1;  // the stacks are what is read in parallel
  auto more = [&] {
    return limit == 0 || out.rows.size() + out.pending.size() < limit;
  };
  out.status = inspect::List(
      one,
      [&](const inspect::ResourceRow& row) {
        out.rows.push_back(row);
        return more();
      },
      [&](const inspect::PendingRow& row) {
        out.pending.push_back(row);
        return more();
      });
  return out;
}

StackStats StatsOfStack(const backend::Stack& stack) {
  StackStats out;
  out.stack = stack;
  inspect::StatsConfig config;
  config.path = stack.checkpoint;
  config.top = 0;
  Result<inspect::StatsResult> stats = inspect::Stats(config);
  if (!stats.ok()) {
    out.status = stats.status();
    return out;
  }
  out.stats = std::move(stats).value();
  out.figures = FiguresOf(out.stats, backend::FileBytes(stack.checkpoint));
  return out;
}

Figures FiguresOf(const inspect::StatsResult& s, std::uint64_t file_bytes) {
  Figures f;
  f.resources = s.resources.count;
  f.types = s.by_type.size();
  f.bytes = s.resources.bytes;
  f.checkpoint_bytes = file_bytes;
  f.secrets = s.secrets;
  f.assets = s.assets + s.archives;
  for (const auto& [op, n] : s.pending) f.pending += n;
  if (auto it = s.flags.find("protect"); it != s.flags.end()) {
    f.protect = it->second;
  }
  return f;
}

void Add(BackendStats& all, StackStats stack) {
  const Figures& f = stack.figures;
  Figures& total = all.total;
  total.resources += f.resources;
  total.bytes += f.bytes;
  total.checkpoint_bytes += f.checkpoint_bytes;
  total.secrets += f.secrets;
  total.assets += f.assets;
  total.pending += f.pending;
  total.protect += f.protect;
  for (const auto& [type, tally] : stack.stats.by_type) {
    inspect::Tally& t = all.by_type[type];
    t.count += tally.count;
    t.bytes += tally.bytes;
  }
  total.types = all.by_type.size();
  all.stacks.push_back(std::move(stack));
}

Status List(const std::string& dir, const ::pstate::InventoryListConfig& config,
            const std::function<bool(StackRows&&)>& on_stack) {
  Result<std::vector<backend::Stack>> stacks = Stacks(dir);
  if (!stacks.ok()) return stacks.status();
  inspect::ListConfig one;
  static_cast<ResourceFilter&>(one) = config;
  one.pending = config.pending;
  const std::uint64_t limit = config.limit;
  std::uint64_t delivered = 0;
  ForEachOrdered<StackRows>(
      stacks->size(), config.jobs,
      [&](std::size_t i) { return ListStack((*stacks)[i], one, limit); },
      [&](std::size_t, StackRows&& rows) {
        if (limit != 0) {
          // The rows left before the limit; a stack that reaches it is cut
          // there and is the last, without a status (it was not read on).
          const std::uint64_t left = limit - delivered;
          std::vector<ResourceRow>& r = rows.rows;
          std::vector<PendingRow>& p = rows.pending;
          if (r.size() + p.size() >= left) {
            if (r.size() >= left) {
              r.resize(static_cast<std::size_t>(left));
              p.clear();
            } else {
              p.resize(static_cast<std::size_t>(left - r.size()));
            }
            rows.status = Status::Ok();
            on_stack(std::move(rows));
            return false;
          }
          delivered += r.size() + p.size();
        }
        return on_stack(std::move(rows));
      });
  return Status::Ok();
}

Result<BackendStats> Stats(const std::string& dir, int jobs) {
  Result<std::vector<backend::Stack>> stacks = Stacks(dir);
  if (!stacks.ok()) return stacks.status();
  BackendStats all;
  ForEachOrdered<StackStats>(
      stacks->size(), jobs,
      [&](std::size_t i) { return StatsOfStack((*stacks)[i]); },
      [&](std::size_t, StackStats&& stats) {
        if (stats.status.ok()) {
          Add(all, std::move(stats));
        } else {
          all.failed.push_back(std::move(stats));
        }
        return true;
      });
  return all;
}

}  // namespace pstate::inventory
