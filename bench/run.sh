#!/usr/bin/env bash
# bench/run.sh: measure pstate side by side with its baseline programs.
#
# Every target is a ratio to a baseline measured in the same run, in
# interleaved rounds, because the machine is shared and absolute MB/s vary by
# up to 50% from one minute to the next (shared/reference/performance-baselines.md).
#
# Usage: bench/run.sh [--sizes "100M 1G"] [--rounds N] [--pstate PATH]
#                     [--build DIR] [--out FILE] [--skip-slow] [--hash-size SIZE]
# See bench/README.md for what each number means.
set -euo pipefail

# Decimal points and sort order must not depend on the caller's locale.
export LC_ALL=C

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(git -C "${SCRIPT_DIR}" rev-parse --show-toplevel)"
readonly SCRIPT_DIR REPO
readonly SHARED="${PSTATE_SHARED:-${REPO}/../shared}"
readonly GEN_STATE="${SHARED}/bench/gen_state.py"

# A report-only command whose single run takes longer than this is measured
# once, and skipped on bigger sizes when its predicted time exceeds it.
readonly SLOW_LIMIT_S=300
# Parallel build jobs: the machine has 2 cores shared with other people.
readonly BUILD_JOBS="${BENCH_JOBS:-2}"

SIZES="100M 1G"
ROUNDS=3
PSTATE=""
BUILD_DIR=""
OUT_FILE=""
SKIP_SLOW=0
HASH_SIZE="1G"

TMP=""
SIMDJSON_WALK=""
RAPIDJSON_PASSTHROUGH=""
HAVE_JQ=0

# Results, keyed "ITEM|SIZE".
declare -A SECS=()       # space-separated wall times of the measured runs
declare -A RSS=()        # space-separated peak RSS (KiB) of the measured runs
declare -A STATUS=()     # ok | n/a | error | skipped
declare -A REASON=()     # why a row is not "ok"
declare -A BYTES=()      # input bytes, for MB/s
declare -A LAST_MBPS=()  # ITEM -> MB/s on the last size, to predict slow runs
NOTES=()

usage() {
  cat <<'EOF'
Usage: bench/run.sh [options]
  --sizes "S1 S2"   state sizes to generate (gen_state.py --size; K/M/G are
                    powers of 1000). Default: "100M 1G"
  --rounds N        interleaved rounds per size; medians are reported. Default: 3
  --pstate PATH     pstate binary to measure (default: built in the build dir)
  --build DIR       use the binaries already built in DIR; do not build
  --out FILE        also write the Markdown report to FILE
  --skip-slow       skip jq and Python on sizes of 1 GB and more
  --hash-size SIZE  size of the random file for the hashing comparison
                    (head -c syntax: 1G = 1 GiB). Default: 1G
Environment: PSTATE_SHARED (path of shared/), BENCH_JOBS (build jobs, default 2)
EOF
}

log() { printf '[bench] %s\n' "$*" >&2; }
die() { printf 'bench/run.sh: error: %s\n' "$*" >&2; exit 2; }

parse_args() {
  while (($# > 0)); do
    case "$1" in
      --sizes) SIZES="${2:?--sizes needs a value}"; shift 2 ;;
      --rounds) ROUNDS="${2:?--rounds needs a value}"; shift 2 ;;
      --pstate) PSTATE="${2:?--pstate needs a value}"; shift 2 ;;
      --build) BUILD_DIR="${2:?--build needs a value}"; shift 2 ;;
      --out) OUT_FILE="${2:?--out needs a value}"; shift 2 ;;
      --skip-slow) SKIP_SLOW=1; shift ;;
      --hash-size) HASH_SIZE="${2:?--hash-size needs a value}"; shift 2 ;;
      -h | --help) usage; exit 0 ;;
      *) usage >&2; die "unknown argument: $1" ;;
    esac
  done
  [[ "${ROUNDS}" =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive integer"
  [[ -n "${SIZES// /}" ]] || die "--sizes is empty"
}

# gen_state.py size syntax: K/M/G powers of 1000, KiB/MiB/GiB powers of 1024.
gen_size_to_bytes() {
  local s="$1"
  [[ "${s}" =~ ^([0-9]+)(K|M|G|KiB|MiB|GiB)?$ ]] || die "bad size: ${s}"
  local n="${BASH_REMATCH[1]}"
  case "${BASH_REMATCH[2]}" in
    K) echo $((n * 1000)) ;;
    M) echo $((n * 1000 ** 2)) ;;
    G) echo $((n * 1000 ** 3)) ;;
    KiB) echo $((n * 1024)) ;;
    MiB) echo $((n * 1024 ** 2)) ;;
    GiB) echo $((n * 1024 ** 3)) ;;
    *) echo "${n}" ;;
  esac
}

