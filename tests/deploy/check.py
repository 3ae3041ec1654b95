"""What deploy/kubernetes/ and workspace-image/ state, checked offline.

Usage:
  check.py manifests HELP_FILE   every check below; HELP_FILE holds `gloveboxd --help`
  check.py routed-mcp URL HOST   an MCP round as agent-sandbox's router delivers it: no
                                 Authorization (the router drops it), the token in URL's
                                 ?token=, the Host the router sends

Prints one JSON line; the Rust test (tests/integration/deploy.rs) asserts on it and starts the
real daemon with what `manifests` found (its flags, probes and Host names).

The checks: the core kinds (Namespace, Secret, Service, StatefulSet, NetworkPolicy, Role,
RoleBinding) against the Kubernetes schemas kubernetes-validate bundles (strict: an unknown
field fails), for the oldest and newest Kubernetes named below; the agent-sandbox kinds against
agent-sandbox.schema.json (written from agent-sandbox's CRDs), their podTemplate as a
PodTemplateSpec, their volume claim templates as PersistentVolumeClaims and their network
policy rules as a NetworkPolicy's; the image's facts (user, tini, volume, $HOME, port, health
check) against what the pods assume; probes; every flag and GLOVEBOX_ variable against
`gloveboxd --help`; the drain's grace against terminationGracePeriodSeconds; a token per
workspace; resources against footprint.json; and what keeps a workspace from its cluster
(isolation.py: network policies, read-only root filesystems, the runtime's Role), with every
address the policies except named in the README.
"""

import glob
import json
import math
import os
import re
import sys

import isolation

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEPLOY = os.path.join(ROOT, "deploy", "kubernetes")
IMAGE = os.path.join(ROOT, "workspace-image")
HERE = os.path.dirname(os.path.abspath(__file__))

# The Kubernetes versions the manifests must be valid for: the oldest still supported by its
# project when these were written, and the newest kubernetes-validate bundles.
KUBERNETES = ["1.30.0", "1.37.0"]
SANDBOX_GROUP = "extensions.agents.x-k8s.io/"
# Kubernetes expands $(NAME) in args from the container's env: sample values to start the
# real daemon with (a warm pool names its Sandboxes, and so their pods, <pool>-<5 chars>).
SAMPLE_ENV = {"POD_NAMESPACE": "agents"}
# The docs' advice: the kill timeout leaves room past the grace period for the children to
# stop (under a second, plus 3 s for each one that ignores SIGTERM).
GRACE_ROOM_SECS = 10

errors = []


def fail(where, message):
    errors.append(f"{where}: {message}")


def load_manifests():
    import yaml

    docs = []
    for path in sorted(glob.glob(os.path.join(DEPLOY, "**", "*.yaml"), recursive=True)):
        rel = os.path.relpath(path, ROOT)
        with open(path) as f:
            for doc in yaml.safe_load_all(f):
                if doc:
                    docs.append((rel, doc))
    return docs


def where(rel, doc):
    return f"{rel} {doc.get('kind')}/{doc.get('metadata', {}).get('name')}"


def validate_core(name, obj):
    import kubernetes_validate

    for version in KUBERNETES:
        try:
            kubernetes_validate.validate(obj, version, strict=True)
        except kubernetes_validate.ValidationError as e:
            path = ".".join(str(p) for p in e.path)
            fail(name, f"not valid for Kubernetes {version} at {path}: {e.message}")
            return
        except kubernetes_validate.SchemaNotFoundError as e:
            fail(name, e.message)
            return


def validate_sandbox_kind(name, doc):
    import jsonschema

    with open(os.path.join(HERE, "agent-sandbox.schema.json")) as f:
        schema = json.load(f)
    # oneOf would name every branch's errors; the branch of this kind is the one that matters.
    branch = next(
        (b for b in schema["oneOf"] if b["properties"]["kind"]["const"] == doc.get("kind")), None
    )
    if branch is None:
        fail(name, f"agent-sandbox.schema.json knows no kind {doc.get('kind')!r}")
        return
    sub = dict(branch, **{"$defs": schema["$defs"]})
    found = list(jsonschema.Draft202012Validator(sub).iter_errors(doc))
    for e in found:
        fail(name, f"not a v1beta1 {doc.get('kind')} at {'.'.join(map(str, e.path))}: {e.message}")
    if found:
        return
    if doc["kind"] != "SandboxTemplate":
        return
    spec = doc["spec"]
    meta = {"name": doc["metadata"]["name"]}
    validate_core(f"{name} spec.podTemplate (as a PodTemplateSpec)", {
        "apiVersion": "v1", "kind": "PodTemplate", "metadata": meta,
        "template": spec["podTemplate"]})
    for i, claim in enumerate(spec.get("volumeClaimTemplates", [])):
        validate_core(f"{name} spec.volumeClaimTemplates[{i}]", {
            "apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": claim.get("metadata", {}).get("name", "x")},
            "spec": claim["spec"]})
    if "networkPolicy" in spec:
        policy = dict(spec["networkPolicy"], podSelector={}, policyTypes=["Ingress", "Egress"])
        validate_core(f"{name} spec.networkPolicy (as a NetworkPolicy's rules)", {
            "apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": meta,
            "spec": policy})


