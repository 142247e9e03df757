#!/usr/bin/env bash
# Installs what is missing, builds everything with warnings as errors and
# AddressSanitizer + UndefinedBehaviorSanitizer, and runs the whole test
# suite (unit, golden and end-to-end). Usage: scripts/test.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"

install_missing_packages
install_sarif_multitool
configure_and_build "$PSTATE_ROOT/build/test" -DCMAKE_BUILD_TYPE=Debug \
  -DPSTATE_WERROR=ON -DPSTATE_SANITIZE=ON -DPSTATE_BUILD_TESTS=ON

log "running the test suite"
cd "$PSTATE_ROOT/build/test"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --output-on-failure -j "$(nproc)" --timeout 600

# The packages need a Release build (build/release, about 8 minutes on 2
# cores), so they are built and tested only with PSTATE_PACKAGE_TEST=1, not
# by every developer's ctest (nor yet by CI: see docs/ci.md).
if [ "${PSTATE_PACKAGE_TEST:-}" = "1" ]; then
  log "building the packages (scripts/package.sh) and testing them"
  "$PSTATE_ROOT/scripts/package.sh" "$PSTATE_ROOT/build/release" "$PSTATE_ROOT/dist"
  "$PSTATE_ROOT/tests/package/package_test.sh" "$PSTATE_ROOT/dist"
fi
