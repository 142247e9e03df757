#!/usr/bin/env bash
# bench/verify_schema/run.sh: `pstate verify` against `pstate verify --schema`
# on the same generated state (issue 11: --schema keeps >= 0.8x of plain
# verify's throughput; peak RSS within plain verify's plus the schemas).
#
#   bench/verify_schema/run.sh [--assets] [--state FILE] [PSTATE_BINARY] [SIZE] [ROUNDS]
#     --assets       the state was generated with gen_state.py --assets: the
#                    inferred schemas come from a sample generated so too
#                    (else the asset properties are undeclared: thousands of
#                    findings, whose cost is then what is measured)
#     --state FILE   check this existing state instead of generating one
#                    (e.g. /work/bench-states/1g.json, made by the same
#                    generator with seed 1 and --assets); SIZE is then only
#                    a label
#     PSTATE_BINARY  default build/rel/src/pstate (a Release build)
#     SIZE           gen_state.py --size, default 100M
#     ROUNDS         interleaved rounds, default 5
#
# The state is generated once into $TMPDIR (seed 1). Its packages are aws,
# kubernetes, random, tls, command (and the datadog provider, awsx and the
# program's own components): random, tls and command are checked against
# their real schemas (fixtures/package-schemas/); the others have no real
# schema here, so gen_schema.py infers one per package from a 5 MB state of
# the same generator and seed (same types, same property shapes). Each round
# runs both commands (the order alternates); the report gives medians of
# wall time, CPU time (user + sys of the child) and peak RSS of each child.
# On a shared, loaded machine CPU time is the number to compare.
set -euo pipefail
GIVEN_STATE=
ASSETS=
if [[ "${1:-}" == "--assets" ]]; then
  ASSETS=--assets
  shift
fi
if [[ "${1:-}" == "--state" ]]; then
  GIVEN_STATE=$(realpath "$2")
  shift 2
fi
cd "$(dirname "$0")/../.."
BIN=${1:-build/rel/src/pstate}
SIZE=${2:-100M}
ROUNDS=${3:-5}
TMP=${TMPDIR:-/tmp}
STATE=${GIVEN_STATE:-"$TMP/pstate-bench-schema-$SIZE${ASSETS:+-assets}.json"}
SCHEMAS="$TMP/pstate-bench-schemas${ASSETS:+-assets}"
if [[ ! -f "$STATE" ]]; then
  python3 /work/shared/bench/gen_state.py --resources 100000000 --size "$SIZE" --seed 1 $ASSETS -o "$STATE"
fi
if [[ ! -d "$SCHEMAS" ]]; then
  SAMPLE="$TMP/pstate-bench-schema-small${ASSETS:+-assets}.json"
  python3 /work/shared/bench/gen_state.py --resources 100000000 --size 5M --seed 1 $ASSETS -o "$SAMPLE"
  python3 bench/verify_schema/gen_schema.py "$SAMPLE" "$SCHEMAS"
fi
P=fixtures/package-schemas
python3 - "$BIN" "$STATE" "$ROUNDS" "$SCHEMAS" "$P" <<'PY'
import os, statistics, subprocess, sys, time
binary, state, rounds, schemas, real = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
schema_args = ["--schema-dir", schemas]
for name in ("random", "tls", "command"):
    schema_args += ["--schema", os.path.join(real, name + ".schema.json")]
cmds = {
    "verify": [binary, "verify", "-q", "--max-findings", "100", state],
    "verify --schema": [binary, "verify", "-q", "--max-findings", "100"] + schema_args + [state],
}
def run(args):
    start = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)
results = {k: [] for k in cmds}
names = list(cmds)
for r in range(rounds):
    for name in (names if r % 2 == 0 else names[::-1]):
        results[name].append(run(cmds[name]))
size = os.path.getsize(state) / 1e6
schema_mb = sum(os.path.getsize(os.path.join(schemas, f)) for f in os.listdir(schemas)) / 1e6
schema_mb += sum(os.path.getsize(os.path.join(real, n + ".schema.json")) for n in ("random", "tls", "command")) / 1e6
print(f"state: {state} ({size:.0f} MB); schemas: {schema_mb:.1f} MB")
print(f"{rounds} interleaved rounds, medians")
print("| command | wall s | cpu s (user+sys) | MB/s (cpu) | peak RSS MB | exit |")
print("|---|---|---|---|---|---|")
med = {}
for name in names:
    w = statistics.median(x[0] for x in results[name])
    c = statistics.median(x[1] for x in results[name])
    m = max(x[2] for x in results[name])
    med[name] = (w, c)
    print(f"| {name} | {w:.2f} | {c:.2f} | {size / c:.0f} | {m:.0f} | {sorted(set(x[3] for x in results[name]))} |")
v, s = med["verify"], med["verify --schema"]
print(f"throughput of --schema relative to plain verify: wall {v[0] / s[0]:.2f}x, cpu {v[1] / s[1]:.2f}x")
PY
