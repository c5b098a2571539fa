# SPDX-License-Identifier: Apache-2.0
"""Check the operators' files against each other and against pyward.

check_manifests.py SRCDIR UNIT SERVE_HELP [FIRST]: the Kubernetes manifests
as `kubectl kustomize` renders SRCDIR/contrib/kubernetes/ and
SRCDIR/contrib/kubernetes-baseline/ (with kubectl when it is installed,
else with the small reader of kustomization.yaml below, which the output
then says; PW_NO_KUBECTL=1 forces the reader), the systemd unit UNIT (as
built), SRCDIR/contrib/haproxy/haproxy.cfg and the router's
contrib/kubernetes/haproxy.cfg, with the text of `pyward serve --help`
(SERVE_HELP, a file) for the settings pyward knows.  TAP points numbered
from FIRST (1), the plan at the end.
"""
import json
import os
import re
import shutil
import subprocess
import sys

import yaml

SRCDIR = "."

n = 0
failed = 0


def point(ok, name, detail=""):
    global n, failed
    n += 1
    if ok:
        print(f"ok {n} - {name}")
    else:
        failed += 1
        print(f"not ok {n} - {name}")
        for line in str(detail).splitlines():
            print(f"# {line}", file=sys.stderr)


def known_point(known, names, name):
    """NAMES are all variables pyward serve knows (KNOWN, from --help)."""
    unknown = sorted({x for x in names if x.startswith("PYWARD_")} - known)
    point(not unknown, name, unknown)


# --- rendering a kustomization ------------------------------------------


def load_yaml(path):
    with open(path, encoding="utf-8") as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


def merge(base, patch):
    """A strategic merge patch, as far as these manifests use it: maps
    merged key by key, lists of maps with a "name" merged by name, other
    lists and values replaced."""
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for k, v in patch.items():
            out[k] = merge(base[k], v) if k in base else v
        return out
    if (isinstance(base, list) and isinstance(patch, list) and
            all(isinstance(x, dict) and "name" in x for x in base + patch)):
        out = list(base)
        for item in patch:
            at = [i for i, x in enumerate(out) if x["name"] == item["name"]]
            if at:
                out[at[0]] = merge(out[at[0]], item)
            else:
                out.append(item)
        return out
    return patch


def render_here(kdir):
    """The objects of the kustomization in KDIR, rendered by this reader:
    its resources (files, or directories holding a kustomization),
    configMapGenerator's files and strategic merge patches, which is what
    the kustomizations in contrib/ use.  Raises ValueError for anything
    else."""
    kust = load_yaml(os.path.join(kdir, "kustomization.yaml"))[0]
    known = {"apiVersion", "kind", "resources", "configMapGenerator",
             "generatorOptions", "patches"}
    if set(kust) - known:
        raise ValueError(f"{kdir}: this reader does not know "
                         f"{sorted(set(kust) - known)}")
    objs = []
    for r in kust.get("resources", []):
        path = os.path.join(kdir, r)
        objs += render_here(path) if os.path.isdir(path) else load_yaml(path)
    gens = kust.get("configMapGenerator", [])
    if gens and not kust.get("generatorOptions", {}).get("disableNameSuffixHash"):
        raise ValueError("a generated ConfigMap's name gets a hash suffix: "
                         "this reader cannot compute it")
    for g in gens:
        data = {}
        for f in g.get("files", []):
            with open(os.path.join(kdir, f), encoding="utf-8") as fh:
                data[os.path.basename(f)] = fh.read()
        objs.append({"apiVersion": "v1", "kind": "ConfigMap",
                     "metadata": {"name": g["name"]}, "data": data})
    for p in kust.get("patches", []):
        if set(p) != {"path"}:
            raise ValueError(f"patch {p}: only 'path' patches are read")
        for patch in load_yaml(os.path.join(kdir, p["path"])):
            key = (patch["kind"], patch["metadata"]["name"])
            hits = [i for i, o in enumerate(objs)
                    if (o["kind"], o["metadata"]["name"]) == key]
            if len(hits) != 1:
                raise ValueError(f"patch {p['path']}: {key} found {len(hits)} times")
            objs[hits[0]] = merge(objs[hits[0]], patch)
    return objs


