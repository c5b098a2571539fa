# SPDX-License-Identifier: Apache-2.0
"""Check the operators' files against each other and against pyward.

check_manifests.py SRCDIR UNIT SERVE_HELP [FIRST]: the Kubernetes manifests under
SRCDIR/contrib/kubernetes/ (parsed with PyYAML), the systemd unit UNIT (as
built) and SRCDIR/contrib/haproxy/haproxy.cfg, with the text of `pyward
serve --help` (SERVE_HELP, a file) for the settings pyward knows.  TAP
points numbered from FIRST (1), the plan at the end.
"""
import os
import re
import sys

import yaml

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


def load_manifests(kdir):
    docs = {}
    for name in sorted(os.listdir(kdir)):
        if not name.endswith(".yaml"):
            continue
        try:
            with open(os.path.join(kdir, name), encoding="utf-8") as f:
                parsed = [d for d in yaml.safe_load_all(f) if d is not None]
        except yaml.YAMLError as e:
            point(False, f"{name} is YAML", e)
            continue
        good = all(
            isinstance(d, dict)
            and isinstance(d.get("apiVersion"), str)
            and isinstance(d.get("kind"), str)
            and (d["kind"] == "Kustomization" or d.get("metadata", {}).get("name"))
            for d in parsed
        )
        point(good and parsed, f"{name}: YAML objects with apiVersion, kind and a name")
        for d in parsed:
            if isinstance(d, dict):
                docs.setdefault(d.get("kind"), []).append((name, d))
    return docs


def one(docs, kind):
    found = docs.get(kind, [])
    point(len(found) == 1, f"one {kind}", f"found {len(found)}")
    return found[0][1] if found else {}


def env_of(container):
    return {e["name"]: e.get("value") for e in container.get("env", [])}


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


def check_kubernetes(docs, unit, known):
    dep = one(docs, "Deployment")
    svc = one(docs, "Service")
    hpa = one(docs, "HorizontalPodAutoscaler")
    pdb = one(docs, "PodDisruptionBudget")
    kust = one(docs, "Kustomization")
    listed = set(kust.get("resources", []))
    files = {name for kind in docs for name, _ in docs[kind] if kind != "Kustomization"}
    point(listed == files, "kustomization.yaml lists every manifest", f"{listed} vs {files}")

    spec = dep.get("spec", {})
    pod = spec.get("template", {}).get("spec", {})
    labels = spec.get("template", {}).get("metadata", {}).get("labels", {})
    selector = spec.get("selector", {}).get("matchLabels", {})
    point(selector and selector.items() <= labels.items(),
          "the Deployment's selector matches its pods' labels")
    point(svc.get("spec", {}).get("selector") == selector,
          "the Service selects the Deployment's pods")
    point(pdb.get("spec", {}).get("selector", {}).get("matchLabels") == selector,
          "the PodDisruptionBudget selects the Deployment's pods")
    ref = hpa.get("spec", {}).get("scaleTargetRef", {})
    point(ref.get("kind") == "Deployment" and ref.get("name") == dep["metadata"]["name"],
          "the HorizontalPodAutoscaler scales the Deployment")
    lo, hi = hpa["spec"].get("minReplicas", 1), hpa["spec"].get("maxReplicas", 0)
    point(pdb["spec"].get("minAvailable", 0) < lo <= hi,
          "HPA: the PDB's minAvailable < minReplicas <= maxReplicas", f"{lo} {hi}")

    containers = pod.get("containers", [])
    point(len(containers) == 1, "one container")
    c = containers[0] if containers else {}
    ports = {p.get("name"): p.get("containerPort") for p in c.get("ports", [])}
    env = env_of(c)
    host, _, port = (env.get("PYWARD_HTTP") or "").rpartition(":")
    point(port.isdigit() and int(port) in ports.values(),
          "PYWARD_HTTP listens on the container's port", env.get("PYWARD_HTTP"))
    target = svc["spec"]["ports"][0].get("targetPort")
    point(target in ports or target in ports.values(),
          "the Service's targetPort is the container's port", target)
    known_point(known, env, "every PYWARD_* variable is one pyward serve knows")

    # A non-loopback address needs tokens: pyward refuses to start without.
    tokens = env.get("PYWARD_AUTH_TOKEN_FILE") or ""
    mounts = {m["mountPath"]: m["name"] for m in c.get("volumeMounts", [])}
    secrets = {v["name"] for v in pod.get("volumes", []) if "secret" in v}
    point(host in ("127.0.0.1", "::1", "localhost")
          or mounts.get(os.path.dirname(tokens)) in secrets,
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
    point(sc.get("readOnlyRootFilesystem") is True and "/tmp" in mounts,
          "read-only root file system, a volume for the scratch directories")
    res = c.get("resources", {})
    point(all(k in res.get(x, {}) for x in ("requests", "limits") for k in ("cpu", "memory")),
          "CPU and memory requests and limits")

    grace = int(env.get("PYWARD_GRACE") or 30)
    pre = c.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
    pre_s = int(pre[-1]) if pre and pre[-1].isdigit() else 0
    point(pod.get("terminationGracePeriodSeconds", 30) > grace + pre_s,
          "the pod's grace period covers preStop and pyward's drain",
          f"{pod.get('terminationGracePeriodSeconds')} vs {grace}+{pre_s}")


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


def main():
    global n
    srcdir, unit_path, help_path = sys.argv[1:4]
    n = int(sys.argv[4]) - 1 if len(sys.argv) > 4 else 0
    known = help_vars(help_path)
    unit = unit_settings(unit_path)
    docs = load_manifests(os.path.join(srcdir, "contrib", "kubernetes"))
    check_kubernetes(docs, unit, known)
    check_unit(unit, known)
    # pyward's defaults (conf.c), which pyward serve --help does not print.
    check_haproxy(os.path.join(srcdir, "contrib", "haproxy", "haproxy.cfg"),
                  {"request-timeout": 30, "max-timeout": 300, "idle-timeout": 60})
    print(f"1..{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
