#!/usr/bin/env bash
# bench/edit_memory.sh: peak resident memory of edits that rewrite or move
# most resources (the security review's S3): `edit protect --all` of a
# generated 200 MB state, and `edit repair` of a dependency chain
# written in reverse order (200k resources, each depending on the next;
# 57 MB).
# Both must stay under 100 MB: edit's memory follows its index, not the
# file (docs/edit.md, "Bounded memory").
#
#   bench/edit_memory.sh [PSTATE_BINARY] [LIMIT_MB]
#     PSTATE_BINARY  default build/rel/src/pstate (a Release build)
#     LIMIT_MB       default 100; exit 1 when a run's peak RSS is above it
#
# The states are generated once into $TMPDIR (deterministic). Peak RSS is
# the child's ru_maxrss (wait4), which counts the input's mapped pages
# that are resident as well as the heap.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-build/rel/src/pstate}
LIMIT=${2:-100}
TMP=${TMPDIR:-/tmp}
BIG="$TMP/pstate-bench-edit-memory-200m.json"
CHAIN="$TMP/pstate-bench-edit-memory-chain.json"
if [[ ! -f "$BIG" ]]; then
  python3 /work/shared/bench/gen_state.py --resources 100000000 --size 200M \
      --seed 3 --secrets-ratio 0.2 -o "$BIG"
fi
if [[ ! -f "$CHAIN" ]]; then
  python3 - "$CHAIN" <<'PY'
import hashlib, json, sys
# 200k resources; resource i depends on resource i+1 (a chain written in
# reverse order: every dependency comes after its user, as repair fixes).
n = 200_000
s = "urn:pulumi:dev::chain::"
root = s + "pulumi:pulumi:Stack::chain-dev"
with open(sys.argv[1], "w") as f:
    f.write('{\n    "version": 3,\n    "deployment": {\n        "manifest": {\n')
    f.write('            "time": "2024-01-01T00:00:00Z",\n')
    f.write('            "magic": "%s",\n' % hashlib.sha256(b"v3.200.0").hexdigest())
    f.write('            "version": "v3.200.0"\n        },\n        "resources": [\n')
    f.write('            {"urn": "%s", "custom": false, "type": "pulumi:pulumi:Stack"},\n' % root)
    for i in range(n):
        r = {"urn": s + "x:index:Thing::t%d" % i, "custom": False,
             "type": "x:index:Thing", "parent": root,
             "inputs": {"pad": "%016d" % i}}
        if i + 1 < n:
            r["dependencies"] = [s + "x:index:Thing::t%d" % (i + 1)]
        f.write("            " + json.dumps(r) + (",\n" if i + 1 < n else "\n"))
    f.write('        ]\n    }\n}\n')
PY
fi
python3 - "$BIN" "$BIG" "$CHAIN" "$LIMIT" "$TMP" <<'PY'
import os, subprocess, sys, time
binary, big, chain, limit, tmp = sys.argv[1:6]
out = os.path.join(tmp, "pstate-bench-edit-memory-out.json")
runs = [
    ("edit protect --all (200 MB)", [binary, "edit", "protect", big, "--all", "-q", "-o", out]),
    ("edit repair (57 MB reversed chain)", [binary, "edit", "repair", chain, "-q", "-o", out]),
    ("verify (200 MB), for scale", [binary, "verify", "-q", big]),
]
print(f"load average (1 min) {os.getloadavg()[0]:.2f}")
print("| command | input MB | peak RSS MB | cpu s | exit |")
print("|---|---|---|---|---|")
worst = 0.0
for name, args in runs:
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    rss = usage.ru_maxrss / 1024
    rc = os.waitstatus_to_exitcode(status)
    size = os.path.getsize(args[3]) / 1e6
    print(f"| {name} | {size:.0f} | {rss:.0f} | {usage.ru_utime + usage.ru_stime:.2f} | {rc} |")
    if name.startswith("edit"):
        worst = max(worst, rss)
        if rc != 0:
            sys.exit(f"{name} exited {rc}")
if os.path.exists(out):
    os.remove(out)
if worst > float(limit):
    sys.exit(f"peak RSS {worst:.0f} MB is above {limit} MB")
PY
