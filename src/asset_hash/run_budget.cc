#include "asset_hash/run_budget.h"

#include <limits.h>
#include <stdlib.h>

#include <memory>

namespace pstate::asset_hash {
namespace {

// One cached hash is ~200 bytes; this bounds the cache to a few MiB however
// many distinct files a run hashes.
constexpr std::size_t kMaxCachedHashes = 20000;

pstate::Status Add(std::atomic<std::uint64_t>& total, std::uint64_t n,
                   std::uint64_t limit, const char* what) {
  std::uint64_t before = total.fetch_add(n, std::memory_order_relaxed);
  if (before + n <= limit && before + n >= before) return Status::Ok();
  return Status(Errc::kLimit, std::string("the run's limit of ") +
                                  std::to_string(limit) + " " + what +
                                  " is used up (earlier items used it)");
}

/// realpath(3) into a std::string; "" on failure.
std::string RealPath(const std::string& path) {
  std::unique_ptr<char, decltype(&::free)> resolved(
      ::realpath(path.c_str(), nullptr), &::free);
  return resolved ? std::string(resolved.get()) : std::string();
}

bool Within(const std::string& path, const std::string& root) {
  if (root.empty() || path.empty()) return false;
  if (root == "/") return true;
  return path == root ||
         (path.size() > root.size() &&
          path.compare(0, root.size(), root) == 0 && path[root.size()] == '/');
}

}  // namespace

RunBudget::RunBudget(const Options& options)
    : max_bytes_(options.max_total_bytes),
      max_members_(options.max_total_members),
      max_expanded_(options.max_total_expanded_bytes),
      canonical_root_(RealPath(options.root.string())) {}

pstate::Status RunBudget::AddBytes(std::uint64_t n) {
  return Add(bytes_, n, max_bytes_, "content bytes hashed");
}

pstate::Status RunBudget::AddMembers(std::uint64_t n) {
  return Add(members_, n, max_members_, "archive members");
}

pstate::Status RunBudget::AddExpandedBytes(std::uint64_t n) {
  return Add(expanded_, n, max_expanded_,
             "bytes read out of tar, tgz and zip files");
}

std::optional<std::string> RunBudget::FindFileHash(
    const FileIdentity& id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = hashes_.find(id);
  if (it == hashes_.end()) return std::nullopt;
  return it->second;
}

void RunBudget::StoreFileHash(const FileIdentity& id, const std::string& hex) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (hashes_.size() >= kMaxCachedHashes) return;
  hashes_.emplace(id, hex);
}

bool InsideRoot(const std::string& path, const std::string& canonical_root) {
  std::string real = RealPath(path);
  if (!real.empty()) return Within(real, canonical_root);
  // Missing (or unreadable): judge the deepest existing ancestor, then the
  // rest of the name lexically; a ".." left in the rest could climb out.
  std::string head = path;
  std::string rest;
  while (true) {
    std::size_t slash = head.find_last_of('/');
    if (slash == std::string::npos) {
      rest = head + (rest.empty() ? "" : "/" + rest);
      head = ".";
      break;
    }
    std::string name = head.substr(slash + 1);
    rest = name + (rest.empty() ? "" : "/" + rest);
    head = slash == 0 ? "/" : head.substr(0, slash);
    if (!RealPath(head).empty()) break;
  }
  if (("/" + rest + "/").find("/../") != std::string::npos) return false;
  return Within(RealPath(head), canonical_root);
}

}  // namespace pstate::asset_hash
