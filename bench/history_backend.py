#!/usr/bin/env python3
"""A DIY backend with one long-lived stack, for bench/history.sh.

usage: history_backend.py OUT_DIR UPDATES RESOURCES [CHANGED]

Writes OUT_DIR/.pulumi/stacks/bench/dev.json and, per update, the history
record and checkpoint copy Pulumi's DIY backend writes
(.pulumi/history/bench/dev/dev-<unixnano>.{history,checkpoint}.json).
Each update changes CHANGED resources (default 1% of them, at least 1):
one input of each, and its `modified` time. Resource i holds about 1 KiB,
so RESOURCES sets the size of each version (10000 ~ 10 MB).
"""
import json
import os
import sys

BASE = 1795600000  # 2026-11-25T09:46:40Z
TYPE = "aws:s3/bucket:Bucket"


def resource(i, rev):
    urn = "urn:pulumi:dev::bench::%s::b%d" % (TYPE, i)
    props = {"bucket": "b%d" % i, "rev": rev,
             "tags": {"k%d" % k: "v%d-%d" % (k, i) for k in range(20)}}
    return {"urn": urn, "custom": True, "id": "b%d" % i, "type": TYPE,
            "inputs": props, "outputs": props,
            "provider": "urn:pulumi:dev::bench::pulumi:providers:aws::"
                        "default::00000000-0000-4000-8000-000000000000"}


def main():
    out, updates, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    changed = int(sys.argv[4]) if len(sys.argv) > 4 else max(1, count // 100)
    hist = os.path.join(out, ".pulumi", "history", "bench", "dev")
    stacks = os.path.join(out, ".pulumi", "stacks", "bench")
    os.makedirs(hist, exist_ok=True)
    os.makedirs(stacks, exist_ok=True)
    with open(os.path.join(out, ".pulumi", "meta.yaml"), "w") as f:
        f.write("version: 1\n")
    revs = [0] * count
    provider = {"urn": "urn:pulumi:dev::bench::pulumi:providers:aws::default",
                "custom": True, "id": "00000000-0000-4000-8000-000000000000",
                "type": "pulumi:providers:aws"}
    for u in range(updates):
        for j in range(changed):
            revs[(u * changed + j) % count] += 1
        nano = (BASE + u * 3600) * 10**9
        state = {"version": 3, "checkpoint": {
            "stack": "organization/bench/dev",
            "latest": {"manifest": {"time": "2026-11-25T09:46:40Z",
                                    "magic": "", "version": ""},
                       "resources": [provider] +
                       [resource(i, revs[i]) for i in range(count)]}}}
        text = json.dumps(state, separators=(",", ":"))
        info = {"kind": "update", "result": "succeeded",
                "message": "update %d" % (u + 1), "startTime": nano // 10**9,
                "endTime": nano // 10**9 + 30,
                "resourceChanges": {"update": changed,
                                    "same": count + 1 - changed}}
        prefix = os.path.join(hist, "dev-%d" % nano)
        with open(prefix + ".history.json", "w") as f:
            json.dump(info, f, separators=(",", ":"))
        with open(prefix + ".checkpoint.json", "w") as f:
            f.write(text)
    with open(os.path.join(stacks, "dev.json"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
