#!/usr/bin/env bash
# bench/verify_schema/memory.sh: peak resident memory of `pstate verify
# --schema` for a state that uses two resource types of a large schema (the
# security review's S8: memory follows the types the state uses, not the
# size of the schema).
#
#   bench/verify_schema/memory.sh [PSTATE_BINARY] [TYPES]
#     PSTATE_BINARY  default build/rel/src/pstate (a Release build)
#     TYPES          object types (and as many resources) of the generated
#                    schema, default 220000 (about 85 MB of JSON, the size
#                    the review measured)
#
# Runs, each printing "WALL_S CPU_S RSS_KB" (bench/lib.sh time_command):
#   plain verify of the small state (the baseline);
#   verify --schema with the largest real package schema of the shared
#   fixtures (tls, 180 KB);
#   verify --schema with the generated schema, as a file and gzipped.
# The generated files live in $TMPDIR (deterministic, made once).
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
BIN=${1:-build/rel/src/pstate}
TYPES=${2:-220000}
TMP=${TMPDIR:-/tmp}
SCHEMA="$TMP/pstate-bench-schema-$TYPES.json"
STATE="$TMP/pstate-bench-schema-state.json"
TLS_STATE="$TMP/pstate-bench-schema-tls-state.json"
TLS=/work/shared/fixtures/package-schemas/tls.schema.json
if [[ ! -f "$SCHEMA" ]]; then
  python3 - "$SCHEMA" "$TYPES" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    f.write('{"name": "big", "version": "1.0.0", "types": {\n')
    for i in range(n):
        f.write('%s"big:index:T%d": {"type": "object", "properties": '
                '{"name": {"type": "string"}, "size": {"type": "integer"}, '
                '"tags": {"type": "object", "additionalProperties": '
                '{"type": "string"}}}, "required": ["name"]}\n'
                % ("," if i else "", i))
    f.write('}, "resources": {\n')
    for i in range(n):
        f.write('%s"big:index:R%d": {"inputProperties": {"spec": {"$ref": '
                '"#/types/big:index:T%d"}}, "requiredInputs": ["spec"], '
                '"properties": {"spec": {"$ref": "#/types/big:index:T%d"}}}\n'
                % ("," if i else "", i, i, i))
    f.write('}}\n')
PY
  gzip -1 -k -f "$SCHEMA"
fi
state() {  # state FILE TYPE1 INPUTS1 TYPE2 INPUTS2
  python3 - "$@" <<'PY'
import json, sys
path, t1, i1, t2, i2 = sys.argv[1:]
res = []
for n, (t, i) in enumerate([(t1, i1), (t2, i2)] * 5):
    res.append({"urn": "urn:pulumi:s::p::%s::r%d" % (t, n), "custom": True,
                "id": "id-%d" % n, "type": t, "inputs": json.loads(i),
                "outputs": json.loads(i)})
json.dump({"version": 3, "deployment": {"resources": res}}, open(path, "w"))
PY
}
[[ -f "$STATE" ]] || state "$STATE" big:index:R7 '{"spec": {"name": "a"}}' \
    "big:index:R$((TYPES - 1))" '{"spec": {"name": "b", "size": 2}}'
[[ -f "$TLS_STATE" ]] || state "$TLS_STATE" \
    tls:index/privateKey:PrivateKey '{"algorithm": "RSA"}' \
    tls:index/certRequest:CertRequest '{"privateKeyPem": "x"}'
T="$TMP/pstate-bench-schema-time.txt"
printf '%-44s %s\n' "run" "wall_s cpu_s peak_rss_kb"
printf '%-44s %s\n' "verify (no schema)" "$(time_command "$T" "$BIN" verify -q "$STATE")"
printf '%-44s %s\n' "verify --schema tls ($(du -k "$TLS" | cut -f1) KB)" \
    "$(time_command "$T" "$BIN" verify -q --schema "$TLS" "$TLS_STATE")"
printf '%-44s %s\n' "verify --schema $TYPES types ($(du -m "$SCHEMA" | cut -f1) MB)" \
    "$(time_command "$T" "$BIN" verify -q --schema "$SCHEMA" "$STATE")"
printf '%-44s %s\n' "verify --schema $TYPES types, gzip" \
    "$(time_command "$T" "$BIN" verify -q --schema "$SCHEMA.gz" "$STATE")"
