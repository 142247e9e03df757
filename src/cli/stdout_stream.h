// std::cout's buffer for the whole process: writes go to file descriptor 1
// with write(2), and the first failure's errno is kept. C stdio, which
// std::cout goes through by default, reports only that some write failed;
// the reason (ENOSPC on a full disk, EPIPE for a reader that went away) is
// lost by the time the command ends, and the error message would have to
// guess it.
#ifndef PSTATE_CLI_STDOUT_STREAM_H_
#define PSTATE_CLI_STDOUT_STREAM_H_

namespace pstate::cli {

/// Makes std::cout write through the buffer above. Call once, first thing
/// in main; the buffer lives until the process ends (std::cout is flushed
/// by the runtime at exit).
void InstallStdoutBuffer();

/// The errno of the first failed write to standard output; 0 when every
/// write so far succeeded. Once a write has failed, later output is
/// dropped and std::cout reports failure.
int StdoutWriteError();

}  // namespace pstate::cli

#endif  // PSTATE_CLI_STDOUT_STREAM_H_
