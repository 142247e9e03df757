#!/usr/bin/env python3
"""Wall clock of `verify --jobs 1`, `--jobs 2`, and two `--jobs 1` at once.

The third run is the machine's own ceiling for two CPU-bound threads: two
independent single-threaded runs take about as long as one on two real
cores, longer on virtual CPUs that slow each other. The speed-up of
`--jobs 2` is judged against that ceiling (docs/performance.md, "Parallel
verify"). Run it on an idle machine; wall clock means nothing under load.

  bench/parallel_ceiling.py [PSTATE_BINARY] [STATE] [ROUNDS]
    PSTATE_BINARY  default build/rel/src/pstate (a Release build)
    STATE          default /tmp/pstate-bench-parallel-1G.json
                   (bench/parallel.sh generates it)
    ROUNDS         default 7; medians are printed
"""
import statistics
import subprocess
import sys
import time

binary = sys.argv[1] if len(sys.argv) > 1 else "build/rel/src/pstate"
state = sys.argv[2] if len(sys.argv) > 2 else "/tmp/pstate-bench-parallel-1G.json"
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 7


def run(commands):
    start = time.time()
    procs = [subprocess.Popen(c, stdout=subprocess.DEVNULL) for c in commands]
    for p in procs:
        if p.wait() != 0:
            sys.exit(f"{' '.join(commands[0])}: exit {p.returncode}")
    return time.time() - start


def verify(jobs):
    return [binary, "verify", "-q", "--jobs", str(jobs), state]


times = {"jobs 1": [], "jobs 2": [], "two jobs 1 at once": []}
for _ in range(rounds):
    times["jobs 1"].append(run([verify(1)]))
    times["jobs 2"].append(run([verify(2)]))
    times["two jobs 1 at once"].append(run([verify(1), verify(1)]))
with open("/proc/loadavg") as f:
    print("load average after:", " ".join(f.read().split()[:3]))
for name, values in times.items():
    print(f"{name:20} median {statistics.median(values):.3f} s   "
          + " ".join(f"{v:.2f}" for v in values))
one = statistics.median(times["jobs 1"])
print(f"speed-up of --jobs 2: {one / statistics.median(times['jobs 2']):.3f}x; "
      f"machine ceiling: {2 * one / statistics.median(times['two jobs 1 at once']):.3f}x")
