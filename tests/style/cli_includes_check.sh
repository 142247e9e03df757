#!/usr/bin/env bash
# Fails when the command line reaches the core other than through the
# public API (docs/architecture.md, "The command line"): every C++ file of
# src/cli includes only
#  - <pstate/pstate.h>, the API;
#  - "cli/...", "report/..." (the formatter layer) and "base/..." (the
#    domain-free utilities);
#  - other <...> headers: the standard library, POSIX and CLI11.
# A file not yet migrated is listed, with the reason, in
# tests/style/cli_includes_allowlist.txt ("FILE  reason", FILE relative to
# src/cli); a listed file that no longer includes anything else fails too,
# so the list only shrinks.
#
# Usage: cli_includes_check.sh SOURCE_DIR [CLI_DIR ALLOWLIST]
# (the two optional arguments are for the self-test).
set -uo pipefail
root="$1"
dir="${2:-$root/src/cli}"
allowlist="${3:-$root/tests/style/cli_includes_allowlist.txt}"
declare -A listed=()
while IFS= read -r line; do
  [[ -z "$line" || "$line" == \#* ]] && continue
  file="${line%%[[:space:]]*}"
  reason="${line#"$file"}"
  if [[ -z "${reason//[[:space:]]/}" ]]; then
    echo "$allowlist: '$file' has no reason"
    listed["$file"]=bad
    continue
  fi
  listed["$file"]=1
done < "$allowlist"
status=0
checked=0
for path in "$dir"/*.cc "$dir"/*.h; do
  [[ -e "$path" ]] || continue
  file="${path#"$dir"/}"
  checked=$((checked + 1))
  forbidden=$(grep -nE '^[[:space:]]*#[[:space:]]*include' "$path" |
    grep -vE '#[[:space:]]*include[[:space:]]*"(cli|report|base)/[^"]+"' |
    grep -vE '#[[:space:]]*include[[:space:]]*<pstate/pstate\.h>' |
    grep -vE '#[[:space:]]*include[[:space:]]*<[^>]+>' |
    cat)
  forbidden_angle=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<pstate/' "$path" |
    grep -vE '<pstate/pstate\.h>' | cat)
  forbidden="$forbidden$forbidden_angle"
  if [[ -n "${listed[$file]:-}" ]]; then
    if [[ "${listed[$file]}" == bad ]]; then
      status=1
    elif [[ -z "$forbidden" ]]; then
      echo "$file: listed in $(basename "$allowlist") but includes only the API, cli/, report/ and base/: remove it from the list"
      status=1
    fi
    unset "listed[$file]"
    continue
  fi
  if [[ -n "$forbidden" ]]; then
    while IFS= read -r hit; do
      echo "$file:$hit: the command line reaches the core only through <pstate/pstate.h> (and report/, base/)"
    done <<< "$forbidden"
    status=1
  fi
done
for file in "${!listed[@]}"; do
  echo "$file: listed in $(basename "$allowlist") but not in $dir"
  status=1
done
if [[ $status -ne 0 ]]; then
  echo "FAILED: src/cli includes a module's header (or the allowlist is stale); $checked files checked"
else
  echo "OK: $checked files checked"
fi
exit $status
