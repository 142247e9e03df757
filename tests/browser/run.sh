#!/usr/bin/env bash
# The browser tests (tests/browser/browser_test.mjs): HTML reports opened in
# headless Chromium through puppeteer-core, the Mermaid output read by
# Mermaid's own parser in the same browser, and the reports searched for
# every secret of their inputs. Screenshots go to ARTIFACTS. Skipped (77)
# only when Chromium (or node and ./node_modules, scripts/npm.sh) is
# missing and CI is not set; under CI=true a missing tool fails.
# Usage: run.sh PSTATE SOURCE_DIR ARTIFACTS
set -euo pipefail
pstate="$1"
root="$2"
artifacts="$3"
chromium="${PSTATE_CHROMIUM:-}"
if [ -z "$chromium" ]; then
  for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then
      chromium="$(command -v "$c")"
      break
    fi
  done
fi
missing=""
[ -n "$chromium" ] || missing="chromium"
command -v node >/dev/null 2>&1 || missing="$missing node"
[ -d "$root/node_modules/puppeteer-core" ] || missing="$missing node_modules (scripts/npm.sh)"
if [ -n "$missing" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "browser tests need:$missing (required under CI)" >&2
    exit 1
  fi
  echo "browser tests skipped: missing$missing" >&2
  exit 77
fi
mkdir -p "$artifacts"
export NODE_PATH="$root/node_modules"
exec node "$root/tests/browser/browser_test.mjs" "$pstate" "$root" "$artifacts" "$chromium"
