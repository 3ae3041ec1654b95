"""What keeps a workspace from its cluster, checked on the manifests (check.py runs these).

Three things, each a function that reports through check.py's `fail(where, message)`:

- the network: every StatefulSet has a NetworkPolicy beside it and every SandboxTemplate a
  managed one; ingress only on the daemon's port, from named clients and never from the
  workspaces themselves; egress only to the cluster's DNS (port 53) and to addresses outside
  the cluster (none of CLUSTER_ADDRESSES, all of PUBLIC_ADDRESSES);
- the files: every container's root filesystem read-only, and each path the workspace writes
  (WRITABLE_PATHS, the volume, $HOME) a writable volume mount;
- the API: the runtime's Role within RUNTIME_NEEDS, no wildcard, nothing cluster-wide, and
  kubectl exec only on named pods or in a namespace that holds nothing but workspaces.
"""

import ipaddress

# Addresses a workspace must not reach, with why. Egress ipBlocks have to except each whole.
CLUSTER_ADDRESSES = [
    ("169.254.169.254/32", "the cloud metadata endpoint"),
    ("fd00:ec2::254/128", "the cloud metadata endpoint over IPv6"),
    ("169.254.0.0/16", "link-local: the node's own services"),
    ("fe80::/10", "IPv6 link-local"),
    ("10.0.0.0/8", "private: pod, Service, node and API server ranges"),
    ("172.16.0.0/12", "private: pod, Service, node and API server ranges"),
    ("192.168.0.0/16", "private: pod, Service, node and API server ranges"),
    ("100.64.0.0/10", "shared address space: the pod range of some clouds and CNIs"),
    ("fc00::/7", "unique local: IPv6 pod and Service ranges"),
    ("64:ff9b::/96", "NAT64: an IPv6 address reaching any IPv4 one, cluster ones too"),
    ("64:ff9b:1::/48", "local-use NAT64"),
    ("10.96.0.1/32", "the API server (the kubernetes Service of a kubeadm cluster)"),
]
# What the open internet means here: a browser reaches these on any port.
PUBLIC_ADDRESSES = ["1.1.1.1/32", "93.184.215.14/32", "2606:4700:4700::1111/128"]
DNS_PORTS = {("UDP", 53), ("TCP", 53)}
DNS_PEER = {"namespace": {"kubernetes.io/metadata.name": "kube-system"},
            "pods": {"k8s-app": "kube-dns"}}

# Paths the workspace writes besides its volume and $HOME (found by running the embedded
# desktop with everything else read-only; deploy/kubernetes/README.md, "Writable paths").
WRITABLE_PATHS = {
    "/tmp": "Xvfb's lock and socket (/tmp/.X<n>-lock, /tmp/.X11-unix) and Chromium's temp files",
    "/dev/shm": "Chromium's shared memory",
}

# Everything the agent runtime may do in the workspaces' namespace: (API group, resource) ->
# verbs. Anything beyond is a finding.
RUNTIME_NEEDS = {
    ("extensions.agents.x-k8s.io", "sandboxclaims"): {"create", "get", "list", "watch", "delete"},
    ("agents.x-k8s.io", "sandboxes"): {"get", "list", "watch", "patch"},
    ("", "pods"): {"get"},
    ("", "pods/exec"): {"create"},
}
# Ways into a pod's processes or ports through the API server.
INTO_PODS = {"pods/exec", "pods/attach", "pods/portforward", "pods/proxy", "services/proxy",
             "nodes/proxy"}
# The kinds that may share the workspaces' namespace: the workspaces and the runtime's grant.
WORKSPACE_KINDS = {"SandboxTemplate", "SandboxWarmPool", "Role", "RoleBinding"}


def net(cidr):
    return ipaddress.ip_network(cidr, strict=False)


# ---- network -------------------------------------------------------------------------------

def policies(docs, where, fail):
    """(where, rules, pod labels) of the policy in front of each workspace pod."""
    found = []
    kinds = {}
    for rel, doc in docs:
        kinds.setdefault(doc.get("kind"), []).append((rel, doc))
    for rel, sts in kinds.get("StatefulSet", []):
        labels = sts["spec"]["template"]["metadata"].get("labels", {})
        mine = [(r, p) for r, p in kinds.get("NetworkPolicy", [])
                if r == rel and selects(p["spec"].get("podSelector", {}), labels)]
        if not mine:
            fail(where(rel, sts), "no NetworkPolicy beside it selects its pods")
            continue
        for r, p in mine:
            types = set(p["spec"].get("policyTypes", []))
            if types != {"Ingress", "Egress"}:
                fail(where(r, p), f"policyTypes {sorted(types)}: both Ingress and Egress, or "
                                  "the other direction is open")
            found.append((where(r, p), p["spec"], labels))
    for rel, tpl in kinds.get("SandboxTemplate", []):
        spec = tpl["spec"]
        labels = spec["podTemplate"].get("metadata", {}).get("labels", {})
        if spec.get("networkPolicyManagement", "Managed") != "Managed":
            fail(where(rel, tpl), "networkPolicyManagement is not Managed: no policy is made")
        if "networkPolicy" not in spec:
            fail(where(rel, tpl), "no networkPolicy: the controller's default blocks DNS")
            continue
        found.append((f"{where(rel, tpl)} spec.networkPolicy", spec["networkPolicy"], labels))
    return found


