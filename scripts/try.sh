#!/usr/bin/env bash
# Installs what is missing, builds pstate (Release) and verifies a bundled
# example state. Usage: scripts/try.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"

install_missing_packages
configure_and_build "$PSTATE_ROOT/build/release" -DCMAKE_BUILD_TYPE=Release -DPSTATE_BUILD_TESTS=OFF -DPSTATE_BUILD_BENCH=OFF

example="$PSTATE_ROOT/fixtures/states/valid/example.json"
log "pstate verify $example"
"$PSTATE_ROOT/build/release/src/pstate" verify "$example"
log "the binary is $PSTATE_ROOT/build/release/src/pstate"
