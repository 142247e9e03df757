#include "cli/terminal.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace pstate::cli {
namespace {

constexpr std::uint64_t kProgressThreshold = 64ull << 20;
bool progress_drawn = false;

}  // namespace

bool IsTerminal(int fd) { return ::isatty(fd) == 1; }

bool UseColor(const std::string& choice, int fd) {
  if (choice == "always") return true;
  if (choice == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && no_color[0] != '\0') return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return IsTerminal(fd);
}

std::function<void(std::uint64_t, std::uint64_t)> MakeProgress(
    const std::string& name, bool quiet) {
  if (quiet || !IsTerminal(STDERR_FILENO)) return {};
  return [name](std::uint64_t done, std::uint64_t total) {
    if (total < kProgressThreshold && done < kProgressThreshold) return;
    progress_drawn = true;
    if (total > 0) {
      std::fprintf(stderr, "\r\033[K%s: %llu / %llu MB (%d%%)", name.c_str(),
                   static_cast<unsigned long long>(done >> 20),
                   static_cast<unsigned long long>(total >> 20),
                   static_cast<int>(done * 100 / total));
    } else {
      std::fprintf(stderr, "\r\033[K%s: %llu MB", name.c_str(),
                   static_cast<unsigned long long>(done >> 20));
    }
    std::fflush(stderr);
  };
}

void EndProgress() {
  if (!progress_drawn) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  progress_drawn = false;
}

}  // namespace pstate::cli
