#!/usr/bin/env python3
"""Writes a copy of a generated state (gen_state.py's indented layout) with
1 resource in EVERY changed (default 100, i.e. 1%): the first string input
or output directly inside the resource object gets "-changed" appended.
Streams line by line, so a 1 GB state needs no more memory than one line.

usage: diff_mutate.py IN OUT [EVERY]"""
import re
import sys

src, dst = sys.argv[1], sys.argv[2]
every = int(sys.argv[3]) if len(sys.argv) > 3 else 100
RESOURCE_START = "            {\n"          # an element of deployment.resources
VALUE = re.compile(r'^( {20}"[^"]+": ")([^"\\]*)(",?\n)$')  # a property of inputs/outputs

index = -1
pending = False
changed = 0
with open(src, encoding="utf-8") as fin, open(dst, "w", encoding="utf-8") as fout:
    in_resources = False
    for line in fin:
        if line == '        "resources": [\n':
            in_resources = True
        elif in_resources and line.startswith("        ]"):
            in_resources = False
        elif in_resources and line == RESOURCE_START:
            index += 1
            pending = pending or (index >= 9 and index % every == 0)
        elif pending:
            m = VALUE.match(line)
            if m:
                line = m.group(1) + m.group(2) + "-changed" + m.group(3)
                pending = False
                changed += 1
        fout.write(line)
print(f"{index + 1} resources, {changed} changed", file=sys.stderr)
