#!/usr/bin/env bash
# Fails when a C++ file of pstate differs from what clang-format makes of it
# with the repository's .clang-format. Run by ctest (pstate_format_check);
# fix a failure with `clang-format -i FILE`. Without clang-format the test is
# skipped (exit 77), except under CI=true, where it must run (scripts/lib.sh
# installs Debian's clang-format).
#
# Usage: format_check.sh SOURCE_DIR
set -uo pipefail
root="$1"
tool=""
for candidate in clang-format clang-format-14; do
  if command -v "$candidate" >/dev/null 2>&1; then
    tool="$candidate"
    break
  fi
done
if [ -z "$tool" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "FAILED: clang-format is not installed (scripts/lib.sh installs it)"
    exit 1
  fi
  echo "SKIPPED: clang-format is not installed"
  exit 77
fi

cd "$root" || exit 1
# Every C++ source and header the project owns (third-party code and build
# directories excluded).
mapfile -d '' files < <(find src include tests bench \
    \( -name '*.cc' -o -name '*.h' \) -type f -print0 | sort -z)
if [ ${#files[@]} -eq 0 ]; then
  echo "FAILED: no C++ files found under $root"
  exit 1
fi
bad=()
for f in "${files[@]}"; do
  if ! "$tool" --dry-run --Werror "$f" >/dev/null 2>&1; then
    bad+=("$f")
  fi
done
if [ ${#bad[@]} -ne 0 ]; then
  echo "FAILED: ${#bad[@]} of ${#files[@]} files are not clang-formatted:"
  printf '  %s\n' "${bad[@]}"
  echo "fix: clang-format -i FILE (the style is .clang-format)"
  exit 1
fi
echo "ok: ${#files[@]} files match .clang-format"
