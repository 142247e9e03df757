#!/bin/bash
# pstate history at scale (docs/performance.md, "history"):
#   1. `pstate history STACK` over a stack with LONG updates (default 1000):
#      only the small history files are read;
#   2. `pstate history blame STACK URN` over VERSIONS versions (default 200)
#      of a stack of RESOURCES resources (default 10000, ~10 MB a version),
#      against `pstate ls` of every version once (one read of each): blame
#      reads each version about twice (diff's index of A, then B), and
#      re-reads only the resources whose bytes changed.
# Each under /usr/bin/time -v: wall, user+sys CPU and peak RSS.
#
# usage: bench/history.sh [LONG] [VERSIONS] [RESOURCES]
#   PSTATE=path/to/pstate (default build/release/src/pstate)
#   DIR=where the backends go (default /tmp/pstate-bench-history; needs
#   VERSIONS x the size of a version)
set -euo pipefail
LONG=${1:-1000}
VERSIONS=${2:-200}
RESOURCES=${3:-10000}
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"
PSTATE=${PSTATE:-$HERE/../build/release/src/pstate}
DIR=${DIR:-/tmp/pstate-bench-history}
mkdir -p "$DIR"
LONG_DIR=$DIR/long-$LONG
BLAME_DIR=$DIR/blame-$VERSIONS-$RESOURCES
[ -d "$LONG_DIR" ] || python3 "$HERE/history_backend.py" "$LONG_DIR" "$LONG" 10
[ -d "$BLAME_DIR" ] ||
  python3 "$HERE/history_backend.py" "$BLAME_DIR" "$VERSIONS" "$RESOURCES"

measure() {  # label command...: prints "label wall cpu rss_mb"
  local label=$1; shift
  local wall cpu rss
  read -r wall cpu rss < <(time_command "$DIR/time.txt" "$@")
  printf '%-28s wall %7.2fs  cpu %7.2fs  rss %6.1f MB\n' "$label" "$wall" \
    "$cpu" "$(echo "$rss / 1024" | bc -l)"
}

STACK=$LONG_DIR/.pulumi/stacks/bench/dev.json
measure "history ($LONG updates)" "$PSTATE" history "$STACK"

STACK=$BLAME_DIR/.pulumi/stacks/bench/dev.json
URN="urn:pulumi:dev::bench::aws:s3/bucket:Bucket::b0"
measure "blame ($VERSIONS versions)" "$PSTATE" history blame "$STACK" "$URN"
read_all() {
  for f in "$BLAME_DIR"/.pulumi/history/bench/dev/*.checkpoint.json; do
    "$PSTATE" ls "$f" > /dev/null
  done
}
export -f read_all
export PSTATE BLAME_DIR
measure "ls of every version once" bash -c read_all