# head -c size syntax (coreutils): K/M/G powers of 1024, KB/MB/GB of 1000.
head_size_to_bytes() {
  local s="$1"
  [[ "${s}" =~ ^([0-9]+)(K|M|G|KB|MB|GB)?$ ]] || die "bad --hash-size: ${s}"
  local n="${BASH_REMATCH[1]}"
  case "${BASH_REMATCH[2]}" in
    K) echo $((n * 1024)) ;;
    M) echo $((n * 1024 ** 2)) ;;
    G) echo $((n * 1024 ** 3)) ;;
    KB) echo $((n * 1000)) ;;
    MB) echo $((n * 1000 ** 2)) ;;
    GB) echo $((n * 1000 ** 3)) ;;
    *) echo "${n}" ;;
  esac
}

free_bytes() { df -P -B1 "$1" | awk 'NR == 2 { print $4 }'; }

mem_available_bytes() {
  awk '/^MemAvailable:/ { printf "%.0f\n", $2 * 1024 }' /proc/meminfo
}

check_tools() {
  local tool
  for tool in cmake python3 openssl git awk; do
    command -v "${tool}" >/dev/null || die "${tool} is required"
  done
  # The shell keyword `time` cannot report peak RSS; GNU time can.
  [[ -x /usr/bin/time ]] || die "/usr/bin/time (GNU time) is required"
  [[ -f "${GEN_STATE}" ]] ||
    die "${GEN_STATE} not found (set PSTATE_SHARED to the shared/ directory)"
  if command -v jq >/dev/null; then
    HAVE_JQ=1
  else
    NOTES+=("jq is not installed: its rows are skipped.")
  fi
}

# Builds the baselines (and pstate unless --pstate was given) in Release, or
# takes them from --build DIR without building.
build() {
  if [[ -z "${BUILD_DIR}" ]]; then
    BUILD_DIR="${REPO}/build-bench"
    log "configuring ${BUILD_DIR} (Release)"
    cmake -S "${REPO}" -B "${BUILD_DIR}" -DCMAKE_BUILD_TYPE=Release \
      -DPSTATE_BUILD_TESTS=OFF -DPSTATE_BUILD_BENCH=ON >"${TMP}/cmake.log" 2>&1 ||
      { cat "${TMP}/cmake.log" >&2; die "cmake configure failed"; }
    log "building simdjson_walk rapidjson_passthrough"
    # Each target separately: a missing or broken one must not stop the others.
    local target
    for target in simdjson_walk rapidjson_passthrough; do
      cmake --build "${BUILD_DIR}" --target "${target}" -j "${BUILD_JOBS}" \
        >>"${TMP}/cmake.log" 2>&1 || log "warning: ${target} did not build"
    done
    if [[ -z "${PSTATE}" ]]; then
      log "building pstate"
      cmake --build "${BUILD_DIR}" --target pstate -j "${BUILD_JOBS}" \
        >>"${TMP}/cmake.log" 2>&1 ||
        log "warning: pstate did not build; its rows will be n/a"
    fi
  fi
  [[ -d "${BUILD_DIR}" ]] || die "build directory ${BUILD_DIR} does not exist"
  BUILD_DIR="$(cd "${BUILD_DIR}" && pwd)"
  SIMDJSON_WALK="$(find_binary simdjson_walk)"
  RAPIDJSON_PASSTHROUGH="$(find_binary rapidjson_passthrough)"
  if [[ -z "${PSTATE}" ]]; then
    PSTATE="$(find_binary pstate)"
  elif [[ ! -x "${PSTATE}" ]]; then
    die "--pstate ${PSTATE} is not an executable"
  fi
  log "pstate: ${PSTATE:-<none>}"
  log "simdjson_walk: ${SIMDJSON_WALK:-<none>}"
  log "rapidjson_passthrough: ${RAPIDJSON_PASSTHROUGH:-<none>}"
}