def render(kdir):
    """The objects `kubectl kustomize KDIR` makes: with kubectl when it is
    installed (and then this reader's rendering is compared with it),
    else with this reader alone, which the output says."""
    name = os.path.relpath(kdir, SRCDIR)
    try:
        here = render_here(kdir)
    except (OSError, ValueError, KeyError, yaml.YAMLError) as e:
        point(False, f"{name}: the kustomization renders", e)
        return []
    kubectl = shutil.which("kubectl")
    if kubectl is None or os.environ.get("PW_NO_KUBECTL"):
        print(f"# {name}: rendered by check_manifests.py's reader of "
              "kustomization.yaml (resources, configMapGenerator, patches), "
              "not by kubectl (not installed, or PW_NO_KUBECTL set)")
        point(bool(here), f"{name}: the kustomization renders (without kubectl)")
        return here
    try:
        out = subprocess.run([kubectl, "kustomize", kdir], capture_output=True,
                             text=True, timeout=180)
    except subprocess.TimeoutExpired as e:
        point(False, f"{name}: kubectl kustomize renders it", e)
        return here
    point(out.returncode == 0, f"{name}: kubectl kustomize renders it",
          out.stderr)
    if out.returncode != 0:
        return here
    print(f"# {name}: rendered by kubectl kustomize")
    theirs = [d for d in yaml.safe_load_all(out.stdout) if d is not None]
    point(canon(theirs) == canon(here),
          f"{name}: this reader renders the same objects as kubectl",
          "\n".join(sorted(set(canon(theirs)) ^ set(canon(here)))))
    return theirs


def canon(objs):
    return sorted(json.dumps(o, sort_keys=True) for o in objs)


def find(objs, kind, name=None):
    return [o for o in objs if o.get("kind") == kind and
            (name is None or o.get("metadata", {}).get("name") == name)]


def one(objs, kind, name=None):
    found = find(objs, kind, name)
    point(len(found) == 1, f"one {kind}" + (f" {name}" if name else ""),
          f"found {len(found)}")
    return found[0] if found else {}


def env_of(container):
    return {e["name"]: e.get("value") for e in container.get("env", [])}


def env_from(container, name):
    for e in container.get("env", []):
        if e["name"] == name:
            return e.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
    return None


def unit_settings(path):
    settings = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith(("#", "[")) and "=" in line:
                key, value = line.split("=", 1)
                settings.setdefault(key, []).append(value)
    return settings


def help_vars(path):
    with open(path, encoding="utf-8") as f:
        return set(re.findall(r"\bPYWARD_[A-Z_]+\b", f.read()))


def mib(text):
    """Kubernetes quantities (Mi, Gi) and pyward sizes (m, g) in MiB."""
    m = re.fullmatch(r"(\d+)(Mi|Gi|m|g|M|G)", str(text))
    if not m:
        return None
    return int(m.group(1)) * (1024 if m.group(2) in ("Gi", "g", "G") else 1)


# --- Pod Security Standards ----------------------------------------------

# The capabilities "baseline" lets a container add.
BASELINE_CAPS = {"AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID",
                 "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID",
                 "SETPCAP", "SETUID", "SYS_CHROOT"}