def image_facts():
    """What workspace-image/ says about the container every pod runs."""
    facts = {}
    with open(os.path.join(IMAGE, "Dockerfile")) as f:
        # The runtime stage: the last FROM on.
        lines = f.read().split("\n")
    start = max(i for i, l in enumerate(lines) if l.startswith("FROM "))
    text = "\n".join(lines[start:]).replace("\\\n", " ")
    for line in text.split("\n"):
        word, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        if word == "USER":
            uid, _, gid = rest.partition(":")
            numeric = uid.isdigit() and (gid or uid).isdigit()
            facts["uid"], facts["gid"] = (int(uid), int(gid or uid)) if numeric else (0, 0)
        elif word == "ENV":
            for pair in rest.split():
                key, _, value = pair.partition("=")
                if key == "HOME":
                    facts["home"] = value
        elif word == "VOLUME":
            facts["volume"] = rest.strip("[]\" ")
        elif word == "EXPOSE":
            facts["port"] = int(rest.split("/")[0])
        elif word == "ENTRYPOINT":
            facts["entrypoint"] = json.loads(rest)
        elif word == "HEALTHCHECK":
            m = re.search(r"https?://[^/\s]+(/\S*)", rest)
            facts["healthcheck"] = m.group(1) if m else rest
    with open(os.path.join(IMAGE, "entrypoint.sh")) as f:
        script = f.read()
    facts["script"] = script
    for var in ["VOLUME", "STATE", "PORT"]:
        m = re.search(rf"^{var}=(\S+)$", script, re.M)
        facts[f"entrypoint_{var.lower()}"] = m.group(1) if m else None
    m = re.search(r"^exec gloveboxd (.*)$", script, re.M)
    facts["entrypoint_flags"] = re.findall(r"(--[a-z][a-z0-9-]*)", m.group(1)) if m else []
    facts["entrypoint_modes"] = re.findall(r"^  ([a-z][a-z-]*)\)$", script, re.M)
    return facts


def check_image(facts):
    name = "workspace-image"
    if facts.get("uid", 0) == 0 or facts.get("gid", 0) == 0:
        fail(name, "the Dockerfile's runtime stage needs a numeric non-root USER uid:gid")
    ep = facts.get("entrypoint", [])
    if not ep or os.path.basename(ep[0]) != "tini" or "--" not in ep:
        fail(name, f"the ENTRYPOINT is not tini -- ...: {ep}")
    if ep and ep[-1] != "/usr/local/bin/glovebox-entrypoint":
        fail(name, f"tini does not run glovebox-entrypoint: {ep}")
    if facts.get("healthcheck") != "/readyz":
        fail(name, f"the HEALTHCHECK probes {facts.get('healthcheck')!r}, not /readyz")
    if facts.get("entrypoint_volume") != facts.get("volume"):
        fail(name, f"entrypoint.sh keeps its state under {facts.get('entrypoint_volume')}, "
                   f"the Dockerfile's VOLUME is {facts.get('volume')}")
    if not facts.get("home"):
        fail(name, "the Dockerfile's runtime stage sets no HOME")
    if facts.get("entrypoint_state") != "$VOLUME/state":
        fail(name, "the state dir is not inside the volume ($VOLUME/state)")
    if str(facts.get("port")) != facts.get("entrypoint_port"):
        fail(name, f"EXPOSE {facts.get('port')} but the entrypoint listens on "
                   f"{facts.get('entrypoint_port')}")
    for flag in ["--desktop", "--listen", "--state-dir"]:
        if flag not in facts["entrypoint_flags"]:
            fail(name, f"the entrypoint does not pass {flag}")


def expand(value, env):
    return re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m: env.get(m.group(1), m.group(0)), value)


def help_facts(help_text):
    flags = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", help_text))
    env = set(re.findall(r"\b(GLOVEBOX_[A-Z_]+)\b", help_text))
    return flags, env


