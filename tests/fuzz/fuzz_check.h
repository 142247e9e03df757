// The invariant check of the fuzz targets: unlike assert(), it stays in
// Release and NDEBUG builds, and it aborts so libFuzzer (and the replay
// main under ctest) report the input. The message names the condition and
// the line only, never input bytes, which may hold secrets.
#ifndef PSTATE_FUZZ_FUZZ_CHECK_H_
#define PSTATE_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>

#define PSTATE_FUZZ_CHECK(condition)                                       \
  do {                                                                     \
    if (!(condition)) {                                                    \
      std::fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, \
                   __LINE__, #condition);                                  \
      std::abort();                                                        \
    }                                                                      \
  } while (false)

#endif  // PSTATE_FUZZ_FUZZ_CHECK_H_
