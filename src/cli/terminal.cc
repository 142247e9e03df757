#include "cli/terminal.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <utility>

#include "report/terminal.h"

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

CLI::Option* AddColorOption(CLI::App& app, std::string* choice) {
  return app
      .add_option("--color", *choice,
                  "Colour text output: auto (a terminal, unless NO_COLOR is "
                  "set and not empty or TERM=dumb), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->type_name("WHEN")
      ->capture_default_str();
}

bool RefuseStateOnTerminal(const CLI::Option& output, const bool* in_place) {
  if (output.count() > 0) return false;
  if (in_place != nullptr && *in_place) return false;
  if (!IsTerminal(STDOUT_FILENO)) return false;
  std::string ways = in_place != nullptr ? "-o FILE, --in-place or > FILE"
                                         : "-o FILE or > FILE";
  report::PrintError(std::cerr,
                     "refusing to write a state to a terminal; use " + ways +
                         " (-o - writes it here anyway)");
  return true;
}

std::function<void(std::uint64_t, std::uint64_t)> MakeProgress(
    const std::string& name, bool quiet, std::vector<std::string> passes) {
  if (quiet || !IsTerminal(STDERR_FILENO)) return {};
  struct State {
    std::uint64_t last = 0;
    std::size_t pass = 0;
  };
  auto state = std::make_shared<State>();
  std::string safe = report::TerminalSafe(name);
  return [safe, passes = std::move(passes), state](std::uint64_t done,
                                                   std::uint64_t total) {
    if (done < state->last) ++state->pass;  // the input is read again
    state->last = done;
    if (total < kProgressThreshold && done < kProgressThreshold) return;
    std::string label = safe;
    if (!passes.empty()) {
      std::size_t i = std::min(state->pass, passes.size() - 1);
      label += " (pass " + std::to_string(i + 1) + "/" +
               std::to_string(passes.size()) + ", " + passes[i] + ")";
    } else if (state->pass > 0) {
      label += " (pass " + std::to_string(state->pass + 1) + ")";
    }
    progress_drawn = true;
    if (total > 0) {
      std::fprintf(stderr, "\r\033[K%s: %llu / %llu MiB (%d%%)", label.c_str(),
                   static_cast<unsigned long long>(done >> 20),
                   static_cast<unsigned long long>(total >> 20),
                   static_cast<int>(done * 100 / total));
    } else {
      std::fprintf(stderr, "\r\033[K%s: %llu MiB", label.c_str(),
                   static_cast<unsigned long long>(done >> 20));
    }
    std::fflush(stderr);
  };
}

CLI::Option* AddQuietOption(CLI::App& app, bool* quiet) {
  return app.add_flag("-q,--quiet", *quiet, "No progress line on stderr");
}

void EndProgress() {
  if (!progress_drawn) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  progress_drawn = false;
}

}  // namespace pstate::cli
