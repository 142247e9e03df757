# Shared by the scripts in this directory: dependency installation and the
# CMake build. Source it; do not run it.

# Debian 12 packages pstate needs to build and test.
PSTATE_PACKAGES=(
  cmake g++ make pkg-config
  libsimdjson-dev rapidjson-dev libarchive-dev libssl-dev libcli11-dev libgtest-dev
  libonig-dev libutf8proc-dev
  gzip zstd python3
  clang-format
  # The static archives of the portable release binary (scripts/package.sh).
  libzstd-dev liblz4-dev
  # Validation of the JUnit and GitLab Code Quality reports, of action.yml
  # and .pre-commit-hooks.yaml (tests/ci_formats/), and the package test.
  libxml2-utils python3-jsonschema python3-yaml man-db
  # `pstate graph` output read by Graphviz, and the HTML report and the
  # Mermaid output tested in headless Chromium (tests/browser/), driven by
  # node (scripts/npm.sh installs the JavaScript).
  graphviz chromium nodejs npm
)

PSTATE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

log() { printf '==> %s\n' "$*" >&2; }

# Installs whichever of PSTATE_PACKAGES is missing. Works as root without a
# terminal (CI) and through sudo for a user.
install_missing_packages() {
  local missing=()
  local pkg
  for pkg in "${PSTATE_PACKAGES[@]}"; do
    # A node that ships its own npm (e.g. NodeSource's nodejs, which
    # conflicts with Debian's npm package) already provides both.
    if [[ ("$pkg" == npm || "$pkg" == nodejs) ]] &&
       command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
      continue
    fi
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

# The SARIF Multitool (npm @microsoft/sarif-multitool), which GitHub's SARIF
# documentation points to: the test suite validates pstate's SARIF with it
# (tests/e2e/sarif_validation.sh). Installed into the project, never
# globally.
PSTATE_SARIF_MULTITOOL_VERSION=5.7.0
PSTATE_TOOLS_DIR="$PSTATE_ROOT/build/tools"

# Prints the Multitool's path, or nothing when it is not installed.
sarif_multitool_path() {
  local bin
  for bin in "$PSTATE_TOOLS_DIR"/node_modules/@microsoft/sarif-multitool-*/Sarif.Multitool; do
    if [ -f "$bin" ]; then
      printf '%s\n' "$bin"
      return 0
    fi
  done
  return 0
}

# Installs the Multitool when it is missing. npm comes from Debian when CI
# is set (CI must run the validation); elsewhere a machine without npm only
# skips that one test.
install_sarif_multitool() {
  if [ -n "$(sarif_multitool_path)" ]; then
    log "SARIF Multitool is installed"
    return 0
  fi
  if ! command -v npm >/dev/null 2>&1; then
    if [ "${CI:-}" != "true" ]; then
      log "npm not found: the SARIF validation test will be skipped"
      return 0
    fi
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends nodejs npm </dev/null
  fi
  log "installing @microsoft/sarif-multitool@$PSTATE_SARIF_MULTITOOL_VERSION into $PSTATE_TOOLS_DIR"
  mkdir -p "$PSTATE_TOOLS_DIR"
  npm install --prefix "$PSTATE_TOOLS_DIR" --no-audit --no-fund --no-save \
    "@microsoft/sarif-multitool@$PSTATE_SARIF_MULTITOOL_VERSION" >&2
  local bin
  bin="$(sarif_multitool_path)"
  if [ -z "$bin" ]; then
    log "error: the SARIF Multitool package installed no binary for this platform"
    return 1
  fi
  # Its postinstall (chmod) may not run under npm's install-script policy.
  chmod u+x "$bin"
}

# The project's JavaScript (package.json, pinned by package-lock.json) into
# $PSTATE_ROOT/node_modules, never globally: the HTML report's embedded
# libraries and the browser tests' driver. Skipped when node_modules
# already matches the lock file.
install_node_modules() {
  local stamp="$PSTATE_ROOT/node_modules/.package-lock.json"
  if [ -f "$stamp" ] && [ -f "$PSTATE_ROOT/node_modules/@dagrejs/dagre/dist/dagre.min.js" ] &&
    [ "$PSTATE_ROOT/package-lock.json" -ot "$stamp" ]; then
    log "node_modules is installed"
    return 0
  fi
  if ! command -v npm >/dev/null 2>&1; then
    log "error: npm is needed to install the report's JavaScript (apt-get install npm)"
    return 1
  fi
  log "installing the JavaScript of package-lock.json into $PSTATE_ROOT/node_modules"
  (cd "$PSTATE_ROOT" && npm ci --no-audit --no-fund >&2)
}
