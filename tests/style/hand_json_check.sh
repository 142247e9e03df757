#!/usr/bin/env bash
# Fails when JSON is built by hand outside the JSON module: every report and
# every JSON value pstate makes is written through json::Writer
# (src/json/writer.cc), and report/ is the only code that formats results.
# What it looks for:
#  - the string-quoting helpers that hand-built JSON used (JsonString,
#    Quote) called outside src/json;
#  - a C++ string literal that opens an object member by hand ("{\"key\":"
#    or ",\"key\":").
# src/types (its own cty JSON encoding) and edit/splice.cc (a state writer
# that splices bytes in the input's own layout) are outside this rule.
#
# Usage: hand_json_check.sh SOURCE_DIR
set -uo pipefail
root="$1"
cd "$root" || exit 1
mapfile -d '' files < <(find src include -type f \( -name '*.cc' -o -name '*.h' \) \
  -not -path 'src/json/*' \
  -not -path 'src/types/*' \
  -not -path 'src/edit/splice.cc' -print0)
status=0
if grep -nE '(^|[^A-Za-z0-9_])(JsonString|Quote)\(' "${files[@]}"; then
  echo "FAILED: JSON quoted by hand above; write it with json::Writer"
  status=1
fi
if grep -nE '"[{,]+\\"[A-Za-z_$][A-Za-z0-9_$./-]*\\":' "${files[@]}"; then
  echo "FAILED: a JSON object built by hand above; write it with json::Writer"
  status=1
fi
exit $status