def selects(selector, labels):
    if selector.get("matchExpressions"):
        return False  # not needed here; a policy that uses them is read as selecting nothing
    return all(labels.get(k) == v for k, v in selector.get("matchLabels", {}).items())


def check_network(docs, where, port, fail):
    found = policies(docs, where, fail)
    for name, rules, labels in found:
        check_ingress(name, rules.get("ingress", []), labels, port, fail)
        check_egress(name, rules.get("egress", []), fail)
    egresses = {name: rules.get("egress") for name, rules, _ in found}
    if len({repr(e) for e in egresses.values()}) > 1:
        fail("deploy/kubernetes", f"the workspaces' egress rules differ: {sorted(egresses)}")
    return found


def check_ingress(name, rules, labels, port, fail):
    for i, rule in enumerate(rules):
        where = f"{name} ingress[{i}]"
        ports = {(p.get("protocol", "TCP"), p.get("port")) for p in rule.get("ports", [])}
        if ports != {("TCP", port)} and ports != {("TCP", "http")}:
            fail(where, f"ports {sorted(ports, key=str)}: only TCP {port}, the daemon's")
        peers = rule.get("from", [])
        if not peers:
            fail(where, "no from: every pod and address may reach the daemon")
        for peer in peers:
            pods = peer.get("podSelector")
            if "ipBlock" in peer:
                fail(where, f"from an ipBlock {peer['ipBlock'].get('cidr')}: name the clients' "
                            "pods instead")
            elif pods is None or not (pods.get("matchLabels") or pods.get("matchExpressions")):
                fail(where, "from every pod of a namespace: other workspaces among them")
            elif "namespaceSelector" not in peer and selects(pods, labels):
                fail(where, "from pods the workspaces' own labels match: one workspace would "
                            "reach another")


def check_egress(name, rules, fail):
    blocks = []
    dns = set()
    for i, rule in enumerate(rules):
        where = f"{name} egress[{i}]"
        peers = rule.get("to", [])
        if not peers:
            fail(where, "no to: every destination, the cluster's too")
            continue
        ports = {(p.get("protocol", "TCP"), p.get("port")) for p in rule.get("ports", [])}
        for peer in peers:
            if "ipBlock" in peer:
                blocks.append((where, peer["ipBlock"], bool(ports)))
                continue
            pods = peer.get("podSelector", {}).get("matchLabels", {})
            namespace = peer.get("namespaceSelector", {}).get("matchLabels", {})
            if pods != DNS_PEER["pods"] or namespace != DNS_PEER["namespace"]:
                fail(where, f"to pods {pods or 'all'} in namespaces {namespace or 'this one'}: "
                            "only the cluster's DNS (kube-dns in kube-system)")
            elif not ports or not ports <= DNS_PORTS:
                fail(where, f"to the cluster's DNS on {sorted(ports) or 'every port'}: port 53 "
                            "only")
            else:
                dns |= ports
    if dns != DNS_PORTS:
        fail(name, f"DNS allowed on {sorted(dns)}: UDP and TCP 53 to kube-dns, or the browser "
                   "resolves no name")
    for cidr, why in CLUSTER_ADDRESSES:
        for where, block, _ in blocks:
            if leaks(block, net(cidr)):
                fail(where, f"lets {cidr} through ({why}): except it")
    for cidr in PUBLIC_ADDRESSES:
        if not any(not limited and within(block, net(cidr)) for _, block, limited in blocks):
            fail(name, f"no rule lets {cidr} through on every port: the open internet is shut")


def leaks(block, target):
    """Whether an ipBlock lets any address of target through."""
    cidr = net(block["cidr"])
    if cidr.version != target.version or not cidr.overlaps(target):
        return False
    excepts = [net(e) for e in block.get("except", [])]
    return not any(e.version == target.version and target.subnet_of(e) for e in excepts)


def within(block, target):
    """Whether an ipBlock lets every address of target through."""
    cidr = net(block["cidr"])
    if cidr.version != target.version or not target.subnet_of(cidr):
        return False
    return not any(e.version == target.version and e.overlaps(target)
                   for e in map(net, block.get("except", [])))


def excepted(found):
    """Every except CIDR of the policies, for the README to name."""
    return sorted({e for _, rules, _ in found for rule in rules.get("egress", [])
                   for peer in rule.get("to", []) for e in peer.get("ipBlock", {}).get("except", [])})


