#include "cli/jobs.h"

#include <cstdlib>

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

}  // namespace pstate::cli