def pod_templates(docs):
    """(where, pod spec, kind) of every pod the folder runs."""
    for rel, doc in docs:
        kind = doc.get("kind")
        if kind == "StatefulSet":
            yield where(rel, doc), doc["spec"]["template"]["spec"], doc
        elif kind == "SandboxTemplate":
            yield where(rel, doc), doc["spec"]["podTemplate"]["spec"], doc


def check_pod(name, spec, owner, facts, help_flags, help_env, found):
    ctx = spec.get("securityContext", {})
    if ctx.get("runAsNonRoot") is not True:
        fail(name, "runAsNonRoot is not true")
    for key, want in [("runAsUser", facts.get("uid")), ("runAsGroup", facts.get("gid")),
                      ("fsGroup", facts.get("gid"))]:
        if ctx.get(key) != want:
            fail(name, f"securityContext.{key} is {ctx.get(key)}, the image's is {want}")
    if spec.get("automountServiceAccountToken") is not False:
        fail(name, "the workspace gets a service account token (automountServiceAccountToken)")
    claims = {c["metadata"]["name"] for c in owner["spec"].get("volumeClaimTemplates", [])}
    volumes = {v["name"]: v for v in spec.get("volumes", [])}
    for v in claims & set(volumes):
        fail(name, f"volume {v} is both a pod volume and a volume claim template")
    mains = [c for c in spec.get("containers", []) if c["name"] == "glovebox"]
    if len(mains) != 1:
        fail(name, "no container named glovebox")
        return
    main = mains[0]
    for c in spec.get("containers", []) + spec.get("initContainers", []):
        cname = f"{name} container {c['name']}"
        if "command" in c:
            fail(cname, "sets command, which bypasses the image's tini and entrypoint")
        for m in c.get("volumeMounts", []):
            if m["name"] not in volumes and m["name"] not in claims:
                fail(cname, f"mounts {m['name']}, which no volume or claim template provides")
        if c.get("securityContext", {}).get("allowPrivilegeEscalation") is not False:
            fail(cname, "allows privilege escalation")
        if c.get("securityContext", {}).get("capabilities", {}).get("drop") != ["ALL"]:
            fail(cname, "keeps capabilities (drop: [ALL])")
    isolation.check_read_only(name, spec, facts, fail)
    # The state volume: a claim template, so each workspace has its own.
    state = [m for m in main.get("volumeMounts", []) if m["mountPath"] == facts.get("volume")]
    if not state or state[0]["name"] not in claims:
        fail(name, f"{facts.get('volume')} is not mounted from a volume claim template")

    # Flags and variables: what gloveboxd knows.
    env = {e["name"]: e for e in main.get("env", [])}
    args = main.get("args", [])
    for a in args:
        flag = a.split("=", 1)[0]
        if not flag.startswith("--"):
            fail(name, f"argument {a!r} is not a flag (args go to gloveboxd)")
        elif flag not in help_flags:
            fail(name, f"gloveboxd --help knows no {flag}")
        if flag in facts["entrypoint_flags"]:
            fail(name, f"{flag} is the entrypoint's already (clap takes it once)")
    for var in env:
        if var.startswith("GLOVEBOX_") and var not in help_env:
            fail(name, f"gloveboxd --help knows no {var}")
        if not var.startswith("GLOVEBOX_") and not any(f"$({var})" in a for a in args):
            fail(name, f"{var} is set but no argument uses $({var})")
    for c in spec.get("initContainers", []):
        cargs = c.get("args", [])
        if not cargs or cargs[0] not in facts["entrypoint_modes"]:
            fail(f"{name} container {c['name']}", f"{cargs[:1]} is no glovebox-entrypoint mode")
        cenv = {e["name"] for e in c.get("env", [])}
        for a in cargs:
            for var in re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", a):
                if var not in cenv:
                    fail(f"{name} container {c['name']}", f"$({var}) has no variable")

    # The port, the probes and their Host header.
    ports = {p.get("name"): p["containerPort"] for p in main.get("ports", [])}
    if list(ports.values()) != [facts.get("port")]:
        fail(name, f"container ports {list(ports.values())}, the image's one is {facts.get('port')}")
    probes = []
    for kind, path in [("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")]:
        get = main.get(kind, {}).get("httpGet")
        if not get:
            fail(name, f"no {kind} httpGet")
            continue
        if get.get("path") != path:
            fail(name, f"{kind} asks {get.get('path')}, not {path}")
        port = ports.get(get.get("port"), get.get("port"))
        if port != facts.get("port"):
            fail(name, f"{kind} asks port {get.get('port')}, the daemon listens on {facts.get('port')}")
        host = [h["value"] for h in get.get("httpHeaders", []) if h["name"].lower() == "host"]
        if not host:
            fail(name, f"{kind} sends no Host header: a kubelet would send the pod's IP, which "
                       "the daemon refuses")
        probes.append({"path": get.get("path"), "host": host[0] if host else None})

    # The drain's grace and the kill timeout.
    grace = None
    for a in args:
        if a.startswith("--shutdown-grace-secs="):
            grace = int(a.split("=", 1)[1])
    period = spec.get("terminationGracePeriodSeconds", 30)
    if grace is None:
        fail(name, "no --shutdown-grace-secs (the default 10 s is not what the pod plans for)")
    elif period < grace + GRACE_ROOM_SECS:
        fail(name, f"terminationGracePeriodSeconds {period} leaves under {GRACE_ROOM_SECS} s "
                   f"past --shutdown-grace-secs={grace}")

    # Resources: from footprint.json.
    want = expected_resources()
    if main.get("resources") != want:
        fail(name, f"resources {main.get('resources')} are not footprint.json's {want}")

    sample = dict(SAMPLE_ENV, POD_NAME=sample_pod_name(owner))
    if owner["metadata"].get("namespace"):
        sample["POD_NAMESPACE"] = owner["metadata"]["namespace"]
    expanded = [expand(a, sample) for a in args]
    hosts = [a.split("=", 1)[1] for a in expanded if a.startswith("--allow-host=")]
    found.append({"name": name, "args": expanded, "probes": probes, "allow_hosts": hosts})
    return main, env