# Prints the path of the executable NAME in the build dir, or nothing.
find_binary() {
  find "${BUILD_DIR}" -type f -name "$1" -perm -u+x -not -path '*/CMakeFiles/*' \
    2>/dev/null | head -n 1
}

# ---------------------------------------------------------------------------
# Benchmarked commands. ITEM ids: pstate_verify simdjson_walk jq python
# pstate_redact rapidjson_pretty (per state size), pstate_assets openssl
# (hashing). item_argv ITEM INPUT OUTPUT sets the global array ARGV.
# ---------------------------------------------------------------------------
ARGV=()
item_argv() {
  local item="$1" input="$2" output="$3"
  case "${item}" in
    pstate_verify) ARGV=("${PSTATE}" verify --quiet "${input}") ;;
    simdjson_walk) ARGV=("${SIMDJSON_WALK}" "${input}") ;;
    jq) ARGV=(jq -c . "${input}") ;;
    python)
      ARGV=(python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "${input}") ;;
    pstate_redact) ARGV=("${PSTATE}" redact "${input}" -o "${output}") ;;
    rapidjson_pretty)
      ARGV=("${RAPIDJSON_PASSTHROUGH}" "${input}" "${output}" pretty) ;;
    pstate_assets) ARGV=("${PSTATE}" assets "${input}" --root "${output}") ;;
    openssl) ARGV=(openssl dgst -sha256 "${input}") ;;
    *) die "internal: unknown item ${item}" ;;
  esac
}

# Backquotes are Markdown code spans here, not command substitutions.
# shellcheck disable=SC2016
item_label() {
  case "$1" in
    pstate_verify) echo '`pstate verify --quiet`' ;;
    simdjson_walk) echo '`simdjson_walk` (baseline)' ;;
    jq) echo '`jq -c .` (report only)' ;;
    python) echo '`python3 json.load` (report only)' ;;
    pstate_redact) echo '`pstate redact -o`' ;;
    rapidjson_pretty) echo '`rapidjson_passthrough pretty` (baseline)' ;;
    pstate_assets) echo '`pstate assets --root`' ;;
    openssl) echo '`openssl dgst -sha256` (baseline)' ;;
  esac
}

# The baseline each item's ratio is computed against.
item_baseline() {
  case "$1" in
    pstate_verify | jq | python) echo simdjson_walk ;;
    pstate_redact) echo rapidjson_pretty ;;
    pstate_assets) echo openssl ;;
    *) echo "" ;;
  esac
}

# Minimum throughput ratio to the baseline; empty = no target.
item_target_ratio() {
  case "$1" in
    pstate_verify) echo 0.8 ;;
    pstate_redact) echo 1.0 ;;
    pstate_assets) echo 0.9 ;;
    *) echo "" ;;
  esac
}

is_pstate_item() { [[ "$1" == pstate_* ]]; }

# Exit codes that mean "the command did its work": pstate's 1 means findings
# (docs: 0 clean, 1 findings, 2 usage/I/O/parse failure).
item_ok_rc() {
  local item="$1" rc="$2"
  if is_pstate_item "${item}"; then
    ((rc == 0 || rc == 1))
  else
    ((rc == 0))
  fi
}

mark() {  # mark KEY STATUS REASON
  STATUS["$1"]="$2"
  REASON["$1"]="$3"
}

# ---------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------

