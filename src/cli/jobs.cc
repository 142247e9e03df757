#include "cli/jobs.h"

#include <cstdlib>

#include <CLI/CLI.hpp>

#include "base/thread_pool.h"

namespace pstate::cli {

int DefaultPassJobs() {
  const char* env = std::getenv("PSTATE_JOBS");
  if (env != nullptr) {
    char* end = nullptr;
    long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n >= 1 && n <= kMaxJobs) {
      return static_cast<int>(n);
    }
  }
  return 1;
}

void AddPassJobsOption(CLI::App& app, int* jobs, const std::string& verb,
                       bool backend) {
  app.add_option("-j,--jobs", *jobs,
                 verb + " the resources of a plain file on N threads" +
                     (backend ? ", or with a backend directory read N stacks "
                                "at once"
                              : "") +
                     "; the output is the same for any N (default: one)")
      ->check(CLI::Range(1, kMaxJobs))
      ->type_name("N");
}

int PassJobs(int jobs) { return jobs > 0 ? jobs : DefaultPassJobs(); }

}  // namespace pstate::cli
