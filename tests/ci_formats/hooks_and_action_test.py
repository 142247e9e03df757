#!/usr/bin/env python3
"""Checks action.yml and .pre-commit-hooks.yaml against the essentials of
their formats (action.schema.json, pre-commit-hooks.schema.json here), then
runs the pre-commit hooks as pre-commit runs them (each hook's `files`
regex picks the staged files; entry + args + file names, from the
repository root) on a scratch repository with checkpoints and exports under
the names people give them, one export under a name that says nothing, a
JSON file that is not a state, a committed baseline and a .pstateignore.
Run by ctest (pstate_hooks_and_action_check).

Usage: hooks_and_action_test.py PSTATE SOURCE_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import jsonschema
    import yaml
except ImportError as e:
    if os.environ.get("CI") == "true":
        print(f"FAILED: {e} (scripts/lib.sh installs python3-jsonschema and python3-yaml)")
        sys.exit(1)
    print(f"SKIPPED: {e}; install python3-jsonschema and python3-yaml")
    sys.exit(77)

pstate, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(source, "fixtures")
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)


for document, schema in (("action.yml", "action.schema.json"),
                         (".pre-commit-hooks.yaml", "pre-commit-hooks.schema.json")):
    with open(os.path.join(source, document)) as f:
        data = yaml.safe_load(f)
    with open(os.path.join(here, schema)) as f:
        validator = jsonschema.Draft7Validator(json.load(f))
    errors = list(validator.iter_errors(data))
    for e in errors[:5]:
        print(f"  {document}: {e.json_path}: {e.message}")
    check(not errors, f"{document} matches {schema}")

# Every ${{ inputs.X }} and ${{ steps.Y.outputs.Z }} in action.yml names a
# declared input and an earlier step.
with open(os.path.join(source, "action.yml")) as f:
    text = f.read()
action = yaml.safe_load(text)
inputs = set(action.get("inputs", {}))
used_inputs = set(re.findall(r"inputs\.([A-Za-z0-9_-]+)", text))
check(used_inputs <= inputs, f"action.yml uses only declared inputs ({sorted(used_inputs - inputs)})")
step_ids = [s.get("id") for s in action["runs"]["steps"]]
used_steps = set(re.findall(r"steps\.([A-Za-z0-9_-]+)\.outputs", text))
check(used_steps <= set(step_ids), f"action.yml reads only its own steps ({sorted(used_steps - set(step_ids))})")
for step in action["runs"]["steps"]:
    if "run" in step:
        r = subprocess.run(["bash", "-n"], input=step["run"], text=True, capture_output=True)
        check(r.returncode == 0, f"action step '{step.get('name', step.get('id'))}' is valid bash {r.stderr.strip()}")

# --- the pre-commit hooks on a scratch repository ---------------------------
with open(os.path.join(source, ".pre-commit-hooks.yaml")) as f:
    hooks = {h["id"]: h for h in yaml.safe_load(f)}
repo = tempfile.mkdtemp(prefix="pstate-hooks-")
try:
    def put(name, src):
        path = os.path.join(repo, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copyfile(os.path.join(fixtures, src), path)

    # A pending operation (a warning) and an export with an error in every
    # naming.
    invalid = "states/invalid/057-secrets-provider-missing.json"
    put(".pulumi/stacks/app/dev.json", "states/valid/pending-create.json")
    put(".pulumi/stacks/app/dev.json.bak", invalid)
    put("infra/stack.json", invalid)
    put("prod-stack.json", invalid)
    put("old.checkpoint.json", "states/valid/checkpoint-compact.json")
    put("exports/2024-05-01.json", invalid)  # a name that says nothing
    put("exports/leaks-2024.json", "scan/leaks.json")
    with open(os.path.join(repo, "package.json"), "w") as f:
        f.write('{"name": "infra", "version": "1.0.0"}\n')
    staged = []
    for dirpath, _, names in os.walk(repo):
        for n in names:
            staged.append(os.path.relpath(os.path.join(dirpath, n), repo))
    staged.sort()

    env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(pstate)) + os.pathsep + os.environ["PATH"])
    env["NO_COLOR"] = "1"

    def run_hook(hook_id, extra_args=()):
        hook = hooks[hook_id]
        files = [s for s in staged if re.search(hook.get("files", ""), s)
                 and not (hook.get("exclude") and re.search(hook["exclude"], s))]
        entry = hook["entry"].split()
        if hook["language"] == "script":
            entry[0] = os.path.join(source, entry[0])
        command = entry + list(hook.get("args", [])) + list(extra_args) + files
        r = subprocess.run(command, cwd=repo, env=env, text=True, capture_output=True)
        return r, files

    r, files = run_hook("pstate-verify")
    out = r.stdout + r.stderr
    check("package.json" in files and "package.json" not in out,
          "verify: package.json (not a state) is passed by pre-commit but not checked")
    check(".pulumi/stacks/app/dev.json.bak" not in files, "verify: .bak backups are not matched")
    for name in ("infra/stack.json", "prod-stack.json", "old.checkpoint.json",
                 ".pulumi/stacks/app/dev.json", "exports/2024-05-01.json"):
        check(name + ":" in out, f"verify: checks {name}")
    check(r.returncode == 1, f"verify: exit 1 on the invalid exports (got {r.returncode})")

    # A committed baseline accepts today's findings: the hook passes.
    with open(os.path.join(repo, "pstate-baseline.json"), "w") as f:
        subprocess.run([pstate, "verify", "--format", "json", "--fail-on", "never"] +
                       [s for s in staged if s.endswith(".json") and s != "package.json"
                        and not s.startswith("exports/leaks")],
                       cwd=repo, env=env, stdout=f, check=True)
    r, _ = run_hook("pstate-verify")
    check(r.returncode == 0, f"verify: the committed pstate-baseline.json is used (exit {r.returncode}: {r.stdout[-300:]})")
    r, _ = run_hook("pstate-verify", ["--baseline=/dev/null"])
    check(r.returncode != 0, "verify: --baseline= in args replaces the committed one")

    r, _ = run_hook("pstate-scan")
    check(r.returncode == 1 and "exports/leaks-2024.json:" in r.stdout,
          f"scan: finds the plaintext secrets of an export named by date (exit {r.returncode})")
    secrets = [l.strip() for l in open(os.path.join(fixtures, "scan", "plaintexts.txt")) if l.strip()]
    check(not any(s in r.stdout + r.stderr for s in secrets), "scan: prints no secret")
    # .pstateignore next to the export accepts its findings.
    report = subprocess.run([pstate, "scan", "--format", "json", "--fail-on", "never",
                             "exports/leaks-2024.json"], cwd=repo, env=env, text=True,
                            capture_output=True).stdout
    fingerprints = [f["fingerprint"] for line in report.splitlines() for f in json.loads(line)["findings"]]
    with open(os.path.join(repo, "exports", ".pstateignore"), "w") as f:
        f.write("".join(fp + "  # accepted\n" for fp in fingerprints))
    r, _ = run_hook("pstate-scan")
    check(r.returncode == 0, f"scan: .pstateignore is honoured (exit {r.returncode}: {r.stdout[-300:]})")
finally:
    shutil.rmtree(repo)

if failures:
    print(f"FAILED: {len(failures)} check(s)")
    sys.exit(1)
print("PASSED: action.yml, .pre-commit-hooks.yaml and the hooks")
