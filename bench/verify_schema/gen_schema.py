#!/usr/bin/env python3
"""gen_schema.py: package schemas for the packages of a generated state.

`pstate verify --schema` needs the schemas of the packages a state uses.
The bench states (/work/shared/bench/gen_state.py) use aws, kubernetes,
random, tls and command. Real schemas of random, tls and command ship in
fixtures/package-schemas/; aws and kubernetes have none here (the real ones
are 100+ MB and 3+ MB), so this script writes one per package, inferred from
the resources of a (small) generated state of the same generator:

  * every property seen becomes a property spec of the type its values
    have (boolean, integer, number, string; arrays by their items; objects
    as named object types in "types", recursively; a property seen with
    values of different kinds becomes pulumi.json#/Any);
  * properties present and never null in every instance are required;
    secret-wrapped values are looked through (secret: true when every
    value seen was a secret).

  python3 bench/verify_schema/gen_schema.py STATE OUTDIR [PACKAGE...]

writes OUTDIR/<package>.schema.json for the packages named (default: the
packages of the state that have no schema in fixtures/package-schemas/).
"""
import json
import os
import sys

SIG = "4dabf18193072939515e22adb298388d"
SECRET = "1b47061264138c4ac30d75fd1eb44270"
UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
REAL = {"random", "tls", "command", "docker-build"}


class Infer:
    def __init__(self, package):
        self.package = package
        self.types = {}

    def kind(self, v):
        if isinstance(v, dict) and v.get(SIG) == SECRET:
            if "plaintext" in v:
                return self.kind(json.loads(v["plaintext"]))
            return None
        if isinstance(v, dict) and SIG in v:
            return ("any",)
        if v is None or v == UNKNOWN:
            return None
        if isinstance(v, bool):
            return ("boolean",)
        if isinstance(v, int):
            return ("integer",) if -2**31 <= v < 2**31 else ("number",)
        if isinstance(v, float):
            return ("number",)
        if isinstance(v, str):
            return ("string",)
        if isinstance(v, list):
            return ("array",)
        return ("object",)

    def merge(self, spec, v, name):
        """spec: dict being built for one property; v: one value."""
        secret = isinstance(v, dict) and v.get(SIG) == SECRET
        spec["_values"] = spec.get("_values", 0) + 1
        if secret:
            spec["_secrets"] = spec.get("_secrets", 0) + 1
            if "plaintext" not in v:
                return
            v = json.loads(v["plaintext"])
        if v is None:
            spec["_null"] = True
        k = self.kind(v)
        if k is None:
            return
        k = k[0]
        have = spec.get("_kind")
        if have is None:
            spec["_kind"] = k
        elif have != k:
            if {have, k} == {"integer", "number"}:
                spec["_kind"] = "number"
            else:
                spec["_kind"] = "any"
            return
        if spec["_kind"] == "array":
            items = spec.setdefault("_items", {})
            for e in v:
                self.merge(items, e, name + "Item")
        elif spec["_kind"] == "object":
            obj = spec.setdefault("_object", {"count": 0, "props": {}})
            self.merge_object(obj, v, name)

    def merge_object(self, obj, v, name):
        obj["count"] += 1
        for key, value in v.items():
            p = obj["props"].setdefault(key, {"_seen": 0})
            p["_seen"] += 1
            self.merge(p, value, name + key[:1].upper() + key[1:])

    def emit(self, spec, name):
        k = spec.get("_kind")
        out = {}
        if spec.get("_values") and spec.get("_secrets") == spec.get("_values"):
            out["secret"] = True
        if k in (None, "any"):
            out["$ref"] = "pulumi.json#/Any"
        elif k == "array":
            out["type"] = "array"
            out["items"] = self.emit(spec.get("_items", {}), name + "Item")
        elif k == "object":
            token = "%s:index/%s:%s" % (self.package, name[:1].lower() + name[1:], name)
            self.types[token] = self.emit_object(spec["_object"], name, "properties", "required")
            out["$ref"] = "#/types/" + token
        else:
            out["type"] = k
        return out

    def emit_object(self, obj, name, props_key, required_key):
        props = {}
        required = []
        for key, p in sorted(obj["props"].items()):
            if key.startswith("__"):
                continue
            props[key] = self.emit(p, name + key[:1].upper() + key[1:])
            if p["_seen"] == obj["count"] and not p.get("_null"):
                required.append(key)
        out = {"type": "object", props_key: props}
        if required:
            out[required_key] = required
        return out


def main():
    state_path, outdir = sys.argv[1], sys.argv[2]
    wanted = set(sys.argv[3:])
    with open(state_path, encoding="utf-8") as f:
        doc = json.load(f)
    dep = doc.get("deployment") or doc["checkpoint"]["latest"]
    by_type = {}
    for r in dep["resources"]:
        t = r["type"]
        pkg = t.split(":")[0]
        if pkg == "pulumi":
            if t.startswith("pulumi:providers:"):
                pkg = t[len("pulumi:providers:"):]
            else:
                continue
        if wanted and pkg not in wanted:
            continue
        if not wanted and pkg in REAL:
            continue
        by_type.setdefault((pkg, t), []).append(r)
    packages = {}
    for (pkg, t), rs in sorted(by_type.items()):
        inf = packages.setdefault(pkg, (Infer(pkg), {}, {}))
        infer, resources, provider = inf
        name = t.split(":")[-1]
        ins = {"count": 0, "props": {}}
        outs = {"count": 0, "props": {}}
        for r in rs:
            infer.merge_object(ins, r.get("inputs") or {}, name + "Args")
            o = dict(r.get("outputs") or {})
            o.pop("id", None)
            infer.merge_object(outs, o, name)
        i = infer.emit_object(ins, name + "Args", "inputProperties", "requiredInputs")
        o = infer.emit_object(outs, name, "properties", "required")
        spec = {"inputProperties": i["inputProperties"], "properties": o["properties"]}
        if "requiredInputs" in i:
            spec["requiredInputs"] = i["requiredInputs"]
        if "required" in o:
            spec["required"] = o["required"]
        if t.startswith("pulumi:providers:"):
            provider.update(spec)
        else:
            resources[t] = spec
    os.makedirs(outdir, exist_ok=True)
    for pkg, (infer, resources, provider) in sorted(packages.items()):
        schema = {"name": pkg,
                  "description": "Inferred by bench/verify_schema/gen_schema.py from " +
                                 os.path.basename(state_path),
                  "provider": provider, "resources": resources, "types": infer.types}
        with open(os.path.join(outdir, pkg + ".schema.json"), "w") as f:
            json.dump(schema, f, indent=2, sort_keys=True)
        print("%s: %d resources, %d types" % (pkg, len(resources), len(infer.types)))


if __name__ == "__main__":
    main()
