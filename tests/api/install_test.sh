#!/usr/bin/env bash
# The installed library works on its own: installs the build into a
# temporary prefix, checks that <pstate/pstate.h> is the one header there,
# builds tests/api/consumer against that prefix only (with CMake's
# find_package, then with a pkg-config compile line), and runs both builds
# on fixture states. Run by ctest (pstate_api_install_test); with
# PSTATE_INSTALLED_PREFIX set, checks that installed tree instead of
# installing BUILD_DIR (tests/package/package_test.sh: the -dev package).
#
# Usage: install_test.sh BUILD_DIR SOURCE_DIR CXX [COMPILER_LAUNCHER]
set -uo pipefail
build="$1"
root="$2"
cxx="$3"
launcher="${4:-}"
fixtures="$root/fixtures/states"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="${PSTATE_INSTALLED_PREFIX:-$work/prefix}"
fail() { echo "FAILED: $*"; exit 1; }

if [ -z "${PSTATE_INSTALLED_PREFIX:-}" ]; then
  cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
    { cat "$work/install.log"; fail "cmake --install"; }
fi

headers="$(cd "$prefix" && find include -type f | sort)"
[ "$headers" = "include/pstate/pstate.h" ] ||
  fail "installed headers are not exactly include/pstate/pstate.h: $headers"
lib="$(find "$prefix" -name libpstate.a)"
[ -n "$lib" ] || fail "libpstate.a is not installed"
[ -n "$(find "$prefix" -name pstateConfigVersion.cmake)" ] ||
  fail "pstateConfigVersion.cmake is not installed"
pc="$(find "$prefix" -name pstate.pc)"
[ -n "$pc" ] || fail "pstate.pc is not installed"

# The expected output on a valid and an invalid state.
check() {  # check BINARY HOW
  local out
  out="$("$1" "$fixtures/valid/minimal.json")" ||
    fail "$2: consumer minimal.json exited $?"
  local want
  want="$(printf 'version %s\nfindings 0\nresources 1\nenvelope %s' \
    "$version" "$envelope")"
  [ "$out" = "$want" ] || fail "$2: minimal.json printed:
$out
expected:
$want"
  out="$("$1" "$fixtures/invalid/036-dependency-missing.json")"
  local rc=$?
  [ "$rc" = 1 ] || fail "$2: consumer 036-dependency-missing.json exited $rc"
  echo "$out" | grep -qx 'dependency-missing 7:120 /deployment/resources/1/dependencies/0' ||
    fail "$2: 036-dependency-missing.json printed:
$out"
  echo "ok: $2"
}
version="$(sed -n 's/^Version: //p' "$pc")"
envelope=export

launch=()
[ -n "$launcher" ] && launch=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
cmake -S "$root/tests/api/consumer" -B "$work/cmake" \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER="$cxx" "${launch[@]}" \
  -DCMAKE_PREFIX_PATH="$prefix" > "$work/cmake.log" 2>&1 ||
  { cat "$work/cmake.log"; fail "configuring the consumer (find_package)"; }
cmake --build "$work/cmake" > "$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "building the consumer (find_package)"; }
check "$work/cmake/consumer" "find_package(pstate CONFIG)"

flags="$(PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --cflags --libs pstate)" ||
  fail "pkg-config --cflags --libs pstate"
# shellcheck disable=SC2086  # the flags are words
$cxx -std=c++17 "$root/tests/api/consumer/main.cc" -o "$work/consumer-pc" $flags \
  > "$work/pc.log" 2>&1 || { cat "$work/pc.log"; fail "building the consumer (pkg-config): $cxx ... $flags"; }
check "$work/consumer-pc" "pkg-config pstate"
