# Shared by the scripts in this directory: dependency installation and the
# CMake build. Source it; do not run it.

# Debian 12 packages pstate needs to build and test.
PSTATE_PACKAGES=(
  cmake g++ make pkg-config
  libsimdjson-dev rapidjson-dev libarchive-dev libssl-dev libcli11-dev libgtest-dev
  gzip zstd python3
)

PSTATE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

log() { printf '==> %s\n' "$*" >&2; }

# Installs whichever of PSTATE_PACKAGES is missing. Works as root without a
# terminal (CI) and through sudo for a user.
install_missing_packages() {
  local missing=()
  local pkg
  for pkg in "${PSTATE_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    log "all build dependencies are installed"
    return 0
  fi
  log "installing: ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      log "error: need root (or sudo) to install: ${missing[*]}"
      return 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
}

# configure_and_build BUILD_DIR [cmake args...]
configure_and_build() {
  local dir="$1"
  shift
  log "configuring $dir"
  # ccache, when the machine has it, makes rebuilds of unchanged files free
  # (CI runs on a fresh clone of the same tree); it is never required.
  local launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S "$PSTATE_ROOT" -B "$dir" "${launcher[@]}" "$@" >/dev/null
  log "building $dir"
  cmake --build "$dir" -j "$(nproc)"
}
