#!/usr/bin/env bash
# Installs what is missing, builds everything with warnings as errors and
# AddressSanitizer + UndefinedBehaviorSanitizer, and runs the whole test
# suite (unit, golden and end-to-end); under CI=true also builds the
# packages and runs their install test. Usage: scripts/test.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"

install_missing_packages
install_sarif_multitool
install_node_modules
configure_and_build "$PSTATE_ROOT/build/test" -DCMAKE_BUILD_TYPE=Debug \
  -DPSTATE_WERROR=ON -DPSTATE_SANITIZE=ON -DPSTATE_BUILD_TESTS=ON

log "running the test suite"
cd "$PSTATE_ROOT/build/test"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --output-on-failure -j "$(nproc)" --timeout 600

# The packages (scripts/package.sh: one Release build of only the binary
# and the library, no tests, reused for the .deb, the -dev .deb and the
# tarball) and their install test (tests/package/package_test.sh). CI
# (CI=true, what .ci/run sets) always runs them; a developer opts in with
# PSTATE_PACKAGE_TEST=1 (the Release build takes minutes: docs/ci.md,
# "Time budget"). PSTATE_PACKAGE_TEST=0 skips them even under CI=true.
if [ "${PSTATE_PACKAGE_TEST:-}" = "1" ] ||
   { [ "${CI:-}" = "true" ] && [ "${PSTATE_PACKAGE_TEST:-}" != "0" ]; }; then
  log "building the packages (scripts/package.sh) and testing them"
  start=$SECONDS
  "$PSTATE_ROOT/scripts/package.sh" "$PSTATE_ROOT/build/release" "$PSTATE_ROOT/dist"
  built=$SECONDS
  "$PSTATE_ROOT/tests/package/package_test.sh" "$PSTATE_ROOT/dist"
  log "packages built in $((built - start)) s, tested in $((SECONDS - built)) s"
fi
