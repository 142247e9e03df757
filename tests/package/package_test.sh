#!/usr/bin/env bash
# Checks what scripts/package.sh made: the .deb installs into a scratch root
# (dpkg -x; and with dpkg -i into the machine, then dpkg -r, when run as
# root under CI=true on a machine without pstate installed), runs
# `pstate --version`, is found by `man -w`, and its completion scripts
# load; the -dev package holds the library, header, CMake package and
# pkg-config file; the tarball's binary runs from another directory and
# `ldd` shows nothing outside glibc and the tarball.
#
# It needs a Release build, so it is not a ctest: scripts/test.sh runs it
# after scripts/package.sh under CI=true (or PSTATE_PACKAGE_TEST=1).
# Usage: tests/package/package_test.sh DIST_DIR
set -uo pipefail
dist="$(cd "$1" && pwd)"
root_dir="$(cd "$(dirname "$0")/../.." && pwd)"
fixtures="$root_dir/fixtures"
version="$(sed -n 's/^project(pstate VERSION \([0-9.]*\).*/\1/p' "$root_dir/CMakeLists.txt")"
arch="$(dpkg --print-architecture)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

deb="$dist/pstate_${version}_${arch}.deb"
dev_deb="$dist/pstate-dev_${version}_${arch}.deb"
tarball="$(ls "$dist"/pstate-"$version"-linux-*.tar.gz 2>/dev/null | head -n 1)"
for f in "$deb" "$dev_deb" "$tarball"; do
  [ -n "$f" ] && [ -f "$f" ] || { fail "missing package ${f:-tarball} in $dist"; exit 1; }
done

# --- the .deb in a scratch root ----------------------------------------------
scratch="$work/root"
dpkg -x "$deb" "$scratch"
[ "$(dpkg-deb -f "$deb" Package)" = pstate ] && [ "$(dpkg-deb -f "$deb" Version)" = "$version" ] \
  && pass "control: pstate $version" || fail "control fields: $(dpkg-deb -f "$deb" Package Version)"
out="$("$scratch/usr/bin/pstate" --version 2>&1)"
[[ "$out" == "pstate $version "* ]] && pass "pstate --version: ${out%%$'\n'*}" || fail "pstate --version: $out"
page="$(MANPATH="$scratch/usr/share/man" man -w pstate 2>&1)"
[ "$page" = "$scratch/usr/share/man/man1/pstate.1.gz" ] && pass "man -w pstate" || fail "man -w pstate: $page"
zcat "$scratch/usr/share/man/man1/pstate.1.gz" | grep -q "file:///usr/share/doc/pstate/cli.md\|https://" \
  && pass "man page links the installed docs" || fail "the man page does not name /usr/share/doc/pstate"
for doc in copyright diagnostics.md cli.md ci.md README.md; do
  [ -f "$scratch/usr/share/doc/pstate/$doc" ] || fail "no /usr/share/doc/pstate/$doc"
done
# The docs address the binary prints exists in the package.
more="$("$scratch/usr/bin/pstate" explain dependency-order | sed -n 's/^More: //p')"
target="${more#file://}"
target="${target%%#*}"
[ -f "$scratch$target" ] && pass "explain links $more" || fail "explain links $more, not in the package"
if bash -c "source '$scratch/usr/share/bash-completion/completions/pstate' && complete -p pstate" >/dev/null 2>&1; then
  pass "bash completion loads"
else
  fail "bash completion does not load"
fi
if command -v zsh >/dev/null 2>&1; then
  zsh -n "$scratch/usr/share/zsh/site-functions/_pstate" && pass "zsh completion parses" || fail "zsh completion"
else
  [ -s "$scratch/usr/share/zsh/site-functions/_pstate" ] && pass "zsh completion present (no zsh to load it)" || fail "no zsh completion"
fi
if command -v fish >/dev/null 2>&1; then
  fish -n "$scratch/usr/share/fish/vendor_completions.d/pstate.fish" && pass "fish completion parses" || fail "fish completion"
else
  [ -s "$scratch/usr/share/fish/vendor_completions.d/pstate.fish" ] && pass "fish completion present (no fish to load it)" || fail "no fish completion"
fi
"$scratch/usr/bin/pstate" verify -q "$fixtures/states/valid/minimal.json" >/dev/null \
  && pass "packaged pstate verifies a state" || fail "packaged pstate verify"

