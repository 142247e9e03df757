#!/usr/bin/env bash
# bench/parallel.sh: `pstate verify --jobs 1` against `--jobs 2` on the
# generated 1 GB state (the engine's parallel executor; docs/performance.md,
# "Parallel verify"). Target: at least 1.7x wall-clock with 2 threads on a
# 2-core machine, peak RSS under 100 MB.
#
#   bench/parallel.sh [PSTATE_BINARY] [SIZE|STATE] [ROUNDS]
#     PSTATE_BINARY  default build/rel/src/pstate, configured and built here
#                    (Release, the project's flags) when it does not exist
#     SIZE           gen_state.py --size, default 1G; or an existing state
#     ROUNDS         interleaved rounds, default 5
#   bench/parallel.sh --callgrind BEFORE_BINARY [PSTATE_BINARY]
#     instructions of `verify --jobs 1` on a 10 MB state, BEFORE_BINARY
#     against PSTATE_BINARY (valgrind --tool=callgrind): a single-threaded
#     slowdown shows here whatever the load of the machine.
#
# Each round runs both commands, in alternating order, under /usr/bin/time;
# the report gives medians of wall time, CPU time (user + sys) and peak RSS,
# and the load average before and after (wall-clock speed-ups mean nothing
# on a loaded machine; CPU time and RSS still do).
set -euo pipefail
cd "$(dirname "$0")/.."
TMP=${TMPDIR:-/tmp}
# The seeded state generator of the shared folder beside the repository
# (PSTATE_SHARED names another), as bench/run.sh finds it.
GEN="${PSTATE_SHARED:-$(pwd)/../shared}/bench/gen_state.py"

build_release() {
  local bin=$1
  if [[ ! -x "$bin" && "$bin" == build/rel/src/pstate ]]; then
    cmake -S . -B build/rel -DCMAKE_BUILD_TYPE=Release -DPSTATE_BUILD_TESTS=OFF \
      >/dev/null
    cmake --build build/rel -j "${BENCH_JOBS:-2}" --target pstate >/dev/null
  fi
  [[ -x "$bin" ]] || { echo "parallel.sh: no binary $bin" >&2; exit 2; }
}

generate() {  # generate SIZE -> path of the state
  local size=$1 state="$TMP/pstate-bench-parallel-$1.json"
  if [[ ! -f "$state" ]]; then
    python3 "$GEN" --resources 100000000 --size "$size" --seed 1 -o "$state" >&2
  fi
  echo "$state"
}

if [[ "${1:-}" == "--callgrind" ]]; then
  BEFORE=${2:?--callgrind needs the binary to compare against}
  BIN=${3:-build/rel/src/pstate}
  build_release "$BIN"
  STATE=$(generate 10M)
  for b in "$BEFORE" "$BIN"; do
    n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
          "$b" verify -q --jobs 1 "$STATE" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    echo "$b: $n instructions (verify --jobs 1, $(stat -c %s "$STATE") bytes)"
  done
  exit 0
fi

BIN=${1:-build/rel/src/pstate}
SIZE=${2:-1G}
ROUNDS=${3:-5}
build_release "$BIN"
if [[ -f "$SIZE" ]]; then STATE="$SIZE"; else STATE=$(generate "$SIZE"); fi
cat "$STATE" >/dev/null  # a hot page cache for both alike

python3 - "$BIN" "$STATE" "$ROUNDS" <<'PY'
import os, statistics, subprocess, sys, tempfile
binary, state, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
cmds = {j: [binary, "verify", "-q", "--jobs", str(j), state] for j in (1, 2)}
res = {j: {"wall": [], "cpu": [], "rss": []} for j in cmds}
load_before = os.getloadavg()[0]
outputs = {}
for r in range(rounds):
    order = [1, 2] if r % 2 == 0 else [2, 1]
    for j in order:
        with tempfile.NamedTemporaryFile("r") as t:
            p = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", t.name]
                               + cmds[j], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
            wall, user, sys_, rss = t.read().split()[-4:]
        outputs.setdefault(j, p.stdout)
        res[j]["wall"].append(float(wall))
        res[j]["cpu"].append(float(user) + float(sys_))
        res[j]["rss"].append(int(rss) / 1024)
load_after = os.getloadavg()[0]
med = {j: {k: statistics.median(v) for k, v in res[j].items()} for j in res}
size = os.path.getsize(state)
print(f"state: {state} ({size / 1e9:.2f} GB), {rounds} interleaved rounds, medians")
print(f"load average (1 min): {load_before:.2f} before, {load_after:.2f} after, "
      f"{os.cpu_count()} processors")
print("| command | wall s | CPU s | peak RSS MB |")
print("|---|---:|---:|---:|")
for j in cmds:
    m = med[j]
    print(f"| verify --jobs {j} | {m['wall']:.2f} | {m['cpu']:.2f} | {m['rss']:.0f} |")
print(f"wall speed-up with 2 threads: {med[1]['wall'] / med[2]['wall']:.2f}x; "
      f"CPU time ratio: {med[2]['cpu'] / med[1]['cpu']:.2f}")
print("outputs identical:", outputs[1] == outputs[2])
PY
