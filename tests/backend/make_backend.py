#!/usr/bin/env python3
"""Builds realistic Pulumi DIY backend trees for the history tests.

Names, layouts and file contents follow Pulumi's pkg/backend/diy code:
  .pulumi/meta.yaml                         "version: 1" = project layout
  .pulumi/stacks/[<project>/]<stack>.json[.gz|.zst]   compact checkpoint
  <checkpoint>.bak                          the checkpoint before the last save
  .pulumi/history/[<project>/]<stack>/<name>-<unixnano>.history.json[...]
      backend.UpdateInfo (pkg/backend/updates.go)
  .pulumi/history/[<project>/]<stack>/<name>-<unixnano>.checkpoint.json[...]
  .pulumi/backups/[<project>/]<stack>/<stack>.<unixnano>.json[...]
  .pulumi/locks/organization/<project>/<stack>/<lockid>.json   (lock.go)

Trees (python3 make_backend.py OUT_DIR):
  OUT_DIR/project  project layout: web/dev (5 updates: a failed one without
                   a checkpoint copy, a secret that changes, a deleted
                   resource, backups and a .bak), web/prod (renamed from
                   "staging" between updates: older files keep the old
                   name and URNs), web/locked (a lock file)
  OUT_DIR/legacy   legacy layout: app (gzip checkpoints and history files)
                   and, when the `zstd` program exists, zapp (zstd)

Everything is deterministic (fixed times, gzip mtime 0), so the output can
be committed as fixtures: `make_backend.py --check DIR` regenerates into a
temporary directory and compares decoded contents (exit 1 on a difference).
"""
import base64
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

SIG = "4dabf18193072939515e22adb298388d"
SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270"
PULUMI_VERSION = "v3.140.0"
BASE_NANO = 1795600000 * 10**9  # 2026-11-25T09:46:40Z
HOUR = 3600 * 10**9


def rfc3339(nano):
    import datetime
    t = datetime.datetime.fromtimestamp(nano // 10**9, datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def compact(value):
    # Go's json.Marshal without HTML escaping (compactJSONMarshaler).
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def secret(value):
    # The b64 secrets provider: base64 of the value's JSON text.
    text = json.dumps(value, separators=(",", ":"))
    return {SIG: SECRET_SIG,
            "ciphertext": base64.b64encode(text.encode()).decode()}


class Stack:
    def __init__(self, project, name, id_name=None):
        self.project = project
        self.name = name
        # Cloud IDs do not change when the stack is renamed.
        self.id_name = id_name or name

    def urn(self, typ, res):
        return "urn:pulumi:%s::%s::%s::%s" % (self.name, self.project or "app",
                                              typ, res)

    def checkpoint(self, resources, nano, times=None):
        """`times`: resource name -> (created, modified) Unix nanoseconds;
        Pulumi changes `modified` only when the resource changes."""
        times = times or {}
        first = times.get("", (nano, nano))
        root = self.urn("pulumi:pulumi:Stack",
                        "%s-%s" % (self.project or "app", self.name))
        prov = self.urn("pulumi:providers:aws", "default_6_0_0")
        prov_ref = prov + "::3f1c5d2e-0000-4000-8000-000000000001"
        res = [{"urn": root, "custom": False, "type": "pulumi:pulumi:Stack",
                "created": rfc3339(first[0]), "modified": rfc3339(first[0])},
               {"urn": prov, "custom": True,
                "id": "3f1c5d2e-0000-4000-8000-000000000001",
                "type": "pulumi:providers:aws",
                "inputs": {"region": "us-east-1", "version": "6.0.0"},
                "outputs": {"region": "us-east-1", "version": "6.0.0"},
                "created": rfc3339(first[0]), "modified": rfc3339(first[0])}]
        for name, typ, inputs, extra in resources:
            outputs = dict(inputs)
            outputs.update(extra)
            created, modified = times.get(name, (nano, nano))
            res.append({"urn": self.urn(typ, name), "custom": True,
                        "id": "%s-%s" % (name, self.id_name), "type": typ,
                        "inputs": inputs, "outputs": outputs,
                        "parent": root, "provider": prov_ref,
                        "created": rfc3339(created),
                        "modified": rfc3339(modified)})
        qname = ("organization/%s/%s" % (self.project, self.name)
                 if self.project else self.name)
        magic = hashlib.sha256(PULUMI_VERSION.encode()).hexdigest()
        return {"version": 3, "checkpoint": {"stack": qname, "latest": {
            "manifest": {"time": rfc3339(nano), "magic": magic,
                         "version": PULUMI_VERSION},
            "secrets_providers": {"type": "b64", "state": {}},
            "resources": res, "metadata": {}}}}


def encode(data, compression):
    if compression == "gzip":
        return gzip.compress(data, mtime=0)
    if compression == "zstd":
        out = subprocess.run(["zstd", "-q", "-c", "-19"], input=data,
                             stdout=subprocess.PIPE, check=True)
        return out.stdout
    return data


EXT = {"none": "", "gzip": ".gz", "zstd": ".zst"}


def write(path, data, compression="none", suffix=""):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + EXT[compression] + suffix, "wb") as f:
        f.write(encode(data, compression))


