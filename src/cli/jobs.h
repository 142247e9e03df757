// The threads a command's per-resource pass runs on when --jobs is not
// given (verify's checks, scan's findings pass).
#ifndef PSTATE_CLI_JOBS_H_
#define PSTATE_CLI_JOBS_H_

namespace pstate::cli {

/// PSTATE_JOBS when it holds a number from 1 to kMaxJobs (the golden tests
/// run every case with one thread and with several: the output must not
/// change), else 1. Not the number of processors: on the generated 1 GB
/// state the parallel read has not yet been shown to save wall time
/// (docs/performance.md, "Parallel verify"), so it is opt-in for now.
int DefaultPassJobs();

}  // namespace pstate::cli

#endif  // PSTATE_CLI_JOBS_H_
