#!/usr/bin/env python3
"""compare_passthrough.py ORIGINAL REWRITTEN: byte comparison of a Go-written
state (gen_state.py, `pulumi stack export`) with its rewrite by
`rapidjson_passthrough ... pretty` (or any writer that escapes like RapidJSON).

Go's encoding/json and RapidJSON's Writer differ in exactly two ways on such
files, both inside strings:
  * Go writes <, >, &, U+2028, U+2029 as \\u003c \\u003e \\u0026 \\u2028
    \\u2029; RapidJSON writes the characters raw;
  * Go writes the other control characters with lowercase hex (\\u001b),
    RapidJSON with uppercase (\\u001B).
This script undoes both in ORIGINAL, compares, prints what it normalized, and
exits 0 if the files are then identical, 1 otherwise (showing the first
difference).
"""

import collections
import re
import sys

GO_HTML_ESCAPES = {
    rb"\u003c": b"<",
    rb"\u003e": b">",
    rb"\u0026": b"&",
    rb"\u2028": "\u2028".encode(),
    rb"\u2029": "\u2029".encode(),
}

# An escaped backslash is matched first so that "\\u003c" (a backslash
# followed by the text u003c) is never taken for an escape.
ESCAPE = re.compile(rb"\\\\|\\u003c|\\u003e|\\u0026|\\u2028|\\u2029|\\u00[01][0-9a-f]")


def normalize(data, counts):
    def fix(match):
        token = match.group(0)
        if token == b"\\\\":
            return token
        if token in GO_HTML_ESCAPES:
            counts[token.decode()] += 1
            return GO_HTML_ESCAPES[token]
        counts["\\u00XX lowercase hex"] += 1
        return b"\\u" + token[2:].upper()

    return ESCAPE.sub(fix, data)


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], "rb") as f:
        original = f.read()
    with open(argv[2], "rb") as f:
        rewritten = f.read()
    if original == rewritten:
        print(f"identical ({len(original)} bytes)")
        return 0
    counts = collections.Counter()
    normalized = normalize(original, counts)
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
    if normalized == rewritten:
        print(f"identical after normalizing Go escapes ({summary})")
        return 0
    limit = min(len(normalized), len(rewritten))
    i = next((k for k in range(limit) if normalized[k] != rewritten[k]), limit)
    print(f"DIFFERENT after normalizing ({summary}); first difference at "
          f"normalized byte {i}:")
    print("  original: ", normalized[max(0, i - 60):i + 60])
    print("  rewritten:", rewritten[max(0, i - 60):i + 60])
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
