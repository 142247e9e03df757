#!/usr/bin/env python3
"""Writes the state.json of each golden case of `pstate verify --schema`.

The states use the real package schemas of fixtures/package-schemas/
(random, tls, command, docker-build) and the test schemas of
fixtures/schemas/. Run it from anywhere; it rewrites the files in place and
is deterministic. Ciphertexts are random-looking bytes of the right shape
(no passphrase decrypts them).
"""
import base64
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SIG = "4dabf18193072939515e22adb298388d"
SECRET = "1b47061264138c4ac30d75fd1eb44270"
UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
STACK = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"


def secret(value):
    return {SIG: SECRET, "plaintext": json.dumps(value, separators=(",", ":"))}


def ciphertext(n, seed):
    nonce = bytes((seed * 7 + i) % 256 for i in range(12))
    body = bytes((seed * 13 + i * 5) % 256 for i in range(n + 16))
    return {SIG: SECRET, "ciphertext": "v1:%s:%s" % (
        base64.b64encode(nonce).decode(), base64.b64encode(body).decode())}


def provider(pkg, version="4.16.0", name=None, inputs=None):
    name = name or "default_" + version.replace(".", "_")
    ins = {"version": version}
    ins.update(inputs or {})
    return {"urn": "urn:pulumi:dev::proj::pulumi:providers:%s::%s" % (pkg, name),
            "custom": True, "id": "%08d-0000-4000-8000-000000000000" % (len(name) * 1000 + len(pkg)),
            "type": "pulumi:providers:" + pkg, "inputs": ins, "outputs": dict(ins)}


def resource(type_, name, inputs, outputs, prov, id_=None, custom=True):
    r = {"urn": "urn:pulumi:dev::proj::%s::%s" % (type_, name), "custom": custom}
    if custom:
        r["id"] = id_ or name + "-id"
    r["type"] = type_
    if inputs is not None:
        r["inputs"] = inputs
    if outputs is not None:
        r["outputs"] = outputs
    r["parent"] = STACK
    if prov is not None:
        r["provider"] = prov["urn"] + "::" + prov["id"]
    return r


def state(resources):
    return {"version": 3, "deployment": {
        "manifest": {"time": "2024-04-11T18:59:41.328482004-08:00",
                     "magic": "3ff53efef69f38d19e364655131bbb113e416d3bf64bfb819065fa12acb29250",
                     "version": "v3.100.0"},
        "secrets_providers": {"type": "passphrase", "state": {
            "salt": "v1:0R5FEMh1Cg4=:v1:Tn91ns9v+HuQwtN/:jW3GLYF3x1SRfX9yiNC0J+Y84zvLIg=="}},
        "resources": [{"urn": STACK, "custom": False, "type": "pulumi:pulumi:Stack"}] + resources}}


def write(case, resources, pending=None):
    d = os.path.join(HERE, case)
    os.makedirs(d, exist_ok=True)
    doc = state(resources)
    if pending is not None:
        doc["deployment"]["pending_operations"] = pending
    with open(os.path.join(d, "state.json"), "w") as f:
        json.dump(doc, f, indent=4, ensure_ascii=False)
        f.write("\n")


def password_outputs(**over):
    o = {"__meta": "{\"schema_version\":\"3\"}", "bcryptHash": secret("$2a$10$abcdefghijklmnopqrstuv"),
         "id": "none", "keepers": {"rotation": "1"}, "length": 16, "lower": True, "minLower": 0,
         "minNumeric": 0, "minSpecial": 0, "minUpper": 0, "number": True, "numeric": True,
         "overrideSpecial": "_%@", "result": secret("xyzxyzxyzxyzxyzx"), "special": True, "upper": True}
    o.update(over)
    return o


def password_inputs(**over):
    i = {"__defaults": [], "keepers": {"rotation": "1"}, "length": 16, "overrideSpecial": "_%@"}
    i.update(over)
    return i


def random_ok():
    p = provider("random")
    return [p,
            resource("random:index/randomPassword:RandomPassword", "db", password_inputs(), password_outputs(), p),
            resource("random:index/randomInteger:RandomInteger", "port",
                     {"__defaults": [], "max": 65535, "min": 1024, "seed": "s"},
                     {"id": "4242", "max": 65535, "min": 1024, "result": 4242, "seed": "s"}, p),
            resource("random:index/randomPet:RandomPet", "pet", {"__defaults": ["length", "separator"], "length": 2},
                     {"id": "happy-cat", "length": 2, "separator": "-"}, p)]


