#!/usr/bin/env bash
# bench/normalize.sh: `pstate normalize` to stdout against a RapidJSON
# Reader -> PrettyWriter pass-through of the same file (bench/
# rapidjson_passthrough.cc, built -O3 with pstate's PSTATE_ARCH_FLAGS and
# RAPIDJSON_SSE42, see bench/CMakeLists.txt), interleaved rounds, medians of
# wall time and of CPU time (user + sys of the child: the number to trust on
# a loaded machine).
#
#   bench/normalize.sh BUILD_DIR STATE [ROUNDS]
#
# BUILD_DIR is a Release build with -DPSTATE_BUILD_BENCH=ON holding
# src/pstate and bench/rapidjson_passthrough. PSTATE_BEFORE=/path/to/pstate
# adds rows for another pstate binary (a before/after comparison in the
# same interleaved rounds). STATE is a generated state:
#   python3 /work/shared/bench/gen_state.py --size 100M --resources 10000000 \
#       --format deployment -o /tmp/s100.json
set -euo pipefail
build="${1:?usage: bench/normalize.sh BUILD_DIR STATE [ROUNDS]}"
state="${2:?usage: bench/normalize.sh BUILD_DIR STATE [ROUNDS]}"
rounds="${3:-5}"
pstate="${build}/src/pstate"
rapid="${build}/bench/rapidjson_passthrough"
[[ -x "${pstate}" && -x "${rapid}" ]] || {
  echo "normalize.sh: build ${pstate} and ${rapid} first" >&2
  exit 2
}
python3 - "${pstate}" "${rapid}" "${state}" "${rounds}" "${PSTATE_BEFORE:-}" <<'PY'
import os, resource, statistics, subprocess, sys, time
pstate, rapid, state, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
before = sys.argv[5]
cmds = {
    "pstate normalize (export layout, stdout)": [pstate, "normalize", "-q", state],
    "pstate normalize --layout diy (stdout)": [pstate, "normalize", "-q", "--layout", "diy", state],
    "rapidjson_passthrough pretty": [rapid, state, "/dev/stdout", "pretty"],
    "rapidjson_passthrough compact": [rapid, state, "/dev/stdout", "compact"],
}
if before:
    cmds["before: pstate normalize (export layout)"] = [before, "normalize", "-q", state]
    cmds["before: pstate normalize --layout diy"] = [before, "normalize", "-q", "--layout", "diy", state]
res = {k: ([], []) for k in cmds}
for r in range(rounds):
    order = list(cmds) if r % 2 == 0 else list(reversed(list(cmds)))
    for name in order:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        with open(os.devnull, "wb") as null:
            p = subprocess.run(cmds[name], stdout=null, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if p.returncode != 0:
            sys.exit(f"{name}: exit {p.returncode}")
        res[name][0].append(wall)
        res[name][1].append(cpu)
size = os.path.getsize(state) / 1e6
print(f"state: {state} ({size:.0f} MB), {rounds} interleaved rounds, load {os.getloadavg()[0]:.1f}")
print("| command | wall median (s) | CPU median (s) | MB/s by CPU |")
print("|---|---|---|---|")
for name, (walls, cpus) in res.items():
    w, c = statistics.median(walls), statistics.median(cpus)
    print(f"| {name} | {w:.2f} | {c:.2f} | {size / c:.0f} |")
PY
