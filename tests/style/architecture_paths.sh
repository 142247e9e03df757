#!/usr/bin/env bash
# Fails when docs/architecture.md names a file or folder of the repository
# that does not exist, so the one-page description of the data flow cannot
# drift from what is built. Run by ctest (pstate_architecture_paths).
#
# A "path" is a backquoted token with a slash that starts with one of the
# repository's top-level folders (src/ include/ tests/ docs/ bench/ scripts/
# fixtures/), or a module-relative one (`state/property.h`) that names a
# file with a source extension. Module-relative paths resolve against src/;
# a trailing `/` names a folder.
#
# Usage: architecture_paths.sh SOURCE_DIR [DOC]
#   DOC defaults to SOURCE_DIR/docs/architecture.md (ctest also runs it on a
#   document with a dangling path, which must fail).
set -uo pipefail
root="$1"
doc="${2:-$root/docs/architecture.md}"
[ -f "$doc" ] || { echo "FAILED: $doc is missing"; exit 1; }

missing=0
checked=0
# Backquoted tokens, one per line; `{a,b}.h` brace forms expand to each file.
while IFS= read -r token; do
  case "$token" in
    *' '*|*'*'*|*'<'*|*'>'*) continue ;;  # commands, globs and placeholders
  esac
  case "$token" in
    src/*|include/*|tests/*|docs/*|bench/*|scripts/*|fixtures/*|.ci/*)
      candidates=("$token") ;;
    */*.h|*/*.cc|*/*.md|*/*.sh|*/*.py)
      candidates=("src/$token") ;;
    *) continue ;;
  esac
  # Strip a :line suffix and expand one level of {a,b} braces.
  path="${candidates[0]%%:*}"
  if [[ "$path" =~ ^(.*)\{([^}]*)\}(.*)$ ]]; then
    IFS=',' read -r -a alts <<<"${BASH_REMATCH[2]}"
    expanded=()
    for alt in "${alts[@]}"; do
      expanded+=("${BASH_REMATCH[1]}${alt}${BASH_REMATCH[3]}")
    done
  else
    expanded=("$path")
  fi
  for p in "${expanded[@]}"; do
    checked=$((checked + 1))
    found=0
    [ -e "$root/$p" ] && found=1
    if [ "$found" -eq 0 ]; then
      echo "$(basename "$doc") names '$token', but $p does not exist"
      missing=$((missing + 1))
    fi
  done
done < <(grep -o '`[^`]*`' "$doc" | tr -d '`' | grep '/' | sort -u)

if [ "$checked" -eq 0 ]; then
  echo "FAILED: no path found in $doc (the test reads nothing)"
  exit 1
fi
if [ "$missing" -ne 0 ]; then
  echo "FAILED: $missing of $checked paths named in $doc do not exist"
  exit 1
fi
echo "OK: $checked paths named in $doc exist"