def baseline_faults(pod):
    """What the Pod Security level "baseline" refuses in the pod spec POD
    (the checks that apply to these manifests' fields)."""
    faults = []
    for k in ("hostNetwork", "hostPID", "hostIPC"):
        if pod.get(k):
            faults.append(k)
    if any("hostPath" in v for v in pod.get("volumes", [])):
        faults.append("hostPath volume")
    for scope in [pod.get("securityContext", {})] + [
            c.get("securityContext", {}) for c in pod.get("containers", [])]:
        if scope.get("seccompProfile", {}).get("type") == "Unconfined":
            faults.append("seccompProfile Unconfined")
        if scope.get("appArmorProfile", {}).get("type") == "Unconfined":
            faults.append("appArmorProfile Unconfined")
    for c in pod.get("containers", []):
        sc = c.get("securityContext", {})
        if sc.get("privileged"):
            faults.append(f"{c['name']}: privileged")
        extra = set(sc.get("capabilities", {}).get("add", [])) - BASELINE_CAPS
        if extra:
            faults.append(f"{c['name']}: capabilities {sorted(extra)}")
        if sc.get("procMount", "Default") != "Default":
            faults.append(f"{c['name']}: procMount")
        if any(p.get("hostPort") for p in c.get("ports", [])):
            faults.append(f"{c['name']}: hostPort")
    return faults


def restricted_faults(pod):
    """Baseline's faults, and what "restricted" adds."""
    faults = baseline_faults(pod)
    psc = pod.get("securityContext", {})
    for c in pod.get("containers", []):
        sc = c.get("securityContext", {})
        if not (sc.get("runAsNonRoot") or psc.get("runAsNonRoot")):
            faults.append(f"{c['name']}: runAsNonRoot")
        if sc.get("allowPrivilegeEscalation") is not False:
            faults.append(f"{c['name']}: allowPrivilegeEscalation")
        if sc.get("capabilities", {}).get("drop") != ["ALL"]:
            faults.append(f"{c['name']}: capabilities not dropped")
        if set(sc.get("capabilities", {}).get("add", [])) - {"NET_BIND_SERVICE"}:
            faults.append(f"{c['name']}: capabilities added")
        kind = (sc.get("seccompProfile") or psc.get("seccompProfile") or {}).get("type")
        if kind not in ("RuntimeDefault", "Localhost"):
            faults.append(f"{c['name']}: seccompProfile {kind}")
    return faults


# --- the checks ------------------------------------------------------------