# now_us: wall clock in microseconds, without forking (bash 5 EPOCHREALTIME).
now_us() {
  local t="${EPOCHREALTIME}"
  echo $((10#${t%.*} * 1000000 + 10#${t#*.}))
}

# run_measured ITEM INPUT OUTPUT: runs the command once under /usr/bin/time.
# Sets RUN_RC, RUN_SECS (wall, from the microsecond clock: GNU time's %e has
# only 10 ms resolution, too coarse for small files), RUN_RSS_KB (%M) and
# RUN_ERR (path of the captured stderr).
run_measured() {
  local item="$1" input="$2" output="$3"
  item_argv "${item}" "${input}" "${output}"
  RUN_ERR="${TMP}/stderr.txt"
  local time_file="${TMP}/time.txt" t0 t1
  t0="$(now_us)"
  set +e
  /usr/bin/time -f '%e %M' -o "${time_file}" "${ARGV[@]}" >/dev/null 2>"${RUN_ERR}"
  RUN_RC=$?
  set -e
  t1="$(now_us)"
  RUN_SECS="$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.6f", d / 1e6 }')"
  # GNU time prints "Command exited with non-zero status N" (or a signal
  # line) before the format line; the numbers are on the last line.
  RUN_RSS_KB="$(tail -n 1 "${time_file}" | awk '{ print $2 }')"
  [[ -n "${RUN_RSS_KB}" ]] || RUN_RSS_KB=0
  # The outputs of rewrites are as big as the input: never keep them.
  if [[ "${item}" == *redact* || "${item}" == rapidjson_* ]]; then
    rm -f "${output}"
  fi
}

first_error_line() {
  grep -v '^[[:space:]]*$' "$1" 2>/dev/null | head -n 1 | cut -c 1-160 || true
}

# probe_pstate ITEM KEY INPUT OUTPUT MALFORMED_INPUT: decides whether a pstate
# command exists and really works before it is timed. A command that is
# missing (CLI usage error) or a placeholder (exits 0 on malformed JSON, or
# writes no output) is "n/a" rather than a fast, meaningless row.
probe_pstate() {
  local item="$1" key="$2" input="$3" output="$4" malformed="$5"
  if [[ -z "${PSTATE}" ]]; then
    mark "${key}" "n/a" "pstate binary not built"
    return 1
  fi
  run_measured_keep_output "${item}" "${input}" "${output}"
  if ! item_ok_rc "${item}" "${RUN_RC}"; then
    # What a CLI (CLI11 or hand-written) says about a subcommand or flag it
    # does not know.
    local missing='unknown|not found|usage|not expected|extraneous|invalid (sub)?command|--help|requires? a subcommand'
    local msg
    msg="$(grep -m 1 -iE "${missing}" "${RUN_ERR}" | cut -c 1-160 || true)"
    if [[ -n "${msg}" ]]; then
      mark "${key}" "n/a" "command not available (exit ${RUN_RC}: ${msg})"
    else
      msg="$(first_error_line "${RUN_ERR}")"
      mark "${key}" "error" "exit ${RUN_RC}: ${msg}"
    fi
    [[ "${item}" == pstate_redact ]] && rm -f "${output}"
    return 1
  fi
  if [[ "${item}" == pstate_redact ]]; then
    if [[ ! -s "${output}" ]]; then
      mark "${key}" "n/a" "placeholder: exit ${RUN_RC} but no output written"
      return 1
    fi
    rm -f "${output}"
  fi
  run_measured "${item}" "${malformed}" "${output}"
  if ((RUN_RC == 0)); then
    mark "${key}" "n/a" "placeholder: exits 0 on malformed JSON"
    return 1
  fi
  return 0
}

# Like run_measured, but keeps a rewrite's output for inspection.
run_measured_keep_output() {
  local item="$1" input="$2" output="$3"
  item_argv "${item}" "${input}" "${output}"
  RUN_ERR="${TMP}/stderr.txt"
  set +e
  "${ARGV[@]}" >/dev/null 2>"${RUN_ERR}"
  RUN_RC=$?
  set -e
}

# prepare_item ITEM KEY INPUT OUTPUT MALFORMED BYTES: availability checks and
# a warm-up run. Returns 0 if the item is to be measured.
prepare_item() {
  local item="$1" key="$2" input="$3" output="$4" malformed="$5" bytes="$6"
  BYTES["${key}"]="${bytes}"
  SECS["${key}"]=""
  RSS["${key}"]=""
  mark "${key}" "ok" ""
  case "${item}" in
    pstate_*)
      probe_pstate "${item}" "${key}" "${input}" "${output}" "${malformed}" || return 1
      return 0 ;;
    simdjson_walk)
      [[ -n "${SIMDJSON_WALK}" ]] ||
        { mark "${key}" "n/a" "simdjson_walk not built (simdjson missing?)"; return 1; } ;;
    rapidjson_pretty)
      [[ -n "${RAPIDJSON_PASSTHROUGH}" ]] ||
        { mark "${key}" "n/a" "rapidjson_passthrough not built"; return 1; } ;;
    jq | python)
      if [[ "${item}" == jq ]] && ((HAVE_JQ == 0)); then
        mark "${key}" "skipped" "jq not installed"
        return 1
      fi
      skip_slow_reason "${item}" "${bytes}" && return 1
      # No warm-up: one run of these costs as much as the whole pstate series.
      return 0 ;;
  esac
  # Warm-up of a baseline: same page-cache state as the pstate command it is
  # compared to, and proof that it works on this input.
  run_measured "${item}" "${input}" "${output}"
  if ! item_ok_rc "${item}" "${RUN_RC}"; then
    mark "${key}" "error" "exit ${RUN_RC}: $(first_error_line "${RUN_ERR}")"
    return 1
  fi
  return 0
}