def update_info(kind, result, message, nano, changes):
    start = nano // 10**9 - 42
    return {"kind": kind, "startTime": start, "message": message,
            "environment": {"exec.kind": "cli", "git.head": "%040x" % start},
            "config": {}, "result": result, "endTime": nano // 10**9,
            "resourceChanges": changes}


def play(root, stack, updates, compression="none", file_name=None,
         backups=True):
    """Writes each update as the DIY backend does: backup of the state
    before it, the new checkpoint (its predecessor kept as .bak), then the
    history record and, unless the update kept none, its checkpoint copy."""
    bk = os.path.join(root, ".pulumi")
    sub = [stack.project] if stack.project else []
    stacks_dir = os.path.join(bk, "stacks", *sub)
    current = os.path.join(stacks_dir, stack.name + ".json")
    hist = os.path.join(bk, "history", *sub, stack.name)
    back = os.path.join(bk, "backups", *sub, stack.name)
    previous = None
    times = {}  # name -> (created, modified, content)
    for i, u in enumerate(updates):
        nano = u.get("nano", BASE_NANO + (i + 1) * 24 * HOUR)
        name = u.get("name", file_name or stack.name)
        if previous is not None and backups:
            write(os.path.join(back, "%s.%d.json" % (stack.name, nano - HOUR)),
                  previous, compression)
        times.setdefault("", (nano, nano, None))
        for r in u["resources"]:
            old = times.get(r[0])
            if old is None:
                times[r[0]] = (nano, nano, r)
            elif old[2] != r:
                times[r[0]] = (old[0], nano, r)
        live = {k: v[:2] for k, v in times.items()}
        state = compact(stack.checkpoint(u["resources"], nano, live)).encode()
        if u.get("result", "succeeded") == "succeeded":
            if previous is not None:
                # <checkpoint file>.bak: "dev.json.gz.bak" when compressed.
                write(current, previous, compression, ".bak")
            write(current, state, compression)
            previous = state
        prefix = os.path.join(hist, "%s-%d" % (name, nano))
        info = update_info(u.get("kind", "update"),
                           u.get("result", "succeeded"), u["message"], nano,
                           u["changes"])
        write(prefix + ".history.json", compact(info).encode(), compression)
        if u.get("copy", True):
            write(prefix + ".checkpoint.json", previous, compression)


BUCKET = "aws:s3/bucket:Bucket"
PASSWORD = "random:index/randomPassword:RandomPassword"


