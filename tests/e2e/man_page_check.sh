#!/usr/bin/env bash
# Fails when the checked-in man page, docs/pstate.1, is not what `pstate man`
# prints: the page is generated from the command tree (every command's flags
# and examples) and from docs/diagnostics.md, so a new flag, command or code
# makes it stale. Run by ctest (pstate_man_page_check).
#
# Usage: man_page_check.sh PSTATE SOURCE_DIR DOCS_URI DEFAULT_DOCS_URI
# The page is recorded with the default docs address (the installed docs
# under the default prefix, /usr/local); a build configured with another
# one skips (77) rather than fail on the URI it prints.
set -uo pipefail
pstate="$1"
root="$2"
docs_uri="$3"
default_uri="$4"
page="$root/docs/pstate.1"

if [ "$docs_uri" != "$default_uri" ]; then
  echo "SKIPPED: this build's docs address ($docs_uri) is not the" \
       "default the checked-in page is recorded with ($default_uri)"
  exit 77
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! "$pstate" man > "$work/pstate.1"; then
  echo "FAILED: pstate man exited with an error"
  exit 1
fi
if [ ! -f "$page" ]; then
  echo "FAILED: docs/pstate.1 is missing; create it with:"
  echo "  $pstate man > $page"
  exit 1
fi
if ! diff -u "$page" "$work/pstate.1" > "$work/diff"; then
  head -n 60 "$work/diff"
  echo "FAILED: docs/pstate.1 is stale (the commands, flags or finding codes" \
       "changed); regenerate it from a build with the default prefix and PSTATE_DOCS_URI:"
  echo "  $pstate man > $page"
  exit 1
fi
# The page must also be well-formed roff: man's own checker, when present.
if command -v groff >/dev/null 2>&1; then
  if ! groff -man -Tutf8 -ww -z "$page" 2> "$work/groff.log" ||
     [ -s "$work/groff.log" ]; then
    cat "$work/groff.log"
    echo "FAILED: groff reports problems in docs/pstate.1"
    exit 1
  fi
fi
echo "PASSED: docs/pstate.1 is what pstate man prints"