# skip_slow_reason ITEM BYTES: marks the report-only item skipped (returns 0)
# when --skip-slow applies, when it would take more than SLOW_LIMIT_S per run
# (predicted from the previous size), or when it would not fit in memory.
skip_slow_reason() {
  local item="$1" bytes="$2" key="$1|${CURRENT_SIZE}"
  if ((SKIP_SLOW == 1 && bytes >= 1000000000)); then
    mark "${key}" "skipped" "--skip-slow"
    return 0
  fi
  local mbps="${LAST_MBPS[${item}]:-}"
  if [[ -n "${mbps}" ]] &&
    awk -v b="${bytes}" -v m="${mbps}" -v l="${SLOW_LIMIT_S}" \
      'BEGIN { exit !(b / 1e6 / m > l) }'; then
    mark "${key}" "skipped" "predicted > ${SLOW_LIMIT_S} s per run at ${mbps} MB/s"
    return 0
  fi
  # Peak RSS per byte of input, from the reference measurements (jq -c 2.5x,
  # Python 6.5x), with a margin; swapping would measure the disk, not jq.
  local factor=3
  [[ "${item}" == python ]] && factor=8
  local avail
  avail="$(mem_available_bytes)"
  if ((bytes * factor > avail * 9 / 10)); then
    mark "${key}" "skipped" "needs ~$((bytes * factor / 1000000)) MB of memory, $((avail / 1000000)) MB available"
    return 0
  fi
  return 1
}

