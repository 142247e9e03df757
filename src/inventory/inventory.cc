#include "inventory/inventory.h"

#include <filesystem>
#include <system_error>

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

void BackendStats::Add(StackStats stack) {
  const Figures& f = stack.figures;
  total.resources += f.resources;
  total.bytes += f.bytes;
  total.checkpoint_bytes += f.checkpoint_bytes;
  total.secrets += f.secrets;
  total.assets += f.assets;
  total.pending += f.pending;
  total.protect += f.protect;
  for (const auto& [type, tally] : stack.stats.by_type) {
    inspect::Tally& t = by_type[type];
    t.count += tally.count;
    t.bytes += tally.bytes;
  }
  total.types = by_type.size();
  stacks.push_back(std::move(stack));
}

}  // namespace pstate::inventory