def tls_ok():
    p = provider("tls", "5.0.0", inputs={"proxy": {"fromEnv": True}})
    return [p, resource("tls:index/privateKey:PrivateKey", "key", {"algorithm": "ECDSA", "ecdsaCurve": "P256"},
                        {"algorithm": "ECDSA", "ecdsaCurve": "P256", "id": "abc",
                         "privateKeyOpenssh": secret("-----BEGIN OPENSSH PRIVATE KEY-----"),
                         "privateKeyPem": ciphertext(40, 1), "privateKeyPemPkcs8": ciphertext(40, 2),
                         "publicKeyFingerprintMd5": "aa:bb", "publicKeyFingerprintSha256": "SHA256:x",
                         "publicKeyOpenssh": "ecdsa-sha2-nistp256 AAAA", "publicKeyPem": "-----BEGIN PUBLIC KEY-----",
                         "rsaBits": 2048}, p)]


def command_ok():
    p = provider("command", "1.0.1")
    conn = {"host": "10.0.0.5", "port": 22, "user": "admin", "privateKey": "-----BEGIN KEY-----",
            "dialErrorLimit": 10, "perDialTimeout": 15, "proxy": {"host": "bastion", "port": 22}}
    return [p,
            resource("command:local:Command", "build", {"create": "make", "environment": {"CC": "gcc"},
                                                        "triggers": ["a", 1], "interpreter": ["/bin/sh", "-c"]},
                     {"create": "make", "environment": {"CC": "gcc"}, "triggers": ["a", 1],
                      "interpreter": ["/bin/sh", "-c"], "stdout": "ok", "stderr": "", "id": "build-1"}, p),
            resource("command:remote:Command", "deploy", {"connection": secret(conn), "create": "systemctl restart app"},
                     {"connection": secret(conn), "create": "systemctl restart app", "stdout": "", "stderr": "",
                      "id": "deploy-1"}, p)]


def docker_ok():
    p = provider("docker-build", "0.0.7", inputs={"host": ""})
    ins = {"push": True, "tags": ["registry.example.com/app:1.2"], "platforms": ["linux/amd64", "linux/arm64"],
           "context": {"location": "./app"}, "dockerfile": {"location": "./app/Dockerfile"},
           "buildArgs": {"VERSION": "1.2"}, "network": "default",
           "registries": [{"address": "registry.example.com", "username": "ci", "password": secret("hunter2")}]}
    outs = dict(ins)
    outs.update({"digest": "sha256:0123", "contextHash": "abcd", "ref": "registry.example.com/app@sha256:0123",
                 "id": "sha256:0123"})
    return [p, resource("docker-build:index:Image", "app", ins, outs, p)]


