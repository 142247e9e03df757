#!/usr/bin/env bash
# The entry of the hooks in .pre-commit-hooks.yaml (pre-commit runs it from
# the repository being committed, with the hook's args, then the staged
# files whose names end in .json, .json.gz or .json.zst).
#
# Usage: pre-commit-hook.sh verify|scan [--option=value...] FILE...
# Options must be written with "=" (--baseline=FILE): every argument not
# starting with "-" is a file. Of the files, it checks the Pulumi states:
# those named as people name checkpoints and exports (.pulumi/stacks/**,
# *.checkpoint.json, stack.json, *-stack.json; optionally .gz/.zst), and any
# other plain .json whose first 64 KiB have a top-level "deployment" or
# "checkpoint" member (an export or checkpoint under another name). A
# committed pstate-baseline.json is used as --baseline unless one is given;
# .pstateignore files apply as pstate always applies them. pstate must be on
# PATH.
set -uo pipefail
command="$1"
shift
options=()
files=()
for arg in "$@"; do
  case "$arg" in
    -*) options+=("$arg") ;;
    *) files+=("$arg") ;;
  esac
done
has_baseline=false
for option in "${options[@]}"; do
  case "$option" in --baseline|--baseline=*) has_baseline=true ;; esac
done
if ! $has_baseline && [ -f pstate-baseline.json ]; then
  options+=(--baseline=pstate-baseline.json)
fi
states=()
for file in "${files[@]}"; do
  case "$file" in
    .pulumi/stacks/*|*/.pulumi/stacks/*) states+=("$file") ;;
    *.checkpoint.json|*.checkpoint.json.gz|*.checkpoint.json.zst) states+=("$file") ;;
    stack.json|stack.json.gz|stack.json.zst|*/stack.json|*/stack.json.gz|*/stack.json.zst) states+=("$file") ;;
    *-stack.json|*-stack.json.gz|*-stack.json.zst) states+=("$file") ;;
    *.json)
      if head -c 65536 -- "$file" | grep -Eq '"(deployment|checkpoint)"[[:space:]]*:'; then
        states+=("$file")
      fi ;;
  esac
done
if [ ${#states[@]} -eq 0 ]; then
  exit 0
fi
exec pstate "$command" -q "${options[@]}" -- "${states[@]}"