def sample_pod_name(owner):
    if owner["kind"] == "StatefulSet":
        return f"{owner['metadata']['name']}-0"
    return f"{owner['metadata']['name']}-x7k2p"


def round_up(value, step):
    return int(math.ceil(value / step) * step)


def expected_resources():
    """The rule deploy/kubernetes/README.md states, applied to footprint.json."""
    with open(os.path.join(DEPLOY, "footprint.json")) as f:
        fp = json.load(f)
    request = round_up(fp["idle_pss_mib"], 64)
    peak = fp.get("peak_pss_mib")
    limit = round_up(peak * 1.5, 256) if peak else 4 * request
    driven = fp.get("driven_cpu_millicores")
    cpu = round_up(driven, 50) if driven else 250
    return {"requests": {"cpu": f"{cpu}m", "memory": f"{request}Mi"},
            "limits": {"memory": f"{limit}Mi"}}


def check_tokens(docs, pods):
    """Each workspace its own token, never one for all."""
    secrets = {d["metadata"]["name"]: d for _, d in docs if d.get("kind") == "Secret"}
    for name, spec, owner in pods:
        main = next(c for c in spec["containers"] if c["name"] == "glovebox")
        if any(e["name"] == "GLOVEBOX_TOKEN" for e in main.get("env", [])):
            fail(name, "GLOVEBOX_TOKEN comes from one pod template, so every pod would share it")
        secret_volumes = {v["name"]: v["secret"]["secretName"]
                          for v in spec.get("volumes", []) if "secret" in v}
        for m in main.get("volumeMounts", []):
            if m["name"] in secret_volumes:
                fail(name, f"the workspace mounts the Secret {secret_volumes[m['name']]}: "
                           "every pod would see every token")
        if owner["kind"] == "SandboxTemplate":
            # Minted at first start into the Sandbox's own claim (checked above).
            continue
        for vol, secret_name in secret_volumes.items():
            secret = secrets.get(secret_name)
            if secret is None:
                fail(name, f"no Secret {secret_name} in the folder")
                continue
            keys = set(secret.get("stringData", {})) | set(secret.get("data", {}))
            pods_named = {f"{owner['metadata']['name']}-{i}" for i in range(owner["spec"]["replicas"])}
            if keys != pods_named:
                fail(name, f"the Secret {secret_name} has keys {sorted(keys)}, one per pod would "
                           f"be {sorted(pods_named)}")
            installers = [c for c in spec.get("initContainers", [])
                          if any(m["name"] == vol for m in c.get("volumeMounts", []))]
            for c in installers:
                args = c.get("args", [])
                env = {e["name"]: e for e in c.get("env", [])}
                pod_name = env.get("POD_NAME", {}).get("valueFrom", {}).get("fieldRef", {})
                if args[:1] != ["install-token"] or not any("$(POD_NAME)" in a for a in args) \
                        or pod_name.get("fieldPath") != "metadata.name":
                    fail(name, f"init container {c['name']} does not install the key named "
                               "after its pod")


