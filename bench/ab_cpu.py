#!/usr/bin/env python3
"""ab_cpu.py: two pstate binaries, the same commands, interleaved rounds.

For a before/after comparison on a shared, loaded machine: each round runs
every command with binary A, then with binary B (the order alternates from
round to round), and records wall time and the CPU time of the child
(user + sys, from getrusage). The report is a Markdown table of medians; CPU
time is the number to compare when the machine is busy.

  python3 bench/ab_cpu.py --a /tmp/pstate-before --b build/rel/src/pstate \\
      --state /tmp/s100.json --rounds 5 \\
      --cmd "verify -q {state}" --cmd "scan -q {state}" \\
      --cmd "redact {state} -o {tmp}/out.json"

`{state}` is the state path and `{tmp}` a scratch directory. Exit statuses
are reported, not judged (verify exits 1 when it has findings).
"""

import argparse
import os
import resource
import shlex
import statistics
import subprocess
import tempfile
import time


def run_once(binary, args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([binary] + args, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="the 'before' binary")
    ap.add_argument("--b", required=True, help="the 'after' binary")
    ap.add_argument("--state", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cmd", action="append", required=True)
    opts = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        commands = [shlex.split(c.format(state=opts.state, tmp=tmp)) for c in opts.cmd]
        results = {(c, which): [] for c in range(len(commands)) for which in "ab"}
        statuses = {}
        for r in range(opts.rounds):
            order = "ab" if r % 2 == 0 else "ba"
            for c, args in enumerate(commands):
                for which in order:
                    binary = opts.a if which == "a" else opts.b
                    wall, cpu, status = run_once(binary, args)
                    results[(c, which)].append((wall, cpu))
                    statuses[(c, which)] = status

    print(f"{opts.rounds} interleaved rounds, medians; state {os.path.basename(opts.state)} "
          f"({os.path.getsize(opts.state) / 1e6:.0f} MB)")
    print()
    print("| command | before CPU s | after CPU s | CPU change | before wall s | after wall s | exit |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for c, text in enumerate(opts.cmd):
        a = results[(c, "a")]
        b = results[(c, "b")]
        a_cpu = statistics.median(x[1] for x in a)
        b_cpu = statistics.median(x[1] for x in b)
        a_wall = statistics.median(x[0] for x in a)
        b_wall = statistics.median(x[0] for x in b)
        change = (b_cpu / a_cpu - 1) * 100 if a_cpu else 0.0
        shown = text.replace("{state}", "STATE").replace("{tmp}/", "")
        print(f"| `pstate {shown}` | {a_cpu:.3f} | {b_cpu:.3f} | {change:+.1f}% | "
              f"{a_wall:.3f} | {b_wall:.3f} | {statuses[(c, 'a')]}/{statuses[(c, 'b')]} |")


if __name__ == "__main__":
    main()
