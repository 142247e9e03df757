#!/usr/bin/env python3
"""Generates JSON Lines cases for `pstate typecheck --cases` (docs/types.md).

The cases cover all six type languages in equal shares, each drawn from a
small pool of types (so the type cache is exercised the way real contract
tests use it: many values per type) and a generated value that usually
conforms, sometimes converts and sometimes fails. The output is the same for
the same --seed and --count.

    bench/typecheck_cases.py --count 100000 --seed 1 > /tmp/cases.jsonl
    time build-release/src/pstate typecheck --cases /tmp/cases.jsonl \\
        --schema fixtures/package-schemas/command.schema.json > /dev/null

Cases for a language that the pstate being measured does not build yet come
out as "invalid" lines (exit 2); --systems picks a subset.
"""

import argparse
import json
import random
import sys

SECRET = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"}
UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"


def word(rng):
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 10)))


def number(rng):
    r = rng.random()
    if r < 0.6:
        return rng.randint(-1000, 1000)
    if r < 0.9:
        return round(rng.uniform(-1e6, 1e6), 3)
    return 9007199254740993  # rounds through float64


def scalar(rng, kind):
    if kind == "string":
        return word(rng) if rng.random() < 0.9 else number(rng)
    if kind == "number":
        return number(rng) if rng.random() < 0.9 else str(number(rng))
    if kind == "bool":
        return rng.random() < 0.5 if rng.random() < 0.9 else "true"
    raise ValueError(kind)


def maybe_wrap(rng, value):
    r = rng.random()
    if r < 0.03:
        return UNKNOWN
    if r < 0.06:
        return dict(SECRET, plaintext=json.dumps(value))
    return value


# Each shape is (a generator of values, the type in each language).
def shapes():
    def strings(rng):
        return [maybe_wrap(rng, scalar(rng, "string")) for _ in range(rng.randint(0, 5))]

    def tags(rng):
        return {word(rng): scalar(rng, "string") for _ in range(rng.randint(0, 5))}

    def record(rng):
        v = {"name": scalar(rng, "string"), "port": scalar(rng, "number"),
             "enabled": scalar(rng, "bool")}
        if rng.random() < 0.1:
            del v["port"]
        if rng.random() < 0.1:
            v["extra"] = 1
        return v

    def num(rng):
        return maybe_wrap(rng, scalar(rng, "number"))

    return [
        (strings, {
            "pulumi": "Array<Input<String>>",
            "pulumi-schema": {"type": "array", "items": {"type": "string"}},
            "pcl": "list(string)",
            "cty": ["list", "string"],
            "terraform": "list(string)",
            "puppet": "Array[String]",
        }),
        (tags, {
            "pulumi": "Map<String>",
            "pulumi-schema": {"type": "object", "additionalProperties": {"type": "string"}},
            "pcl": "map(string)",
            "cty": ["map", "string"],
            "terraform": "map(string)",
            "puppet": "Hash[String, String]",
        }),
        (record, {
            "pulumi": 'Object<"name", String, "port", Union<Number, Null>, "enabled", Bool>',
            "pulumi-schema": {"$ref": "#/types/command:remote:Connection"},
            "pcl": "object({name = string, port = optional(number), enabled = bool})",
            "cty": ["object", {"name": "string", "port": "number", "enabled": "bool"}],
            "terraform": "object({name = string, port = optional(number, 22), enabled = bool})",
            "puppet": "Struct[{name => String, Optional[port] => Numeric, enabled => Boolean}]",
        }),
        (num, {
            "pulumi": "Output<Number>",
            "pulumi-schema": {"type": "number"},
            "pcl": "number",
            "cty": "number",
            "terraform": "number",
            "puppet": "Numeric",
        }),
    ]


SYSTEMS = ["pulumi", "pulumi-schema", "pcl", "cty", "terraform", "puppet"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--systems", default=",".join(SYSTEMS),
                    help="comma-separated languages (default: all six)")
    args = ap.parse_args()
    systems = [s for s in args.systems.split(",") if s]
    for s in systems:
        if s not in SYSTEMS:
            sys.exit("unknown system: " + s)
    rng = random.Random(args.seed)
    pool = shapes()
    out = sys.stdout
    for i in range(args.count):
        system = systems[i % len(systems)]
        gen, types = pool[rng.randrange(len(pool))]
        value = gen(rng)
        if system == "pulumi-schema" and isinstance(value, dict) and "name" in value:
            value = {"host": value["name"], "port": value.get("port", 22), "user": "u"}
        out.write(json.dumps({"system": system, "type": types[system], "value": value},
                             separators=(",", ":")))
        out.write("\n")


if __name__ == "__main__":
    main()