def check_cross_refs(docs):
    templates = {d["metadata"]["name"] for _, d in docs if d.get("kind") == "SandboxTemplate"}
    services = {d["metadata"]["name"]: d for _, d in docs if d.get("kind") == "Service"}
    for rel, doc in docs:
        name = where(rel, doc)
        if doc.get("kind") == "SandboxWarmPool":
            ref = doc["spec"]["sandboxTemplateRef"]["name"]
            if ref not in templates:
                fail(name, f"sandboxTemplateRef {ref} is no SandboxTemplate in the folder")
        if doc.get("kind") == "SandboxTemplate" and doc["spec"].get("service") is not True:
            fail(name, "spec.service is not true: no Service for the router to resolve")
        if doc.get("kind") == "StatefulSet":
            svc = services.get(doc["spec"]["serviceName"])
            if svc is None:
                fail(name, f"serviceName {doc['spec']['serviceName']} is no Service in the folder")
                continue
            if svc["spec"].get("clusterIP") != "None":
                fail(name, "its Service is not headless (clusterIP: None)")
            labels = doc["spec"]["template"]["metadata"]["labels"]
            if any(labels.get(k) != v for k, v in svc["spec"]["selector"].items()):
                fail(name, "its Service does not select its pods")
            if doc["spec"]["selector"]["matchLabels"] != {
                    k: labels.get(k) for k in doc["spec"]["selector"]["matchLabels"]}:
                fail(name, "its selector does not match its pod labels")


def check_readme(cidrs):
    """The README names every range the policies keep a workspace from: the operator's list."""
    with open(os.path.join(DEPLOY, "README.md")) as f:
        readme = f.read()
    for cidr in cidrs:
        if f"`{cidr}`" not in readme:
            fail("deploy/kubernetes/README.md", f"does not name `{cidr}`, which the network "
                                                "policies except")


def manifests(help_file):
    with open(help_file) as f:
        help_flags, help_env = help_facts(f.read())
    docs = load_manifests()
    if not docs:
        fail("deploy/kubernetes", "no manifests")
    for rel, doc in docs:
        name = where(rel, doc)
        if doc.get("apiVersion", "").startswith(SANDBOX_GROUP):
            validate_sandbox_kind(name, doc)
        else:
            validate_core(name, doc)
    facts = image_facts()
    check_image(facts)
    pods = list(pod_templates(docs))
    kinds = {owner["kind"] for _, _, owner in pods}
    if kinds != {"StatefulSet", "SandboxTemplate"}:
        fail("deploy/kubernetes", f"pods come from {sorted(kinds)}; both kinds should be there")
    found = []
    for name, spec, owner in pods:
        check_pod(name, spec, owner, facts, help_flags, help_env, found)
    check_tokens(docs, pods)
    check_cross_refs(docs)
    found_policies = isolation.check_network(docs, where, facts.get("port"), fail)
    isolation.check_rbac(docs, where, fail)
    check_readme(isolation.excepted(found_policies))
    return {"errors": errors, "documents": [where(r, d) for r, d in docs], "daemons": found,
            "kubernetes": KUBERNETES}


def routed_mcp(url, host):
    """initialize, then tools/call computer.wait, the way the router forwards them."""
    import httpx2 as httpx  # what the MCP SDK itself speaks HTTP with

    base = {"Host": host, "Accept": "application/json, text/event-stream"}
    found = {}

    def answer(r):
        if "text/event-stream" in r.headers.get("content-type", ""):
            for line in r.text.splitlines():
                if line.startswith("data:") and line[5:].strip():
                    return json.loads(line[5:])
            return None
        return r.json()

    with httpx.Client(timeout=30) as http:
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "glovebox-routed-test", "version": "1"}}}
        r = http.post(url, json=init, headers=base)
        found["initialize"] = r.status_code
        sid = r.headers.get("mcp-session-id")
        if r.status_code != 200 or not sid:
            found["body"] = r.text[:500]
            return found
        h = dict(base, **{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"})
        http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=h)
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "computer", "arguments": {"action": "wait", "duration_ms": 10}}}
        r = http.post(url, json=call, headers=h)
        found["call"] = r.status_code
        msg = answer(r)
        result = (msg or {}).get("result", {})
        found["is_error"] = result.get("isError")
        found["structured"] = result.get("structuredContent")
    return found


def main():
    if sys.argv[1] == "manifests":
        print(json.dumps(manifests(sys.argv[2])))
    elif sys.argv[1] == "routed-mcp":
        print(json.dumps(routed_mcp(sys.argv[2], sys.argv[3])))
    else:
        sys.exit(__doc__)


main()
