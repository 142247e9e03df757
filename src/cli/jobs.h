// The threads a command's per-resource pass runs on when --jobs is not
// given (verify's checks, scan's findings pass).
#ifndef PSTATE_CLI_JOBS_H_
#define PSTATE_CLI_JOBS_H_

#include <string>

namespace CLI {
class App;
}

namespace pstate::cli {

/// `-j,--jobs N` for a command whose per-resource pass runs on the engine:
/// "<verb> the resources of a plain file on N threads; the output is the
/// same for any N (default: one)"; with `backend`, also what it means for
/// a backend directory (N stacks read at once). 0 stays in `*jobs` when it
/// is not given.
void AddPassJobsOption(CLI::App& app, int* jobs, const std::string& verb,
                       bool backend = false);

/// `jobs` when given (> 0), else DefaultPassJobs().
int PassJobs(int jobs);

/// PSTATE_JOBS when it holds a number from 1 to kMaxJobs (the golden tests
/// run every case with one thread and with several: the output must not
/// change), else 1. Not the number of processors: on the generated 1 GB
/// state the parallel read has not yet been shown to save wall time
/// (docs/performance.md, "Parallel verify"), so it is opt-in for now.
int DefaultPassJobs();

}  // namespace pstate::cli

#endif  // PSTATE_CLI_JOBS_H_