def check_kubernetes(objs, unit, known, defaults):
    sts = one(objs, "StatefulSet", "pyward")
    pods_svc = one(objs, "Service", "pyward-pods")
    svc = one(objs, "Service", "pyward")
    router = one(objs, "Deployment", "pyward-router")
    cm = one(objs, "ConfigMap", "pyward-router")
    hpa = one(objs, "HorizontalPodAutoscaler")
    pdbs = find(objs, "PodDisruptionBudget")
    point(not find(objs, "Deployment", "pyward"),
          "the pyward pods are a StatefulSet, not a Deployment")

    spec = sts.get("spec", {})
    pod = spec.get("template", {}).get("spec", {})
    labels = spec.get("template", {}).get("metadata", {}).get("labels", {})
    selector = spec.get("selector", {}).get("matchLabels", {})
    point(selector and selector.items() <= labels.items(),
          "the StatefulSet's selector matches its pods' labels")
    point(pods_svc.get("spec", {}).get("clusterIP") == "None" and
          pods_svc["spec"].get("selector") == selector and
          not pods_svc["spec"].get("publishNotReadyAddresses"),
          "pyward-pods is headless, selects the pods, lists the ready ones")
    point(spec.get("serviceName") == pods_svc.get("metadata", {}).get("name"),
          "the StatefulSet's pods are named under the headless Service")

    rspec = router.get("spec", {})
    rpod = rspec.get("template", {}).get("spec", {})
    rlabels = rspec.get("template", {}).get("metadata", {}).get("labels", {})
    point(svc.get("spec", {}).get("selector", {}).items() <= rlabels.items()
          and svc["spec"].get("selector"),
          "the Service clients use (pyward) selects the router, not the pods")
    point(not (svc["spec"]["selector"].items() <= labels.items()),
          "the pyward Service does not reach the pods around the router")
    by_sel = {json.dumps(p["spec"]["selector"]["matchLabels"], sort_keys=True)
              for p in pdbs}
    point(json.dumps(selector, sort_keys=True) in by_sel and
          json.dumps(rspec.get("selector", {}).get("matchLabels"), sort_keys=True)
          in by_sel, "a PodDisruptionBudget for the pods and one for the router")
    ref = hpa.get("spec", {}).get("scaleTargetRef", {})
    point(ref.get("kind") == "StatefulSet" and ref.get("name") == "pyward",
          "the HorizontalPodAutoscaler scales the StatefulSet")
    lo, hi = hpa["spec"].get("minReplicas", 1), hpa["spec"].get("maxReplicas", 0)
    pdb = [p for p in pdbs if p["spec"]["selector"]["matchLabels"] == selector]
    point(pdb and pdb[0]["spec"].get("minAvailable", 0) < lo <= hi,
          "HPA: the PDB's minAvailable < minReplicas <= maxReplicas", f"{lo} {hi}")

    containers = pod.get("containers", [])
    point(len(containers) == 1, "one pyward container")
    c = containers[0] if containers else {}
    ports = {p.get("name"): p.get("containerPort") for p in c.get("ports", [])}
    env = env_of(c)
    host, _, port = (env.get("PYWARD_HTTP") or "").rpartition(":")
    point(port.isdigit() and int(port) in ports.values(),
          "PYWARD_HTTP listens on the container's port", env.get("PYWARD_HTTP"))
    target = pods_svc["spec"]["ports"][0].get("targetPort")
    point(target in ports or target in ports.values(),
          "the headless Service's targetPort is the container's port", target)
    known_point(known, env, "every PYWARD_* variable is one pyward serve knows")

    # The instance id names the pod, as the router reads it back.
    cfg = cm.get("data", {}).get("haproxy.cfg", "")
    with open(os.path.join(SRCDIR, "contrib", "kubernetes", "haproxy.cfg"),
              encoding="utf-8") as f:
        point(cfg == f.read(), "the router's ConfigMap holds contrib/kubernetes/haproxy.cfg")
    point(env.get("PYWARD_INSTANCE_ID") == "pod$(POD_INDEX)" and
          env_from(c, "POD_INDEX") ==
          "metadata.labels['apps.kubernetes.io/pod-index']",
          "each pod's instance id is pod + its ordinal (the pod-index label)",
          env.get("PYWARD_INSTANCE_ID"))
    point("acl pod_handle var(txn.sid) -m reg ^ps-pod[0-9]" in cfg,
          "the router reads handles ps-podN-... back to the pod's ordinal")
    rc = (rpod.get("containers") or [{}])[0]
    renv = env_of(rc)
    point(renv.get("PYWARD_PODS") == pods_svc["metadata"]["name"] and
          renv.get("PYWARD_STATEFULSET") == sts["metadata"]["name"] and
          renv.get("PYWARD_PORT") == port and
          env_from(rc, "POD_NAMESPACE") == "metadata.namespace",
          "the router's environment names the headless Service, the "
          "StatefulSet, the pods' port and its namespace", renv)
    mounts = {m["mountPath"]: m["name"] for m in rc.get("volumeMounts", [])}
    vols = {v["name"]: v for v in rpod.get("volumes", [])}
    cfg_vol = vols.get(mounts.get("/usr/local/etc/haproxy"), {})
    point(cfg_vol.get("configMap", {}).get("name") == cm.get("metadata", {}).get("name")
          and "/usr/local/etc/haproxy/haproxy.cfg" in rc.get("args", []),
          "the router runs haproxy.cfg from its ConfigMap")
    slots = re.search(r"^\s*server-template \S+ (\d+) ", cfg, re.M)
    point(slots and int(slots.group(1)) >= hi,
          "the router's server-template has a slot for each pod up to maxReplicas",
          f"{slots and slots.group(1)} slots, maxReplicas {hi}")
    point(rc.get("readinessProbe", {}).get("httpGet", {}).get("path") in cfg,
          "the router's readiness probe is its monitor-uri")

    # A run's and a session's memory within the container's limit.
    res = c.get("resources", {})
    point(all(k in res.get(x, {}) for x in ("requests", "limits") for k in ("cpu", "memory")),
          "CPU and memory requests and limits")
    limit = mib(res.get("limits", {}).get("memory"))
    cap = mib(env.get("PYWARD_MAX_MEMORY") or "")
    runs = int(env.get("PYWARD_MAX_CONCURRENCY") or 0)
    sessions = int(env.get("PYWARD_MAX_SESSIONS") or 16)
    point(cap is not None and limit is not None and
          (runs + sessions) * cap + 256 <= limit,
          "PYWARD_MAX_MEMORY is set, and every run and session at that cap "
          "fits the container's memory limit with 256 MiB for the server",
          f"({runs} runs + {sessions} sessions) x {cap} MiB + 256 vs {limit} MiB")
    default = mib(env.get("PYWARD_DEFAULT_MEMORY_LIMIT") or "") or defaults["memory"]
    point(cap is not None and default <= cap,
          "the default memory limit is within PYWARD_MAX_MEMORY", (default, cap))

    # A non-loopback address needs tokens: pyward refuses to start without.
    tokens = env.get("PYWARD_AUTH_TOKEN_FILE") or ""
    cmounts = {m["mountPath"]: m["name"] for m in c.get("volumeMounts", [])}
    secrets = {v["name"] for v in pod.get("volumes", []) if "secret" in v}
    point(host in ("127.0.0.1", "::1", "localhost")
          or cmounts.get(os.path.dirname(tokens)) in secrets,
          "the token file comes from a Secret mounted where PYWARD_AUTH_TOKEN_FILE points")

    probes = {k: c.get(k, {}).get("httpGet", {}) for k in
              ("readinessProbe", "livenessProbe", "startupProbe")}
    point(probes["readinessProbe"].get("path") == "/readyz",
          "readiness probe on /readyz")
    point(probes["livenessProbe"].get("path") == "/healthz",
          "liveness probe on /healthz")
    point(all(p.get("port") in ports or p.get("port") in ports.values()
              for p in probes.values() if p),
          "the probes use the container's port")
    point(env.get("PYWARD_LOG_PROBES") in (None, "0"),
          "the probes are left out of the access log")

    sc = c.get("securityContext", {})
    caps = set(sc.get("capabilities", {}).get("add", []))
    unit_caps = {x.removeprefix("CAP_") for x in
                 " ".join(unit.get("CapabilityBoundingSet", [])).split()}
    point(caps and caps == unit_caps,
          "the pod adds exactly the capabilities the systemd unit keeps",
          f"pod {sorted(caps)} unit {sorted(unit_caps)}")
    point(sc.get("capabilities", {}).get("drop") == ["ALL"], "every other capability dropped")
    point(sc.get("allowPrivilegeEscalation") is False and sc.get("privileged") is False,
          "not privileged, no privilege escalation (no_new_privs)")
    point(sc.get("runAsUser") == 0 and pod.get("hostUsers") is True,
          "root of the node's user namespace (pyward drops to nobody per run)")
    point(sc.get("seccompProfile", {}).get("type") and
          sc.get("appArmorProfile", {}).get("type"),
          "seccomp and AppArmor profiles are set explicitly")
    point(sc.get("readOnlyRootFilesystem") is True and "/tmp" in cmounts,
          "read-only root file system, a volume for the scratch directories")
    faults = baseline_faults(pod)
    point(sorted(faults) == sorted(["pyward: capabilities ['SYS_ADMIN']",
                                    "seccompProfile Unconfined",
                                    "appArmorProfile Unconfined"]),
          "the pyward pod needs of Pod Security exactly what doc/DEPLOY.md "
          "says baseline refuses (SYS_ADMIN, unconfined seccomp and AppArmor)",
          faults)
    point(not restricted_faults(rpod),
          "the router's pod passes Pod Security \"restricted\"",
          restricted_faults(rpod))

    grace = int(env.get("PYWARD_GRACE") or 30)
    pre = c.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
    pre_s = int(pre[-1]) if pre and pre[-1].isdigit() else 0
    point(pod.get("terminationGracePeriodSeconds", 30) > grace + pre_s,
          "the pod's grace period covers preStop and pyward's drain",
          f"{pod.get('terminationGracePeriodSeconds')} vs {grace}+{pre_s}")
    text = yaml.safe_dump_all(objs)
    point("affinity is needed" not in text.lower() and
          "no affinity" not in text.lower(),
          "no claim that the pods need no affinity")


