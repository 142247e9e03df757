#!/usr/bin/env bash
# Validates pstate's SARIF (verify, scan, verify --assets) with the SARIF
# Multitool and the rule kinds GitHub code scanning applies (Sarif, Gh,
# Ghas); fails on any error. Run by ctest (pstate_sarif_validation).
#
# Usage: sarif_validation.sh PSTATE FIXTURES_DIR
# The Multitool comes from scripts/lib.sh (install_sarif_multitool). When it
# is missing this script installs it; without npm it skips (exit 77), except
# under CI=true, where the validation must run.
set -uo pipefail
pstate="$1"
fixtures="$2"
source "$(dirname "$0")/../../scripts/lib.sh"

tool="$(sarif_multitool_path)"
if [ -z "$tool" ]; then
  if ! command -v npm >/dev/null 2>&1 && [ "${CI:-}" != "true" ]; then
    echo "SKIPPED: npm is not installed, so the SARIF Multitool cannot be;" \
         "install npm or run scripts/test.sh (CI=true makes this test mandatory)"
    exit 77
  fi
  install_sarif_multitool || exit 1
  tool="$(sarif_multitool_path)"
  if [ -z "$tool" ]; then
    echo "FAILED: the SARIF Multitool is not installed (scripts/lib.sh install_sarif_multitool)"
    exit 1
  fi
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Findings of every kind: invalid states (errors, warnings, notes, fatal
# inputs, a missing file), non-ASCII columns, leaks, asset findings, an
# absolute path (file:// URI) and standard input.
"$pstate" verify -q --format sarif "$fixtures"/states/invalid/*.json \
  "$fixtures/states/invalid/does-not-exist.json" > "$work/verify.sarif"
"$pstate" verify -q --format sarif - < "$fixtures/scan/leaks.json" > "$work/verify-stdin.sarif"
"$pstate" scan -q --format sarif "$(cd "$fixtures/scan" && pwd)/leaks.json" > "$work/scan.sarif"
"$pstate" verify -q --format sarif --assets --root "$fixtures/audit/files" \
  "$fixtures/audit/statuses.json" > "$work/assets.sarif"
"$pstate" verify -q --format sarif "$fixtures/states/valid/minimal.json" > "$work/empty.sarif"
for f in "$work"/*.sarif; do
  if [ ! -s "$f" ]; then
    echo "FAILED: pstate wrote no SARIF to $(basename "$f")"
    exit 1
  fi
done

logs="$(ls "$work"/*.sarif | wc -l)"
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1
"$tool" validate "$work"/*.sarif --rule-kind "Sarif;Gh;Ghas" \
  -o "$work/validation.sarif" > "$work/validation.log" 2>&1
status=$?
cat "$work/validation.log"
errors="$(grep -c ': error ' "$work/validation.log")"
if [ "$status" -ne 0 ] || [ "$errors" -ne 0 ]; then
  echo "FAILED: the SARIF Multitool reports $errors error(s) (exit $status)"
  exit 1
fi
echo "PASSED: $logs SARIF logs, 0 errors"
