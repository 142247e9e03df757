#!/usr/bin/env bash
# bench/edit.sh: `pstate edit delete URN --target-dependents` against
# `pstate verify` on the same generated state (issue 14: at most 3x).
#
#   bench/edit.sh [PSTATE_BINARY] [SIZE|STATE] [ROUNDS]
#     PSTATE_BINARY  default build/rel/src/pstate (a Release build)
#     SIZE           gen_state.py --size, default 300m (300 MB); or the path
#                    of an existing state (e.g. /work/bench-states/1g.json)
#     ROUNDS         interleaved rounds, default 5
#
# A SIZE state is generated once into $TMPDIR (deterministic: seed 14). The
# target is the URN of the 10th resource, so the edit finds and removes its
# dependents (--force: some of them are protected) and copies everything
# else. Each round runs verify, then edit, then a plain copy of the state
# to the same directory (`dd ... conv=fsync`: the write edit cannot avoid,
# since the output is the input's bytes and io::Output syncs it before the
# rename) (the order alternates between rounds); the report gives medians
# of wall time and of CPU time (user + sys of the child), and the load
# average before and after: on a shared, loaded machine CPU time is the
# number to compare.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-build/rel/src/pstate}
SIZE=${2:-300m}
ROUNDS=${3:-5}
TMP=${TMPDIR:-/tmp}
if [[ -f "$SIZE" ]]; then
  STATE="$SIZE"
else
  STATE="$TMP/pstate-bench-edit-$SIZE.json"
fi
if [[ ! -f "$STATE" ]]; then
  python3 /work/shared/bench/gen_state.py --resources 100000000 --size "$SIZE" \
      --seed 14 -o "$STATE"
fi
URN=$(python3 - "$STATE" <<'PY'
import sys
# The 10th "urn" member of the resources array, without parsing 300 MB.
n = 0
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        s = line.strip()
        if s.startswith('"urn": "urn:pulumi:'):
            n += 1
            if n == 10:
                print(s[len('"urn": "'):].rstrip('",'))
                break
PY
)
python3 - "$BIN" "$STATE" "$URN" "$ROUNDS" "$TMP" <<'PY'
import os, resource, statistics, subprocess, sys, time
binary, state, urn, rounds, tmp = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
out = os.path.join(tmp, "pstate-bench-edit-out.json")
cmds = {
    "verify": [binary, "verify", "-q", state],
    "edit delete --target-dependents": [binary, "edit", "delete", state, urn,
                                         "--target-dependents", "--force", "-q", "-o", out],
    "copy (dd, fsync)": ["dd", "if=" + state, "of=" + out, "bs=16M", "conv=fsync",
                         "status=none"],
}
load_before = os.getloadavg()
def run(args):
    # wait4 gives this child's own rusage: CPU time and peak RSS.
    start = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    rc = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, rc, usage.ru_maxrss / 1024
results = {k: [] for k in cmds}
names = list(cmds)
for r in range(rounds):
    order = names if r % 2 == 0 else names[::-1]
    for name in order:
        results[name].append(run(cmds[name]))
print(f"state: {state} ({os.path.getsize(state) / 1e6:.0f} MB), target {urn}")
load_after = os.getloadavg()
print(f"load average (1 min) before {load_before[0]:.2f}, after {load_after[0]:.2f}")
print(f"{rounds} interleaved rounds, medians")
print("| command | wall s | cpu s (user+sys) | peak RSS MB | exit |")
print("|---|---|---|---|---|")
med = {}
for name in names:
    walls = [x[0] for x in results[name]]
    cpus = [x[1] for x in results[name]]
    rss = [x[3] for x in results[name]]
    med[name] = (statistics.median(walls), statistics.median(cpus))
    codes = sorted(set(x[2] for x in results[name]))
    print(f"| {name} | {med[name][0]:.2f} | {med[name][1]:.2f} | {max(rss):.0f} | {codes} |")
v, e = med["verify"], med["edit delete --target-dependents"]
c = med["copy (dd, fsync)"]
print(f"ratio edit/verify: wall {e[0] / v[0]:.2f}x, cpu {e[1] / v[1]:.2f}x")
print(f"the copy is {100 * c[0] / e[0]:.0f}% of edit's wall time, "
      f"{100 * c[1] / e[1]:.0f}% of its cpu time")
os.path.exists(out) and os.remove(out)
PY