# run_rounds INPUT OUTPUT_DIR ITEM...: ROUNDS interleaved rounds; round r
# starts at item r (mod n), so no command always runs first or right after
# the same neighbour.
run_rounds() {
  local input="$1" outdir="$2"
  shift 2
  local items=("$@")
  local n=${#items[@]}
  ((n > 0)) || return 0
  local r i item key
  for ((r = 0; r < ROUNDS; r++)); do
    log "  round $((r + 1))/${ROUNDS}"
    for ((i = 0; i < n; i++)); do
      item="${items[$(((r + i) % n))]}"
      key="${item}|${CURRENT_SIZE}"
      [[ "${STATUS[${key}]}" == ok ]] || continue
      # A report-only command slower than the limit is measured once.
      if [[ -n "${SECS[${key}]}" && ( "${item}" == jq || "${item}" == python ) ]] &&
        awk -v s="${SECS[${key}]%% *}" -v l="${SLOW_LIMIT_S}" 'BEGIN { exit !(s > l) }'; then
        continue
      fi
      run_measured "${item}" "${input}" "${outdir}/out-${item}.json"
      if ! item_ok_rc "${item}" "${RUN_RC}"; then
        mark "${key}" "error" "exit ${RUN_RC}: $(first_error_line "${RUN_ERR}")"
        continue
      fi
      SECS["${key}"]="${SECS[${key}]:+${SECS[${key}]} }${RUN_SECS}"
      RSS["${key}"]="${RSS[${key}]:+${RSS[${key}]} }${RUN_RSS_KB}"
      log "    $(printf '%-18s %8.3f s %8d KiB' "${item}" "${RUN_SECS}" "${RUN_RSS_KB}")"
    done
  done
}

median() {  # median of the numbers given as arguments
  printf '%s\n' "$@" | sort -g | awk '
    { v[NR] = $1 }
    END {
      if (NR == 0) exit
      if (NR % 2) print v[(NR + 1) / 2]
      else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2
    }'
}

# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

# A truncated document: every real reader must reject it (exit non-zero).
write_malformed() {
  printf '{"version": 3, "deployment": {"manifest": {"time": "2024-' >"$1"
}

# bench_size SIZE: generates a state of SIZE and measures every per-state item.
bench_size() {
  local size="$1"
  CURRENT_SIZE="${size}"
  local want_bytes
  want_bytes="$(gen_size_to_bytes "${size}")"
  local items=(pstate_verify simdjson_walk jq python pstate_redact rapidjson_pretty)
  local item
  # Room for the state plus two rewritten copies of it (they are deleted after
  # each run, but two may exist if a command leaves its output behind).
  local free
  free="$(free_bytes "${TMP}")"
  if ((free < 3 * want_bytes)); then
    NOTES+=("size ${size} skipped: needs $((3 * want_bytes / 1000000)) MB free in ${TMP}, $((free / 1000000)) MB available.")
    log "skipping ${size}: not enough free disk space"
    for item in "${items[@]}"; do
      mark "${item}|${size}" "skipped" "not enough disk space"
      BYTES["${item}|${size}"]="${want_bytes}"
    done
    return 0
  fi

  local state="${TMP}/state-${size}.json"
  log "generating ${state}"
  # --resources is an upper bound: without a large one gen_state.py stops at
  # 1000 resources (about 6.6 MB) whatever --size says.
  python3 "${GEN_STATE}" --resources 100000000 --size "${size}" --seed 1 --assets \
    -o "${state}"
  local bytes
  bytes="$(stat -c %s "${state}")"
  # Hot page cache for every command alike.
  cat "${state}" >/dev/null

  local malformed="${TMP}/malformed.json"
  write_malformed "${malformed}"
  local outdir="${TMP}/out"
  mkdir -p "${outdir}"

  local measured=()
  for item in "${items[@]}"; do
    if prepare_item "${item}" "${item}|${size}" "${state}" "${outdir}/out-${item}.json" \
      "${malformed}" "${bytes}"; then
      measured+=("${item}")
    else
      log "  ${item}: ${STATUS[${item}|${size}]} (${REASON[${item}|${size}]})"
    fi
  done
  log "measuring ${size}: ${measured[*]:-nothing}"
  run_rounds "${state}" "${outdir}" "${measured[@]}"

  # Remember report-only throughput to predict the next, bigger size.
  for item in jq python; do
    local key="${item}|${size}"
    if [[ "${STATUS[${key}]}" == ok && -n "${SECS[${key}]}" ]]; then
      # shellcheck disable=SC2086  # word splitting of the list is intended
      LAST_MBPS["${item}"]="$(awk -v b="${bytes}" -v s="$(median ${SECS[${key}]})" \
        'BEGIN { printf "%.1f", b / 1e6 / s }')"
    fi
  done
  rm -f "${state}"
  rm -rf "${outdir}"
}

# bench_hashing: a random file of HASH_SIZE and a tiny state that references
# it as a path asset with its correct SHA-256, so `pstate assets` hashes
# exactly the bytes `openssl dgst` hashes.
bench_hashing() {
  CURRENT_SIZE="${HASH_SIZE}"
  local bytes
  bytes="$(head_size_to_bytes "${HASH_SIZE}")"
  local item
  local free
  free="$(free_bytes "${TMP}")"
  if ((free < 2 * bytes)); then
    NOTES+=("hashing skipped: needs $((2 * bytes / 1000000)) MB free in ${TMP}, $((free / 1000000)) MB available.")
    for item in pstate_assets openssl; do
      mark "${item}|${HASH_SIZE}" "skipped" "not enough disk space"
      BYTES["${item}|${HASH_SIZE}"]="${bytes}"
    done
    return 0
  fi
  local root="${TMP}/assets-root"
  mkdir -p "${root}"
  local big="${root}/big.bin"
  log "writing ${HASH_SIZE} of random bytes to ${big}"
  head -c "${HASH_SIZE}" /dev/urandom >"${big}"
  local hash
  hash="$(openssl dgst -sha256 -r "${big}" | awk '{ print $1 }')"
  local state="${TMP}/hash-state.json"
  write_hash_state "${state}" "${hash}" "./big.bin"
  local malformed="${TMP}/malformed.json"
  write_malformed "${malformed}"

  local measured=()
  # openssl takes the big file itself; pstate takes the state plus --root.
  if prepare_item pstate_assets "pstate_assets|${HASH_SIZE}" "${state}" "${root}" \
    "${malformed}" "${bytes}"; then
    measured+=(pstate_assets)
  else
    log "  pstate_assets: ${STATUS[pstate_assets|${HASH_SIZE}]} (${REASON[pstate_assets|${HASH_SIZE}]})"
  fi
  prepare_item openssl "openssl|${HASH_SIZE}" "${big}" "" "" "${bytes}" &&
    measured+=(openssl)
  log "measuring hashing ${HASH_SIZE}: ${measured[*]:-nothing}"
  run_hash_rounds "${state}" "${root}" "${big}" "${measured[@]}"
  rm -rf "${root}" "${state}"
}

# The two hashing commands take different inputs, so they get their own
# interleaved loop.
run_hash_rounds() {
  local state="$1" root="$2" big="$3"
  shift 3
  local items=("$@")
  local n=${#items[@]}
  ((n > 0)) || return 0
  local r i item key
  for ((r = 0; r < ROUNDS; r++)); do
    log "  round $((r + 1))/${ROUNDS}"
    for ((i = 0; i < n; i++)); do
      item="${items[$(((r + i) % n))]}"
      key="${item}|${HASH_SIZE}"
      [[ "${STATUS[${key}]}" == ok ]] || continue
      if [[ "${item}" == pstate_assets ]]; then
        run_measured "${item}" "${state}" "${root}"
      else
        run_measured "${item}" "${big}" ""
      fi
      if ! item_ok_rc "${item}" "${RUN_RC}"; then
        mark "${key}" "error" "exit ${RUN_RC}: $(first_error_line "${RUN_ERR}")"
        continue
      fi
      SECS["${key}"]="${SECS[${key}]:+${SECS[${key}]} }${RUN_SECS}"
      RSS["${key}"]="${RSS[${key}]:+${RSS[${key}]} }${RUN_RSS_KB}"
      log "    $(printf '%-18s %8.3f s %8d KiB' "${item}" "${RUN_SECS}" "${RUN_RSS_KB}")"
    done
  done
}

# write_hash_state FILE HASH PATH: a minimal deployment with the stack and one
# bucket object whose input `source` is a path asset.
write_hash_state() {
  local file="$1" hash="$2" path="$3"
  cat >"${file}" <<EOF
{
    "version": 3,
    "deployment": {
        "manifest": {
            "time": "2024-04-22T22:05:19.895875972-08:00",
            "magic": "3ff53efef69f38d19e364655131bbb113e416d3bf64bfb819065fa12acb29250",
            "version": "v3.100.0"
        },
        "resources": [
            {
                "urn": "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev",
                "custom": false,
                "type": "pulumi:pulumi:Stack"
            },
            {
                "urn": "urn:pulumi:dev::proj::aws:s3/bucketObjectv2:BucketObjectv2::big",
                "custom": true,
                "id": "big",
                "type": "aws:s3/bucketObjectv2:BucketObjectv2",
                "inputs": {
                    "bucket": "bench-bucket",
                    "key": "big.bin",
                    "source": {
                        "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17",
                        "hash": "${hash}",
                        "path": "${path}"
                    }
                },
                "parent": "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"
            }
        ]
    }
}
EOF
}

# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

# human_size BYTES: "10 MB", "1.07 GB" (decimal, like gen_state.py sizes).
human_size() {
  awk -v b="$1" 'BEGIN {
    if (b >= 1e9) printf "%.3g GB", b / 1e9
    else printf "%.3g MB", b / 1e6
  }'
}

# report_row ITEM SIZE: one Markdown table row.
report_row() {
  local item="$1" size="$2" key="$1|$2"
  local label status
  label="$(item_label "${item}")"
  status="${STATUS[${key}]:-skipped}"
  local bytes="${BYTES[${key}]:-0}"
  local size_text
  size_text="$(human_size "${bytes}")"
  if [[ "${status}" != ok || -z "${SECS[${key}]:-}" ]]; then
    local shown="${status}"
    [[ "${status}" == ok ]] && shown="n/a"
    printf '| %s | %s | %s | | | | %s |\n' "${label}" "${size_text}" "${shown}" \
      "$([[ -n "$(item_target_ratio "${item}")" ]] && echo "${shown}")"
    return
  fi
  local secs rss_kb
  # shellcheck disable=SC2086  # word splitting of the lists is intended
  secs="$(median ${SECS[${key}]})"
  # shellcheck disable=SC2086
  rss_kb="$(median ${RSS[${key}]})"
  local mbps rss_mb
  mbps="$(awk -v b="${bytes}" -v s="${secs}" 'BEGIN { printf "%.0f", b / 1e6 / s }')"
  rss_mb="$(awk -v k="${rss_kb}" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }')"

  local baseline ratio_text="" target_text=""
  baseline="$(item_baseline "${item}")"
  local ratio=""
  if [[ -z "${baseline}" ]]; then
    ratio_text="1.00 (baseline)"
  else
    local bkey="${baseline}|${size}"
    if [[ "${STATUS[${bkey}]:-}" == ok && -n "${SECS[${bkey}]:-}" ]]; then
      local bsecs
      # shellcheck disable=SC2086
      bsecs="$(median ${SECS[${bkey}]})"
      # Throughput ratio = baseline time / this time (same input bytes).
      ratio="$(awk -v b="${bsecs}" -v s="${secs}" 'BEGIN { printf "%.2f", b / s }')"
      ratio_text="${ratio}x ${baseline}"
    else
      ratio_text="n/a (no ${baseline})"
    fi
  fi
  local target
  target="$(item_target_ratio "${item}")"
  if [[ -n "${target}" ]]; then
    if [[ -z "${ratio}" ]]; then
      target_text="n/a (>= ${target}x)"
    else
      local met=yes
      awk -v r="${ratio}" -v t="${target}" 'BEGIN { exit !(r >= t) }' || met=no
      local what=">= ${target}x"
      # The memory target is stated for 1 GB inputs (streaming must not
      # grow with the file); smaller inputs are not held to it.
      if [[ "${item}" == pstate_verify ]] && ((bytes >= 1000000000)); then
        what+=", RSS <= 100 MB"
        awk -v m="${rss_mb}" 'BEGIN { exit !(m <= 100) }' || met=no
      fi
      target_text="${met} (${what})"
    fi
  fi
  printf '| %s | %s | %.3f | %s | %s | %s | %s |\n' "${label}" "${size_text}" \
    "${secs}" "${mbps}" "${ratio_text}" "${rss_mb}" "${target_text}"
}

print_report() {
  local cpu commit
  cpu="$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
  commit="$(git -C "${REPO}" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)"
  echo "## pstate benchmark"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "- machine: $(nproc) CPUs, ${cpu:-unknown CPU}, $(awk '/^MemTotal:/ { printf "%.0f GB", $2 / 1e6 }' /proc/meminfo) RAM"
  echo "- pstate commit: ${commit}; binary: ${PSTATE:-none}"
  echo "- rounds: ${ROUNDS} interleaved, medians; states: gen_state.py --seed 1 --assets"
  echo
  echo "| command | size | median s | MB/s | ratio to baseline | peak RSS MB | target met |"
  echo "|---|---:|---:|---:|---|---:|---|"
  local size item
  for size in ${SIZES}; do
    for item in pstate_verify simdjson_walk jq python pstate_redact rapidjson_pretty; do
      report_row "${item}" "${size}"
    done
  done
  for item in pstate_assets openssl; do
    report_row "${item}" "${HASH_SIZE}"
  done
  local key lines=()
  for key in "${!STATUS[@]}"; do
    [[ "${STATUS[${key}]}" == ok ]] && continue
    lines+=("- ${key%%|*} (${key#*|}): ${STATUS[${key}]}: ${REASON[${key}]}")
  done
  lines+=("${NOTES[@]/#/- }")
  if ((${#lines[@]} > 0)); then
    echo
    echo "Notes:"
    printf '%s\n' "${lines[@]}" | sort
  fi
}

cleanup() {
  if [[ -n "${TMP}" && -d "${TMP}" ]]; then
    rm -rf "${TMP}"
  fi
}

main() {
  parse_args "$@"
  check_tools
  TMP="$(mktemp -d /tmp/pstate-bench.XXXXXX)"
  trap cleanup EXIT
  trap 'exit 130' INT TERM
  build
  local size
  for size in ${SIZES}; do
    bench_size "${size}"
  done
  bench_hashing
  local report="${TMP}/report.md"
  print_report >"${report}"
  cat "${report}"
  if [[ -n "${OUT_FILE}" ]]; then
    cp "${report}" "${OUT_FILE}"
    log "report written to ${OUT_FILE}"
  fi
}

main "$@"