# ---- files ---------------------------------------------------------------------------------

def check_read_only(name, spec, facts, fail):
    """readOnlyRootFilesystem everywhere; each path written is a writable mount."""
    volume, home = facts.get("volume"), facts.get("home")
    needs = dict(WRITABLE_PATHS)
    needs[volume] = "the workspace's volume: token, Chromium profile, XDG dirs, logs"
    needs[home] = "$HOME"
    for c in spec.get("containers", []) + spec.get("initContainers", []):
        cname = f"{name} container {c['name']}"
        if c.get("securityContext", {}).get("readOnlyRootFilesystem") is not True:
            fail(cname, "readOnlyRootFilesystem is not true")
        writable = [m["mountPath"] for m in c.get("volumeMounts", []) if not m.get("readOnly")]
        wanted = needs if c["name"] == "glovebox" else {volume: needs[volume]}
        for path, why in wanted.items():
            if not any(path == m or path.startswith(m.rstrip("/") + "/") for m in writable):
                fail(cname, f"{path} ({why}) is no writable volume mount")


# ---- the API -------------------------------------------------------------------------------

def check_rbac(docs, where, fail):
    namespaces = {d["metadata"]["name"]: d for _, d in docs if d.get("kind") == "Namespace"}
    roles = {}
    for rel, doc in docs:
        kind = doc.get("kind")
        if kind in ("ClusterRole", "ClusterRoleBinding"):
            fail(where(rel, doc), "a grant on the whole cluster: the runtime needs one namespace")
        if kind != "Role":
            continue
        roles[doc["metadata"]["name"]] = (rel, doc)
        for i, rule in enumerate(doc.get("rules", [])):
            check_rule(f"{where(rel, doc)} rules[{i}]", rule, doc, namespaces, docs, fail)
    for rel, doc in docs:
        if doc.get("kind") != "RoleBinding":
            continue
        ref = doc["roleRef"]
        if ref.get("kind") != "Role" or ref.get("name") not in roles:
            fail(where(rel, doc), f"binds {ref.get('kind')} {ref.get('name')}, no Role of the folder")
            continue
        home = doc["metadata"].get("namespace")
        for s in doc.get("subjects", []):
            if s.get("kind") == "ServiceAccount" and s.get("namespace", home) == home:
                fail(where(rel, doc), f"binds a ServiceAccount of {home}, the workspaces' "
                                      "namespace: keep the runtime out of it")


def check_rule(name, rule, role, namespaces, docs, fail):
    groups, resources = rule.get("apiGroups", []), rule.get("resources", [])
    verbs, names = rule.get("verbs", []), rule.get("resourceNames", [])
    for field, values in [("apiGroups", groups), ("resources", resources), ("verbs", verbs),
                          ("resourceNames", names)]:
        if any("*" in v for v in values):
            fail(name, f"a wildcard in {field}: {values}")
    if rule.get("nonResourceURLs"):
        fail(name, "nonResourceURLs in a Role")
    for group in groups:
        for resource in resources:
            allowed = RUNTIME_NEEDS.get((group, resource))
            if allowed is None:
                fail(name, f"grants {resource} in {group or 'core'}, which the runtime does "
                           "not use")
                continue
            extra = set(verbs) - allowed
            if extra:
                fail(name, f"grants {sorted(extra)} on {resource}, beyond {sorted(allowed)}")
            if resource in INTO_PODS and not names:
                check_own_namespace(name, resource, role, namespaces, docs, fail)


def check_own_namespace(name, resource, role, namespaces, docs, fail):
    """A grant into every pod of a namespace is fine only where every pod is a workspace."""
    home = role["metadata"].get("namespace")
    if home not in namespaces:
        fail(name, f"{resource} on every pod of whatever namespace it is applied in: name the "
                   "pods (resourceNames) or pin the Role to the workspaces' own Namespace")
        return
    for rel, doc in docs:
        meta = doc.get("metadata", {})
        if doc.get("kind") == "Namespace":
            continue
        if meta.get("namespace") == home and doc.get("kind") not in WORKSPACE_KINDS:
            fail(name, f"{home} also holds {doc.get('kind')}/{meta.get('name')}: {resource} "
                       "would reach more than workspaces")
        if doc.get("apiVersion", "").startswith("extensions.agents.x-k8s.io/") \
                and meta.get("namespace") != home:
            fail(name, f"{doc.get('kind')}/{meta.get('name')} is not in {home}, where the "
                       "Role grants")
    labels = namespaces[home]["metadata"].get("labels", {})
    if labels.get("pod-security.kubernetes.io/enforce") != "restricted":
        fail(name, f"the Namespace {home} does not enforce the restricted Pod Security Standard")
