#!/usr/bin/env bash
# Builds the release packages from this checkout, into dist/:
#   pstate_<version>_amd64.deb      the binary (/usr/bin), man page, bash,
#                                   zsh and fish completions, docs and
#                                   copyright (/usr/share/doc/pstate)
#   pstate-dev_<version>_amd64.deb  libpstate.a, <pstate/pstate.h>, the
#                                   CMake package and pstate.pc
#   pstate-<version>-linux-<arch>.tar.gz
#                                   a relocatable tree (bin/, lib/pstate/,
#                                   share/) whose binary needs only glibc
#                                   2.36 or newer
# from one Release build (build/release, -DPSTATE_PORTABLE=ON: libstdc++,
# OpenSSL's libcrypto, utf8proc and libarchive linked in; the shared
# libraries left, Oniguruma and Nettle, are bundled in the tarball's
# lib/pstate/; cmake/copyright lists the licences of all of them). The
# version is project(VERSION) in CMakeLists.txt. PSTATE_DOCS_URI, when set,
# is the published docs address compiled in (default: the installed docs).
# tests/package/package_test.sh checks the result.
#
# Usage: scripts/package.sh [BUILD_DIR [DIST_DIR]]
set -euo pipefail
source "$(dirname "$0")/lib.sh"

build="${1:-$PSTATE_ROOT/build/release}"
dist="${2:-$PSTATE_ROOT/dist}"

install_missing_packages
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
log "configuring $build"
cmake -S "$PSTATE_ROOT" -B "$build" "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DPSTATE_PORTABLE=ON -DPSTATE_BUILD_TESTS=OFF -DPSTATE_BUILD_BENCH=OFF \
  -DPSTATE_WERROR=ON -DCMAKE_INSTALL_PREFIX=/usr \
  "-DPSTATE_DOCS_URI=${PSTATE_DOCS_URI:-}" >/dev/null
# Only what the packages hold: the binary and the library.
log "building $build"
cmake --build "$build" -j "$(nproc)" --target pstate pstate_library

version="$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")"
arch="$(dpkg --print-architecture)"
uname_arch="$(uname -m)"
if [ -z "$version" ]; then
  log "error: no project version in $build/CMakeCache.txt"
  exit 1
fi
stage="$build/stage"
rm -rf "$stage"
mkdir -p "$stage" "$dist"

# The libraries of glibc: every Linux system has them, so they are neither
# bundled nor listed (their package, libc6, is the one dependency kept).
is_glibc() {
  case "$1" in
    linux-vdso.so.*|ld-linux*.so.*|libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*) return 0 ;;
  esac
  return 1
}

# The shared libraries a file needs beyond glibc, as "soname path" lines.
shared_libraries() {
  ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | while read -r name path; do
    is_glibc "$name" || printf '%s %s\n' "$name" "$path"
  done
}

# The newest glibc symbol version the binary asks for: the .deb depends on
# at least that libc6, and the tarball runs on any glibc from it on.
glibc_needed() {
  objdump -T "$1" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1
}

# deb_control DIR PACKAGE DEPENDS SECTION SUMMARY DESCRIPTION
deb_control() {
  local dir="$1" package="$2" depends="$3" section="$4" summary="$5" description="$6"
  mkdir -p "$dir/DEBIAN"
  {
    printf 'Package: %s\n' "$package"
    printf 'Version: %s\n' "$version"
    printf 'Architecture: %s\n' "$arch"
    printf 'Maintainer: pstate maintainers <maintainers@users.noreply.a-seed-4ebc1081.example>\n'
    printf 'Installed-Size: %s\n' "$(du -sk --exclude=DEBIAN "$dir" | cut -f1)"
    printf 'Depends: %s\n' "$depends"
    printf 'Section: %s\nPriority: optional\n' "$section"
    printf 'Description: %s\n' "$summary"
    printf '%s\n' "$description" | fold -s -w 72 | sed 's/^/ /; s/ *$//'
  } > "$dir/DEBIAN/control"
}

