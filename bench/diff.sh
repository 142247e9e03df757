#!/bin/bash
# pstate diff at scale: a generated state A, a copy B with 1% of resources
# changed (bench/diff_mutate.py), then interleaved runs of
#   pstate verify A        (one pass over one file: the yardstick)
#   pstate diff A B        (index A, stream B, re-read the changed 1%)
# each under /usr/bin/time -v: wall, user+sys CPU and peak RSS. Prints every
# run and the medians. The machine may be shared and loaded: compare CPU
# time as well as wall time.
#
# usage: bench/diff.sh [SIZE] [RUNS]     (defaults 1G and 5)
#   A=, B= use these states instead of generating them
#   INSPECT=1 also measures ls, show, tree and stats on A (peak RSS)
#   PSTATE=path/to/pstate (default build/release/src/pstate)
#   DIR=where the states go (default /tmp/pstate-bench-diff; needs 2x SIZE)
set -euo pipefail
SIZE=${1:-1G}
RUNS=${2:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"
PSTATE=${PSTATE:-$HERE/../build/release/src/pstate}
DIR=${DIR:-/tmp/pstate-bench-diff}
GEN=${GEN:-/work/shared/bench/gen_state.py}
mkdir -p "$DIR"
A=${A:-$DIR/a-$SIZE.json}
B=${B:-$DIR/b-$SIZE.json}
if [ ! -s "$A" ]; then
  python3 "$GEN" --resources 100000000 --size "$SIZE" --seed 1 -o "$A"
fi
if [ ! -s "$B" ]; then
  python3 "$HERE/diff_mutate.py" "$A" "$B" 100
fi
ls -l "$A" "$B"

measure() {  # label command...: prints "label wall cpu rss_mb exit"
  local label=$1; shift
  local wall cpu rss
  read -r wall cpu rss < <(time_command "$DIR/time.txt" "$@")
  echo "$label $wall $cpu $((rss / 1024))"
}

: > "$DIR/runs.txt"
for i in $(seq 1 "$RUNS"); do
  measure verify "$PSTATE" verify -q "$A" | tee -a "$DIR/runs.txt"
  measure diff "$PSTATE" diff --stat "$A" "$B" | tee -a "$DIR/runs.txt"
done
median() {  # label column
  awk -v l="$1" -v c="$2" '$1 == l {print $c}' "$DIR/runs.txt" | sort -g |
    awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
}
echo "medians of $RUNS interleaved runs (wall s, user+sys s, peak RSS MB):"
for l in verify diff; do
  echo "  $l $(median $l 2) $(median $l 3) $(median $l 4)"
done
"$PSTATE" diff --stat "$A" "$B" || true

# INSPECT=1: peak RSS of the inspection commands on A (issue 13: "all of
# them stream a state of any size with bounded memory"), one run each,
# verify as the yardstick.
if [ "${INSPECT:-0}" = 1 ]; then
  middle=$(( $("$PSTATE" stats --format json --top 0 "$A" |
               sed 's/.*"resources":{"count":\([0-9]*\).*/\1/') / 2 ))
  echo "peak RSS of one run each (wall s, user+sys s, peak RSS MB):"
  measure "verify" "$PSTATE" verify -q "$A"
  measure "ls" "$PSTATE" ls "$A"
  measure "ls--format-json" "$PSTATE" ls --format json "$A"
  measure "show--index-$middle" "$PSTATE" show "$A" --index "$middle"
  measure "tree" "$PSTATE" tree "$A"
  measure "tree--format-json" "$PSTATE" tree --format json "$A"
  measure "stats" "$PSTATE" stats "$A"
fi