def check_baseline(objs):
    """contrib/kubernetes-baseline: every pod passes "baseline"; the pyward
    pod drops only what baseline refuses."""
    pods = [(o["metadata"]["name"], o["spec"]["template"]["spec"]) for o in objs
            if o.get("kind") in ("StatefulSet", "Deployment")]
    point(len(pods) == 2 and all(not baseline_faults(p) for _, p in pods),
          "kubernetes-baseline: every pod passes Pod Security \"baseline\"",
          {n: baseline_faults(p) for n, p in pods})
    sts = (find(objs, "StatefulSet", "pyward") or [{}])[0]
    c = (sts.get("spec", {}).get("template", {}).get("spec", {})
         .get("containers") or [{}])[0]
    sc = c.get("securityContext", {})
    point(set(sc.get("capabilities", {}).get("add", [])) ==
          {"SETUID", "SETGID", "CHOWN", "KILL", "SYS_CHROOT"} and
          sc.get("seccompProfile", {}).get("type") == "Localhost" and
          os.path.exists(os.path.join(SRCDIR, "contrib", "kubernetes-baseline",
                                      sc["seccompProfile"].get("localhostProfile", "?"))),
          "kubernetes-baseline: the pyward pod keeps all but SYS_ADMIN, with "
          "the Localhost seccomp profile shipped beside it")