def main():
    write("ok-random", random_ok())
    write("ok-tls", tls_ok())
    write("ok-command", command_ok())
    write("ok-docker-build", docker_ok())

    # Every kind of type error, nested ones included.
    rp = provider("random")
    cp = provider("command", "1.0.1")
    dp = provider("docker-build", "0.0.7")
    bad_conn = {"host": "10.0.0.5", "port": "twenty-two", "proxy": {"host": 5, "port": 22}}
    type_errors = [
        rp, cp, dp,
        resource("random:index/randomPassword:RandomPassword", "db",
                 password_inputs(length="16", keepers={"rotation": 1, "owner": "me"}),
                 password_outputs(minLower=1.5, minUpper=3000000000, lower="yes"), rp),
        resource("command:local:Command", "build", {"create": "make", "interpreter": ["/bin/sh", 7]},
                 {"create": "make", "interpreter": ["/bin/sh", 7], "stdout": "", "stderr": "",
                  "environment": {"A": ["x"]}}, cp),
        resource("command:remote:Command", "deploy", {"connection": secret(bad_conn)},
                 {"connection": secret(bad_conn), "stdout": "", "stderr": ""}, cp),
        resource("docker-build:index:Image", "app",
                 {"push": "yes", "platforms": ["linux/amd64", "plan9/68k"], "network": "bridge", "tags": [1]},
                 {"push": True, "digest": "d", "contextHash": "c", "ref": "r", "context": {"location": 5}}, dp),
    ]
    write("schema-type", type_errors)

    required = [
        rp, cp,
        resource("random:index/randomPassword:RandomPassword", "db",
                 {"__defaults": [], "special": True},
                 password_outputs(result=None, bcryptHash=None), rp),
        resource("random:index/randomInteger:RandomInteger", "port", None, None, rp),
        resource("command:remote:Command", "deploy", {"connection": {"port": 22, "proxy": {"port": 22}}},
                 {"connection": secret({"port": 22}), "stderr": ""}, cp),
    ]
    for r in required:
        if r["type"] == "command:remote:Command":
            r["inputs"]["connection"] = secret(r["inputs"]["connection"])
    write("schema-required", required)

    unknown = [
        rp, dp,
        resource("random:index/randomPet:RandomPet", "pet",
                 {"__defaults": [], "length": 2, "colour": "red"},
                 {"__meta": "{}", "id": "x", "length": 2, "separator": "-", "legacyName": "cat"}, rp),
        resource("docker-build:index:Image", "app",
                 {"push": False, "context": {"location": "./app", "shallow": True}},
                 {"push": False, "digest": "d", "contextHash": "c", "ref": "r",
                  "context": {"location": "./app", "shallow": True},
                  "registries": [{"address": "r", "username": "u", "token": secret("t")}]}, dp),
    ]
    write("schema-property-unknown", unknown)

    secrets = [
        rp, cp,
        # Plaintext where the schema says secret.
        resource("random:index/randomPassword:RandomPassword", "plain", password_inputs(),
                 password_outputs(result="xyzxyzxyzxyzxyzx", bcryptHash="$2a$10$abcdefghijklmnopqrstuv"), rp),
        # Secrets whose plaintext fits, and one whose plaintext does not.
        resource("random:index/randomPassword:RandomPassword", "wrapped",
                 password_inputs(length=secret(16), keepers=secret({"rotation": "2"})),
                 password_outputs(length=secret("sixteen"), result=secret(42)), rp),
        # A secret: true property nested in an object type, stored in plaintext.
        resource("command:remote:Command", "deploy",
                 {"connection": secret({"host": "h", "password": "pw"})},
                 {"connection": {"host": "h", "password": "pw", "privateKey": secret("k")},
                  "stdout": "", "stderr": ""}, cp),
    ]
    write("schema-secret-plaintext", secrets)

    cipher = [
        rp,
        resource("random:index/randomPassword:RandomPassword", "db",
                 password_inputs(length=UNKNOWN, keepers=ciphertext(20, 3)),
                 password_outputs(result=ciphertext(16, 4), bcryptHash=ciphertext(60, 5), length=UNKNOWN,
                                  keepers=UNKNOWN), rp),
        resource("random:index/randomInteger:RandomInteger", "port", {"max": UNKNOWN, "min": 1},
                 {"id": UNKNOWN, "max": UNKNOWN, "min": 1, "result": UNKNOWN}, rp),
    ]
    write("ciphertext-and-unknowns", cipher)

    write("schema-resource-unknown", [
        rp,
        resource("random:index/randomThing:RandomThing", "gone", {"length": 1}, {"id": "x"}, rp),
        resource("random:index/randomPet:RandomPet", "pet", {}, {"id": "x", "length": 2, "separator": "-"}, rp),
    ])

    ap = provider("aws", "6.0.0")
    write("schema-package-missing", [
        ap, rp,
        resource("aws:s3/bucket:Bucket", "logs", {"bucket": "logs"}, {"bucket": "logs", "id": "logs"}, ap),
        resource("aws:s3/bucket:Bucket", "site", {"bucket": "site"}, {"bucket": "site", "id": "site"}, ap),
        resource("my:web:Site", "site", {}, {}, None, custom=False),
        resource("random:index/randomPet:RandomPet", "pet", {}, {"id": "x", "length": 2, "separator": "-"}, rp),
    ])

    write("gzip-schema", tls_ok())

    p15 = provider("random", "4.15.0")
    p16 = provider("random", "4.16.0")
    p17 = provider("random", "4.17.0")
    write("two-versions", [
        p15, p16, p17,
        resource("random:index/randomPassword:RandomPassword", "old", password_inputs(numeric=True),
                 password_outputs(), p15),
        resource("random:index/randomPassword:RandomPassword", "new", password_inputs(numeric=True),
                 password_outputs(), p16),
        resource("random:index/randomPassword:RandomPassword", "newer", password_inputs(numeric=True),
                 password_outputs(), p17),
        resource("random:index/randomPassword:RandomPassword", "newest", password_inputs(numeric=True),
                 password_outputs(), p17),
    ])

    dgp = provider("dangle", "1.0.0")
    write("schema-ref-invalid", [
        dgp,
        resource("dangle:index:Widget", "a", {"settings": {"mode": "fast", "size": "big"}, "count": 1},
                 {"settings": {"mode": "fast", "size": 1}, "count": 1}, dgp),
        resource("dangle:index:Widget", "b", {"settings": {"mode": 3}}, {}, dgp),
    ])

    write("component", [
        resource("comp:index:StaticSite", "site", {"domain": "example.com", "replicas": 2, "tags": {"team": "web"}},
                 {"url": "https://example.com"}, None, custom=False),
        resource("comp:index:StaticSite", "broken", {"replicas": "two", "tags": {"team": 1}}, {}, None,
                 custom=False),
    ])

    tp = provider("tls", "5.0.0", name="custom", inputs={"proxy": {"url": 5, "fromEnv": "yes"}, "region": "x"})
    write("provider-inputs", [
        tp,
        resource("tls:index/privateKey:PrivateKey", "key", {"algorithm": "RSA"},
                 {"algorithm": "RSA", "ecdsaCurve": "P224", "privateKeyOpenssh": secret("k"),
                  "privateKeyPem": secret("k"), "privateKeyPemPkcs8": secret("k"),
                  "publicKeyFingerprintMd5": "m", "publicKeyFingerprintSha256": "s",
                  "publicKeyOpenssh": "o", "publicKeyPem": "p", "rsaBits": 2048}, tp),
    ])

    # Pending operations: their resources are checked too. A create that
    # stopped before the provider answered has no outputs (not checked); a
    # delete's outputs are.
    pp = provider("random")
    write("pending-operations", [pp], pending=[
        {"resource": resource("random:index/randomPassword:RandomPassword", "creating",
                              password_inputs(length="sixteen", colour="red"), None, pp),
         "type": "creating"},
        {"resource": resource("random:index/randomInteger:RandomInteger", "deleting",
                              {"__defaults": [], "min": 1024, "seed": "s"},
                              {"id": "4242", "max": 65535, "min": 1024, "result": "4242", "seed": "s"}, pp),
         "type": "deleting"},
        {"resource": resource("random:index/randomPet:RandomPet", "updating",
                              {"__defaults": ["length", "separator"], "length": 2}, {}, pp),
         "type": "updating"},
    ])

    # The schema features the real schemas do not use (synth.schema.json):
    # const, unions with and without a discriminator mapping, integer /
    # number / boolean enums, a token type, plain, resource-typed
    # properties; secrets whose plaintext fits, does not fit, or is not
    # JSON; the provider's required input.
    sp = provider("synth", "0.0.1", inputs={"region": "eu"})
    good_pet = {"name": "rex", "animal": {"kind": "dog", "good": True},
                "anyAnimal": {"kind": "cat", "lives": 9}, "size": 10, "weight": 1.5,
                "flag": True, "tag": "t", "version": 2,
                "owner": {SIG: "5cf8f73096256a8f31e491e813e4eb8e", "urn":
                          "urn:pulumi:dev::proj::synth:index:Owner::ann", "id": "ann-id"}}
    bad_pet = {"name": UNKNOWN, "animal": {"kind": "cow"}, "anyAnimal": {"kind": "dog", "good": "yes"},
               "size": 5, "weight": 3, "flag": False, "tag": 7, "version": 3,
               "owner": "ann"}
    write("schema-type-synth", [
        sp,
        resource("synth:index:Owner", "ann", {"name": "ann"},
                 {"name": "ann", "pets": [good_pet, secret(good_pet)]}, sp),
        resource("synth:index:Owner", "bob", {"name": secret(5)},
                 {"name": "bob", "pets": [bad_pet, {"name": "x", "animal": {"good": True}},
                                          {SIG: SECRET, "plaintext": "{not json"}]}, sp),
        resource("pulumi:providers:synth", "regionless", {"version": "0.0.1"}, {}, None),
    ])


if __name__ == "__main__":
    main()