def project_tree(root):
    os.makedirs(os.path.join(root, ".pulumi"), exist_ok=True)
    with open(os.path.join(root, ".pulumi", "meta.yaml"), "w") as f:
        f.write("version: 1\n")
    dev = Stack("web", "dev")
    logs_dev = ("logs", BUCKET, {"bucket": "logs-dev",
                                 "tags": {"env": "dev", "team": "web"}},
                {"arn": "arn:aws:s3:::logs-dev"})
    logs_stg = ("logs", BUCKET, {"bucket": "logs-dev",
                                 "tags": {"env": "staging", "team": "web"}},
                {"arn": "arn:aws:s3:::logs-dev"})
    site = ("site", BUCKET, {"bucket": "site-dev"},
            {"arn": "arn:aws:s3:::site-dev"})
    db1 = ("db", PASSWORD, {"length": 16}, {"result": secret("hunter2")})
    db2 = ("db", PASSWORD, {"length": 16}, {"result": secret("correct-horse")})
    play(root, dev, [
        {"message": "first deploy", "resources": [logs_dev, db1],
         "changes": {"create": 4}},
        {"message": "add the site bucket", "resources": [logs_dev, db1, site],
         "changes": {"create": 1, "same": 4}},
        {"message": "retag logs for staging", "resources": [logs_stg, db1,
                                                            site],
         "changes": {"update": 1, "same": 4}},
        {"message": "broken deploy", "result": "failed", "copy": False,
         "resources": [logs_stg, db1], "changes": {"delete": 1, "same": 3}},
        {"message": "drop the site, rotate the password",
         "resources": [logs_stg, db2],
         "changes": {"delete": 1, "replace": 1, "same": 3}},
    ])
    # web/prod was "staging" for its first two updates (pulumi stack
    # rename moves the history directory, not the files in it).
    staging = Stack("web", "staging")
    prod = Stack("web", "prod", id_name="staging")
    web = ("www", BUCKET, {"bucket": "www"}, {"arn": "arn:aws:s3:::www"})
    play(root, staging, [
        {"message": "create", "resources": [web], "changes": {"create": 3}},
        {"kind": "refresh", "message": "", "resources": [web],
         "changes": {"same": 3}},
    ], backups=False)
    bk = os.path.join(root, ".pulumi")
    os.makedirs(os.path.join(bk, "history", "web", "prod"), exist_ok=True)
    for f in sorted(os.listdir(os.path.join(bk, "history", "web",
                                            "staging"))):
        os.rename(os.path.join(bk, "history", "web", "staging", f),
                  os.path.join(bk, "history", "web", "prod", f))
    os.rmdir(os.path.join(bk, "history", "web", "staging"))
    os.remove(os.path.join(bk, "stacks", "web", "staging.json"))
    os.remove(os.path.join(bk, "stacks", "web", "staging.json.bak"))
    play(root, prod, [
        {"message": "after the rename", "resources": [web],
         "changes": {"same": 3}, "nano": BASE_NANO + 72 * HOUR},
    ], backups=False)
    locked = Stack("web", "locked")
    play(root, locked, [
        {"message": "first", "resources": [web], "changes": {"create": 3}},
        {"message": "second", "resources": [web, site],
         "changes": {"create": 1, "same": 3}},
    ], backups=False)
    lock = os.path.join(bk, "locks", "organization", "web", "locked",
                        "0b5c6b3e-1f6f-4e49-9d55-2c1c2b0f0b7e.json")
    os.makedirs(os.path.dirname(lock))
    with open(lock, "w") as f:
        f.write(compact({"pid": 4242, "username": "ci", "hostname": "runner",
                         "timestamp": "2026-11-28T09:00:00Z"}))


def legacy_tree(root):
    app = Stack("", "app")
    bucket = ("data", BUCKET, {"bucket": "data"}, {"arn": "arn:aws:s3:::data"})
    bucket2 = ("data", BUCKET, {"bucket": "data", "versioning": True},
               {"arn": "arn:aws:s3:::data"})
    play(root, app, [
        {"message": "create", "resources": [bucket], "changes": {"create": 3}},
        {"message": "versioning", "resources": [bucket2],
         "changes": {"update": 1, "same": 2}},
    ], compression="gzip")
    if shutil.which("zstd"):
        play(root, Stack("", "zapp"), [
            {"message": "create", "resources": [bucket],
             "changes": {"create": 3}},
            {"kind": "destroy", "message": "", "resources": [],
             "changes": {"delete": 3}},
        ], compression="zstd")


def build(out):
    project_tree(os.path.join(out, "project"))
    legacy_tree(os.path.join(out, "legacy"))


def decoded(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:3] == b"\x1f\x8b\x08":
        return gzip.decompress(data)
    if data[:4] == b"\x28\xb5\x2f\xfd":
        out = subprocess.run(["zstd", "-q", "-d", "-c"], input=data,
                             stdout=subprocess.PIPE, check=True)
        return out.stdout
    return data


def listing(root):
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            out[os.path.relpath(p, root)] = p
    return out


def check(committed):
    with tempfile.TemporaryDirectory() as tmp:
        build(tmp)
        want, got = listing(committed), listing(tmp)
        if not shutil.which("zstd"):
            want = {k: v for k, v in want.items() if "zapp" not in k}
        bad = sorted(set(want) ^ set(got))
        bad += [k for k in sorted(set(want) & set(got))
                if decoded(want[k]) != decoded(got[k])]
        for k in bad:
            print("differs: %s" % k)
        return 1 if bad else 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        return check(sys.argv[2])
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    if os.path.exists(sys.argv[1]):
        shutil.rmtree(sys.argv[1])
    build(sys.argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
