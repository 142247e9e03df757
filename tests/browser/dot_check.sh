#!/usr/bin/env bash
# `pstate graph --format dot` accepted by Graphviz: `dot -Tsvg` must read
# every graph (all edge kinds, clusters, focus, groups, hostile names)
# without an error or a warning. Skipped (77) only when dot is missing and
# CI is not set. Usage: dot_check.sh PSTATE FIXTURES_DIR
set -euo pipefail
pstate="$1"
fixtures="$2"
if ! command -v dot >/dev/null 2>&1; then
  if [ "${CI:-}" = "true" ]; then
    echo "dot (graphviz) is required under CI" >&2
    exit 1
  fi
  echo "dot (graphviz) not found: skipped" >&2
  exit 77
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
check() {
  local name="$1"
  shift
  "$pstate" graph "$@" --format dot >"$work/$name.dot"
  if ! dot -Tsvg "$work/$name.dot" -o "$work/$name.svg" 2>"$work/$name.err" ||
    [ -s "$work/$name.err" ]; then
    echo "FAILED: dot rejected or warned on: pstate graph $*" >&2
    cat "$work/$name.err" >&2
    failed=1
  elif ! grep -q '<svg' "$work/$name.svg"; then
    echo "FAILED: no SVG for: pstate graph $*" >&2
    failed=1
  fi
}
check web-all "$fixtures/graph/web.json" --edges all
check web-default "$fixtures/graph/web.json"
check web-group "$fixtures/graph/web.json" --group type --edges all
check web-focus "$fixtures/graph/web.json" --name policy --depth 2
check base "$fixtures/inspect/base.json" --edges all
check empty "$fixtures/inspect/empty.json"
for state in "$fixtures"/states/valid/*.json; do
  [ -f "$state" ] || continue
  check "valid-$(basename "$state" .json)" "$state" --edges all
done
# The hostile name stays text: the SVG shows it escaped, never as markup.
if grep -q '<script>' "$work/web-all.svg"; then
  echo "FAILED: a name became markup in the SVG" >&2
  failed=1
fi
[ "$failed" -eq 0 ] && echo "dot accepted every graph"
exit "$failed"