def check_memory_docs():
    """One default memory figure: the one rules/seccomp.json gives, in
    every place the docs and manifests name a default memory limit."""
    with open(os.path.join(SRCDIR, "rules", "seccomp.json"), encoding="utf-8") as f:
        want = json.load(f)["defaults"]["memory"] >> 20
    files = [os.path.join(SRCDIR, "doc", n) for n in sorted(os.listdir(
        os.path.join(SRCDIR, "doc"))) if n.endswith((".md", ".1"))]
    for d in ("kubernetes", "kubernetes-baseline", "haproxy", "systemd"):
        top = os.path.join(SRCDIR, "contrib", d)
        files += [os.path.join(top, n) for n in sorted(os.listdir(top))]
    pat = re.compile(r"default (\d+) ?MiB (?:memory )?limit"
                     r"|default memory (?:limit )?(?:is |of )?(\d+) ?(?:MiB|m\b)"
                     r"|memory[^.;]{0,40}?default (?:is )?(\d+) ?(?:MiB|m\b)", re.I)
    wrong = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                for m in pat.finditer(line):
                    if int(next(g for g in m.groups() if g)) != want:
                        wrong.append(f"{os.path.relpath(path, SRCDIR)}:{n}: {line.strip()}")
    point(not wrong, f"every default memory limit named in doc/ and contrib/ is "
          f"{want} MiB (rules/seccomp.json)", "\n".join(wrong))