binary="$build/src/pstate"
glibc="$(glibc_needed "$binary")"
log "pstate $version: needs glibc $glibc and: $(shared_libraries "$binary" | cut -d' ' -f1 | tr '\n' ' ')"

# --- pstate_<version>_<arch>.deb -------------------------------------------
root="$stage/pstate"
DESTDIR="$root" cmake --install "$build" --component runtime >/dev/null
strip --strip-unneeded "$root/usr/bin/pstate"
gzip -9n "$root/usr/share/man/man1/pstate.1"
depends="libc6 (>= $glibc)"
while read -r name path; do
  package="$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -n 1 | cut -d: -f1)"
  if [ -z "$package" ]; then
    log "error: no Debian package owns $path ($name)"
    exit 1
  fi
  depends="$depends, $package"
done < <(shared_libraries "$binary")
deb_control "$root" pstate "$depends" utils \
  "read, check and rewrite Pulumi state files" \
  "pstate verifies Pulumi state files (checkpoints and exports) the way Pulumi reads them, finds secrets stored in the clear, compares, inspects, edits, redacts and normalizes them offline. Reports: text, JSON, SARIF, GitHub annotations, JUnit XML, GitLab Code Quality."
deb="$dist/pstate_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
log "wrote $deb"

# --- pstate-dev_<version>_<arch>.deb ---------------------------------------
dev="$stage/pstate-dev"
DESTDIR="$dev" cmake --install "$build" --component dev >/dev/null
mkdir -p "$dev/usr/share/doc/pstate-dev"
cp "$PSTATE_ROOT/cmake/copyright" "$PSTATE_ROOT/docs/api.md" "$dev/usr/share/doc/pstate-dev/"
# What libpstate.a needs to link (pstate.pc's Requires, pstateConfig.cmake's
# find_dependency), and pkg-config, through which both find Oniguruma and
# utf8proc.
deb_control "$dev" pstate-dev "libssl-dev, libarchive-dev, libonig-dev, libutf8proc-dev, pkg-config" libdevel \
  "pstate library: read, check and rewrite Pulumi state files (static)" \
  "libpstate.a and its one header, <pstate/pstate.h>, with a CMake package (find_package(pstate CONFIG), pstate::pstate) and a pkg-config file (pstate). See /usr/share/doc/pstate-dev/api.md."
dev_deb="$dist/pstate-dev_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$dev" "$dev_deb" >/dev/null
log "wrote $dev_deb"

# --- pstate-<version>-linux-<arch>.tar.gz ----------------------------------
name="pstate-${version}-linux-${uname_arch}"
tree="$stage/$name"
cmake --install "$build" --component runtime --prefix "$tree" >/dev/null
strip --strip-unneeded "$tree/bin/pstate"
mkdir -p "$tree/lib/pstate"
# The binary's RUNPATH is $ORIGIN/../lib/pstate: its shared libraries
# beyond glibc go there (each needs only glibc itself, checked below).
while read -r name_so path; do
  cp -L "$path" "$tree/lib/pstate/$name_so"
  chmod 0644 "$tree/lib/pstate/$name_so"
  if [ -n "$(shared_libraries "$path")" ]; then
    log "error: $name_so needs more than glibc: $(shared_libraries "$path" | tr '\n' ' ')"
    exit 1
  fi
done < <(shared_libraries "$binary")
cp "$PSTATE_ROOT/cmake/copyright" "$tree/COPYRIGHT"
cat > "$tree/README" <<TXT
pstate $version for Linux ($uname_arch), glibc $glibc or newer.

Run bin/pstate from anywhere (or link it into a directory on PATH); it
finds its libraries in lib/pstate/. The man page is share/man/man1/pstate.1,
shell completions are in share/bash-completion, share/zsh and share/fish,
and the documentation is share/doc/pstate/ (also: pstate explain CODE,
pstate man). Licences: COPYRIGHT.
TXT
tarball="$dist/$name.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner -C "$stage" -czf "$tarball" "$name"
log "wrote $tarball"
