#!/usr/bin/env bash
# Validates the CI report formats of verify and scan: --format junit against
# the JUnit schema (junit-10.xsd here, from Jenkins' xUnit plugin) with
# xmllint, and --format gitlab against GitLab's Code Quality format
# (gitlab-codequality.schema.json here, written down from GitLab's docs)
# with python3-jsonschema, plus unique fingerprints; and checks that no
# secret plaintext of the fixtures (fixtures/scan/plaintexts.txt) appears in
# either. Run by ctest (pstate_ci_formats_validation).
#
# Usage: validate.sh PSTATE FIXTURES_DIR
# Without xmllint or python3-jsonschema it skips (77), except under CI=true.
set -uo pipefail
pstate="$1"
fixtures="$2"
here="$(cd "$(dirname "$0")" && pwd)"

missing=()
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
python3 -c 'import jsonschema' >/dev/null 2>&1 || missing+=(python3-jsonschema)
if [ ${#missing[@]} -ne 0 ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "FAILED: missing ${missing[*]} (scripts/lib.sh installs them)"
    exit 1
  fi
  echo "SKIPPED: install ${missing[*]} to validate the JUnit and GitLab reports"
  exit 77
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
# Findings of every kind: invalid states (errors, warnings, notes, fatal
# inputs, a missing file), leaks, standard input, a clean state, and the
# --fail-on levels that change what JUnit calls a failure.
run() {
  local name="$1"
  shift
  "$pstate" "$@" > "$work/$name" 2> "$work/$name.err"
  local rc=$?
  if [ "$rc" -gt 2 ] || [ ! -s "$work/$name" ]; then
    echo "FAILED: pstate $* exited $rc and wrote $(wc -c < "$work/$name") bytes"
    cat "$work/$name.err"
    status=1
  fi
}
for format in junit gitlab; do
  run "verify-invalid.$format" verify -q --format "$format" \
    "$fixtures"/states/invalid/*.json "$fixtures/states/invalid/does-not-exist.json"
  run "verify-never.$format" verify -q --format "$format" --fail-on never \
    "$fixtures"/states/invalid/0*.json
  run "verify-stdin.$format" verify -q --format "$format" - < "$fixtures/scan/leaks.json"
  run "verify-clean.$format" verify -q --format "$format" "$fixtures/states/valid/minimal.json"
  run "scan.$format" scan -q --format "$format" --fail-on note "$fixtures/scan/leaks.json"
done

for f in "$work"/*.junit; do
  if ! xmllint --noout --schema "$here/junit-10.xsd" "$f" 2> "$work/xmllint.log"; then
    cat "$work/xmllint.log"
    echo "FAILED: $(basename "$f") is not valid against junit-10.xsd"
    status=1
  fi
done

python3 - "$here/gitlab-codequality.schema.json" "$work"/*.gitlab <<'PY' || status=1
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)
ok = True
for path in sys.argv[2:]:
    name = path.rsplit("/", 1)[-1]
    report = json.load(open(path))
    errors = list(validator.iter_errors(report))
    for e in errors[:5]:
        print(f"FAILED: {name}: {e.json_path}: {e.message}")
    fingerprints = [issue["fingerprint"] for issue in report]
    if len(fingerprints) != len(set(fingerprints)):
        print(f"FAILED: {name}: a fingerprint is repeated (GitLab shows only the first)")
        ok = False
    ok = ok and not errors
sys.exit(0 if ok else 1)
PY

# Secrets are never printed: not one plaintext of the fixtures' secrets.
while IFS= read -r secret; do
  [ -n "$secret" ] || continue
  if grep -F -l -- "$secret" "$work"/*.junit "$work"/*.gitlab; then
    echo "FAILED: a secret plaintext of fixtures/scan/plaintexts.txt is in the file(s) above"
    status=1
  fi
done < "$fixtures/scan/plaintexts.txt"

if [ "$status" -eq 0 ]; then
  echo "PASSED: $(ls "$work"/*.junit | wc -l) JUnit and $(ls "$work"/*.gitlab | wc -l) GitLab reports"
fi
exit "$status"