def check_unit(unit, known):
    start = unit.get("ExecStart", [""])[0].split()
    point(len(start) >= 2 and start[0].endswith("/pyward") and start[1] == "serve",
          "the unit runs pyward serve", start)
    env = {}
    for e in unit.get("Environment", []):
        key, _, value = e.partition("=")
        env[key] = value
    known_point(known, env, "the unit's variables are ones pyward serve knows")
    stop = int(unit.get("TimeoutStopSec", ["90"])[0].rstrip("s"))
    point(unit.get("KillMode") == ["mixed"] and stop > int(env.get("PYWARD_GRACE", 30)),
          "SIGTERM to the server alone, and time for its drain (KillMode=mixed)")


def haproxy_timeouts(path):
    values = {}
    servers = []
    checks = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if words[:1] == ["timeout"] and len(words) == 3:
                values[words[1]] = words[2]
            elif words[:1] == ["server"]:
                servers.append(words)
            elif words[:2] == ["http-check", "send"]:
                checks.append(words)
    return values, servers, checks


def seconds(text):
    m = re.fullmatch(r"(\d+)(ms|s|m)?", text)
    scale = {"ms": 0.001, "s": 1, "m": 60, None: 0.001}[m.group(2)]
    return int(m.group(1)) * scale


def check_haproxy(path, defaults):
    t, servers, checks = haproxy_timeouts(path)
    point(len(servers) == 3 and all("check" in s for s in servers),
          "HAProxy: three instances, each health-checked")
    point(any("/readyz" in c for c in checks), "HAProxy checks /readyz")
    point(seconds(t["http-request"]) < defaults["request-timeout"],
          "HAProxy cuts slow clients before pyward's --request-timeout")
    point(seconds(t["server"]) > defaults["max-timeout"],
          "HAProxy waits longer than the longest run (--max-timeout)")
    point(seconds(t["http-keep-alive"]) < defaults["idle-timeout"],
          "HAProxy closes idle connections before pyward's --idle-timeout")


def check_haproxy_dns(path, static, defaults):
    """The router of contrib/kubernetes: the static configuration's
    timeouts and retries, pods found by DNS."""
    t, servers, checks = haproxy_timeouts(path)
    t0, _, _ = haproxy_timeouts(static)
    for k in ("resolve", "retry"):  # the resolvers' own
        t.pop(k, None)
    point(t == t0, "the Kubernetes router's timeouts are contrib/haproxy's",
          f"{t} vs {t0}")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    point(re.search(r"^\s*server-template \S+ \d+ \S+ check$", text, re.M)
          and "resolvers cluster" in text and "do-resolve(" in text,
          "the Kubernetes router finds the pods by DNS (server-template, "
          "do-resolve)")
    point(any("/readyz" in c for c in checks), "the Kubernetes router checks /readyz")


def main():
    global n, SRCDIR
    SRCDIR, unit_path, help_path = sys.argv[1:4]
    n = int(sys.argv[4]) - 1 if len(sys.argv) > 4 else 0
    known = help_vars(help_path)
    unit = unit_settings(unit_path)
    with open(os.path.join(SRCDIR, "rules", "seccomp.json"), encoding="utf-8") as f:
        defaults = {"memory": json.load(f)["defaults"]["memory"] >> 20}
    objs = render(os.path.join(SRCDIR, "contrib", "kubernetes"))
    check_kubernetes(objs, unit, known, defaults)
    check_baseline(render(os.path.join(SRCDIR, "contrib", "kubernetes-baseline")))
    check_memory_docs()
    check_unit(unit, known)
    # pyward's defaults (conf.c), which pyward serve --help does not print.
    timeouts = {"request-timeout": 30, "max-timeout": 300, "idle-timeout": 60}
    static = os.path.join(SRCDIR, "contrib", "haproxy", "haproxy.cfg")
    dns = os.path.join(SRCDIR, "contrib", "kubernetes", "haproxy.cfg")
    check_haproxy(static, timeouts)
    check_haproxy_dns(dns, static, timeouts)
    print(f"1..{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