# --- dpkg -i into the machine, then dpkg -r -------------------------------------
if [ "$(id -u)" -eq 0 ] && [ "${CI:-}" = "true" ] && ! dpkg -s pstate >/dev/null 2>&1; then
  if dpkg -i "$deb" >"$work/dpkg.log" 2>&1; then
    [[ "$(/usr/bin/pstate --version)" == "pstate $version "* ]] && pass "dpkg -i: pstate --version" || fail "installed pstate --version"
    [ "$(man -w pstate 2>/dev/null)" = /usr/share/man/man1/pstate.1.gz ] && pass "dpkg -i: man -w pstate" || fail "installed man -w pstate: $(man -w pstate 2>&1)"
    bash -c 'source /usr/share/bash-completion/completions/pstate && complete -p pstate' >/dev/null 2>&1 \
      && pass "dpkg -i: bash completion" || fail "installed bash completion"
    dpkg -r pstate >>"$work/dpkg.log" 2>&1 || fail "dpkg -r pstate"
    [ ! -e /usr/bin/pstate ] && pass "dpkg -r removed it" || fail "/usr/bin/pstate left after dpkg -r"
  else
    cat "$work/dpkg.log"
    fail "dpkg -i $deb"
  fi
else
  echo "note: dpkg -i skipped (needs root, CI=true and no installed pstate); dpkg -x checked"
fi

# --- the -dev package ----------------------------------------------------------
devroot="$work/dev"
dpkg -x "$dev_deb" "$devroot"
for pattern in 'usr/lib/*/libpstate.a' 'usr/include/pstate/pstate.h' \
               'usr/lib/*/cmake/pstate/pstateConfig.cmake' 'usr/lib/*/pkgconfig/pstate.pc' \
               'usr/share/doc/pstate-dev/copyright'; do
  # shellcheck disable=SC2086
  ls $devroot/$pattern >/dev/null 2>&1 && pass "dev: $pattern" || fail "dev package has no $pattern"
done
pc_dir="$(dirname "$(ls "$devroot"/usr/lib/*/pkgconfig/pstate.pc)")"
flags="$(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs pstate 2>&1)"
[[ "$flags" == *"-lpstate"* ]] && pass "pkg-config pstate: $flags" || fail "pkg-config pstate: $flags"
# A program built against the package alone (CMake find_package, then a
# pkg-config compile line) runs on fixture states: tests/api/install_test.sh
# on the unpacked tree. The package's Depends (the -dev packages of what
# libpstate.a links) must be installed, as `apt-get install` would.
missing_deps=""
for dep in $(dpkg-deb -f "$dev_deb" Depends | tr -d ' ' | tr ',' ' '); do
  dpkg -s "$dep" >/dev/null 2>&1 || missing_deps="$missing_deps $dep"
done
if [ -n "$missing_deps" ]; then
  fail "the -dev package depends on packages not installed here:$missing_deps"
elif PSTATE_INSTALLED_PREFIX="$devroot/usr" "$root_dir/tests/api/install_test.sh" \
     "" "$root_dir" "${CXX:-c++}" "$(command -v ccache || true)" >"$work/consumer.log" 2>&1; then
  sed 's/^ok: /ok: dev: a program built with /' "$work/consumer.log"
else
  cat "$work/consumer.log"
  fail "dev: a program built against the -dev package"
fi

# --- the tarball, from another directory -----------------------------------------
tar -xzf "$tarball" -C "$work"
tree="$(ls -d "$work"/pstate-"$version"-linux-*)"
cd / || exit 1
out="$(env -u LD_LIBRARY_PATH "$tree/bin/pstate" --version 2>&1)"
[[ "$out" == "pstate $version "* ]] && pass "tarball pstate --version from /" || fail "tarball pstate --version: $out"
env -u LD_LIBRARY_PATH "$tree/bin/pstate" verify -q "$fixtures/states/valid/minimal.json" >/dev/null \
  && pass "tarball pstate verifies a state" || fail "tarball pstate verify"
bad=""
while read -r line; do
  case "$line" in
    *"not found"*) bad="$bad; $line" ;;
    *"=> $tree/"*) ;;
    linux-vdso.so.*|*/ld-linux*|libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*) ;;
    *) bad="$bad; $line" ;;
  esac
done < <(env -u LD_LIBRARY_PATH ldd "$tree/bin/pstate" | sed 's/^[[:space:]]*//; s/ (0x[0-9a-f]*)$//')
[ -z "$bad" ] && pass "ldd: only glibc and the tarball's lib/pstate" || fail "ldd shows libraries outside glibc and the tarball:${bad}"
glibc="$(objdump -T "$tree/bin/pstate" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)"
[ "$(printf '%s\n2.36\n' "$glibc" | sort -V | tail -n 1)" = "2.36" ] \
  && pass "needs glibc $glibc (<= 2.36)" || fail "needs glibc $glibc, newer than Debian 12's 2.36"

if [ "$failures" -ne 0 ]; then
  echo "FAILED: $failures package check(s)"
  exit 1
fi
echo "PASSED: the packages of pstate $version"
