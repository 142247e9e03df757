#!/usr/bin/env python3
"""Wall clock of `verify --jobs 1`, `--jobs 2`, and two `--jobs 1` at once.

The third run is the machine's own ceiling for two CPU-bound threads: two
independent single-threaded runs take about as long as one on two real
cores, longer on virtual CPUs that slow each other. The speed-up of
`--jobs 2` is judged against that ceiling (docs/performance.md, "Parallel
verify"). Run it on an idle machine; wall clock means nothing under load.

A shared virtual machine's speed drifts from second to second, so the
three runs of a round follow each other closely, their order alternates
from round to round, and besides the medians of each run's wall clock the
script prints the median of the rounds' own ratios (each taken from runs
seconds apart) and the CPU time (user + system) of each run.

  bench/parallel_ceiling.py [PSTATE_BINARY] [STATE] [ROUNDS]
    PSTATE_BINARY  default build/rel/src/pstate (a Release build)
    STATE          default /tmp/pstate-bench-parallel-1G.json
                   (bench/parallel.sh generates it)
    ROUNDS         default 7; medians are printed
"""
import os
import statistics
import subprocess
import sys
import time

binary = sys.argv[1] if len(sys.argv) > 1 else "build/rel/src/pstate"
state = sys.argv[2] if len(sys.argv) > 2 else "/tmp/pstate-bench-parallel-1G.json"
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 7


def run(commands):
    """(wall seconds, CPU seconds of all the commands) of running them at once."""
    start = time.time()
    procs = [subprocess.Popen(c, stdout=subprocess.DEVNULL) for c in commands]
    cpu = 0.0
    for p in procs:
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            sys.exit(f"{' '.join(commands[0])}: exit {p.returncode}")
        cpu += usage.ru_utime + usage.ru_stime
    return time.time() - start, cpu


def verify(jobs):
    return [binary, "verify", "-q", "--jobs", str(jobs), state]


runs = {
    "jobs 1": [verify(1)],
    "jobs 2": [verify(2)],
    "two jobs 1 at once": [verify(1), verify(1)],
}
wall = {name: [] for name in runs}
cpu = {name: [] for name in runs}
speedup, ceiling = [], []
for r in range(rounds):
    order = list(runs) if r % 2 == 0 else list(reversed(runs))
    for name in order:
        w, c = run(runs[name])
        wall[name].append(w)
        cpu[name].append(c)
    one = wall["jobs 1"][-1]
    speedup.append(one / wall["jobs 2"][-1])
    ceiling.append(2 * one / wall["two jobs 1 at once"][-1])
with open("/proc/loadavg") as f:
    print("load average after:", " ".join(f.read().split()[:3]))
for name in runs:
    print(f"{name:20} median {statistics.median(wall[name]):.3f} s wall, "
          f"{statistics.median(cpu[name]):.3f} s CPU   "
          + " ".join(f"{v:.2f}" for v in wall[name]))
one = statistics.median(wall["jobs 1"])
print(f"speed-up of --jobs 2 (medians): "
      f"{one / statistics.median(wall['jobs 2']):.3f}x; machine ceiling: "
      f"{2 * one / statistics.median(wall['two jobs 1 at once']):.3f}x")
print(f"speed-up of --jobs 2 (median of the rounds' ratios): "
      f"{statistics.median(speedup):.3f}x; machine ceiling: "
      f"{statistics.median(ceiling):.3f}x")
print(f"CPU of --jobs 2 over --jobs 1 (medians): "
      f"{statistics.median(cpu['jobs 2']) / statistics.median(cpu['jobs 1']):.3f}x")
