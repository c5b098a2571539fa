# SPDX-License-Identifier: Apache-2.0
"""test_packages.py - package sets end to end: two wheels built here by
setuptools (tabulate 0.9.0, a module; shapes 1.4.2, a package with a
submodule), `pyward packages install` into a set of a private state
directory, `list` (text and JSON), an sdist refused, `pyward serve
--packages` with PEP 723 scripts that use a package, name a missing
one, a wrong version or a Python this server lacks, validate_code, the
set's own profile and a set attached to basic, get_sandbox_info, the
unvalidated server, and `remove` (one distribution, then the set)."""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from serve_client import ServeClient  # noqa: E402
from tap import plan, point  # noqa: E402
import wheels  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
PYTHON = os.environ.get("PYTHON3", "/usr/bin/python3")

TABULATE = ("def tabulate(rows):\n"
            "    return '\\n'.join(' | '.join(str(c) for c in r) "
            "for r in rows)\n")
SHAPES = {"shapes/__init__.py": "from shapes.area import square\n",
          "shapes/area.py": "def square(n):\n    return n * n\n"}


def script(deps, body):
    return ("# /// script\n# dependencies = " + json.dumps(deps) +
            "\n# ///\n" + body)


def pyward(env, *args):
    return subprocess.run([PYWARD, *args], env=env, capture_output=True,
                          text=True, timeout=300)


def text_of(msg):
    res = (msg or {}).get("result", {})
    return "".join(c.get("text", "") for c in res.get("content", []))


def structured(msg):
    return (msg or {}).get("result", {}).get("structuredContent", {})


class Server:
    def __init__(self, env, args, log):
        self.c = ServeClient(PYWARD, "basic", log, args=args, env=env)
        self.c.call("initialize", {"protocolVersion": "2025-06-18",
                                   "capabilities": {},
                                   "clientInfo": {"name": "t",
                                                  "version": "1"}})

    def tool(self, name, **args):
        _, msg = self.c.call("tools/call", {"name": name,
                                            "arguments": args}, wait=60)
        return msg

    def close(self):
        self.c.p.stdin.close()
        self.c.p.wait(timeout=30)


def serve_points(env, log, wheel_dir):
    s = Server(env, ["--packages", "demo"], log)
    m = s.tool("execute_code", code=script(
        ["tabulate"], "from tabulate import tabulate\n"
                      "print(tabulate([[1, 2], [3, 4]]))\n"))
    point(structured(m).get("stdout") == "1 | 2\n3 | 4\n",
          "a PEP 723 script imports the set's module", text_of(m))
    m = s.tool("execute_code", code=script(
        ["shapes~=1.4", "tabulate==0.9.*"],
        "from shapes.area import square\nprint(square(7))\n"))
    point(structured(m).get("stdout") == "49\n",
          "version specifiers met (~=, ==.*): a submodule imports",
          text_of(m))
    m = s.tool("execute_code", code=script(["pydantic>=2"],
                                           "import pydantic\n"))
    t = text_of(m)
    point(structured(m).get("status") == "rejected" and
          "'pydantic' is not installed on this server" in t and
          "tabulate 0.9.0" in t,
          "a missing distribution: refused, named, what is installed listed",
          t)
    m = s.tool("execute_code", code=script(["tabulate>=1"],
                                           "import tabulate\n"))
    t = text_of(m)
    point(structured(m).get("status") == "rejected" and
          "'tabulate' 0.9.0 is installed on this server, which does not "
          "satisfy '>=1'" in t,
          "an unsatisfied version: refused with the installed version", t)
    m = s.tool("validate_code", code=script(["tabulate<0.9"],
                                            "import tabulate\n"))
    t = json.dumps(m)
    point("does not satisfy '<0.9'" in t and '"valid": false' in t,
          "validate_code reports the version the same way", t[:2000])
    m = s.tool("execute_code", code="# /// script\n"
               "# requires-python = \">=3.12\"\n# ///\nprint(1)\n")
    point(structured(m).get("status") == "rejected" and
          "excludes Python 3.11" in text_of(m),
          "requires-python is checked against the embedded interpreter",
          text_of(m))
    m = s.tool("execute_code", code="import tabulate\n")
    point(structured(m).get("status") == "rejected" and
          "'demo' profile" in text_of(m),
          "without a dependency the set's own profile is not the run's",
          text_of(m))
    m = s.tool("execute_code", code="import shapes\nprint(shapes.square(3))\n",
               profile=["basic", "demo"])
    point(structured(m).get("stdout") == "9\n",
          "a call naming the set's profile imports its modules", text_of(m))
    m = s.tool("create_session", profile=["basic", "demo"])
    sid = structured(m).get("session_id")
    m = s.tool("execute_code", session_id=sid, code=script(
        ["tabulate"], "import tabulate\nprint(tabulate.tabulate([[8]]))\n"))
    point(structured(m).get("stdout") == "8\n",
          "a session created with the set's profile imports its modules",
          text_of(m))
    m = s.tool("create_session", profile=["basic"])
    sid = structured(m).get("session_id")
    m = s.tool("execute_code", session_id=sid, code=script(
        ["tabulate"], "import tabulate\n"))
    point(structured(m).get("status") == "rejected" and
          "needs the 'demo' profile" in text_of(m),
          "a session's profiles are its own: a dependency does not add one",
          text_of(m))
    m = s.tool("get_sandbox_info")
    info = structured(m)
    sets = info.get("package_sets") or []
    point(len(sets) == 1 and sets[0]["name"] == "demo" and
          {(d["name"], d["version"]) for d in sets[0]["distributions"]} ==
          {("tabulate", "0.9.0"), ("shapes", "1.4.2")} and
          sets[0].get("profile") == "demo",
          "get_sandbox_info lists the set, its distributions and profile",
          json.dumps(sets))
    demo = [p for p in info.get("profiles", []) if p["name"] == "demo"]
    point(demo and sorted(demo[0]["modules"]) == ["shapes", "tabulate"],
          "the set's profile lists its modules", json.dumps(demo))
    s.close()

    s = Server(dict(env, SANDBOX_PACKAGES="demo"), [], log)
    sets = structured(s.tool("get_sandbox_info")).get("package_sets") or []
    point([x["name"] for x in sets] == ["demo"],
          "SANDBOX_PACKAGES attaches the set as --packages does",
          json.dumps(sets))
    s.close()

    s = Server(env, ["--packages", "demo:basic"], log)
    m = s.tool("execute_code", code="import tabulate\n"
                                    "print(tabulate.tabulate([[5]]))\n")
    point(structured(m).get("stdout") == "5\n",
          "--packages demo:basic: importable in basic without a dependency",
          text_of(m))
    s.close()

    s = Server(env, ["--packages", "demo", "--packages-preload", "tabulate"],
               log)
    m = s.tool("execute_code", code=script(
        ["tabulate"], "import tabulate\nprint(tabulate.tabulate([[7]]))\n"))
    point(structured(m).get("stdout") == "7\n",
          "--packages-preload: a preloaded module of the set imports",
          text_of(m))
    s.close()
    r = pyward(env, "serve", "--packages", "demo", "--packages-preload",
               "nosuch")
    point(r.returncode == 2 and "provides a module 'nosuch'" in r.stderr,
          "--packages-preload of a module no set provides: refused",
          r.stderr)

    s = Server(env, ["--packages", "demo", "--skip-validation"], log)
    m = s.tool("execute_code", code=script(
        ["tabulate"], "import tabulate\nprint(tabulate.tabulate([[6]]))\n"))
    point(structured(m).get("stdout") == "6\n",
          "unvalidated: a dependency still brings the set for its run",
          text_of(m))
    m = s.tool("execute_code", code="import tabulate\n")
    point(structured(m).get("status") == "error" and
          "not allowed" in text_of(m),
          "unvalidated: without it the guard refuses the import",
          text_of(m))
    s.close()


def traversal_points(env, work):
    """Wheels whose files point outside the set: refused, nothing written
    there, the set as it was."""
    setdir = os.path.join(work, "state", "packages", "demo")
    before = sorted(os.listdir(setdir))
    token = "pw-escape-" + os.urandom(4).hex()
    out = os.path.join(work, "evil")
    for name, path in (("dotdot", f"../../../{token}.py"),
                       ("absolute", f"/tmp/{token}.py")):
        whl = wheels.craft(out, f"evil-{name}", "1.0",
                           {"evil_ok.py": "x = 1\n", path: "x = 2\n"})
        r = pyward(env, "packages", "install", "--set", "demo",
                   "--no-deps", whl)
        leaked = [p for p in (os.path.join(work, f"{token}.py"),
                              os.path.join(work, "state", f"{token}.py"),
                              f"/tmp/{token}.py",
                              os.path.join(os.path.dirname(work),
                                           f"{token}.py"))
                  if os.path.exists(p)]
        point(r.returncode != 0 and not leaked and
              sorted(os.listdir(setdir)) == before,
              f"a wheel whose RECORD points outside ({name}): refused, "
              "nothing written", r.stdout + r.stderr + str(leaked))


def main():
    work = tempfile.mkdtemp(prefix="pyward-packages.")
    os.chmod(work, 0o755)  # runs (nobody, under root) read the set
    env = wheels.pip_env({"PYWARD_STATE_DIR": os.path.join(work, "state")})
    log = open(os.path.join(work, "serve.log"), "w", encoding="utf-8")
    try:
        tab = wheels.build(PYTHON, work, "tabulate", "0.9.0",
                           {"tabulate.py": TABULATE})
        shp = wheels.build(PYTHON, work, "shapes", "1.4.2", SHAPES)
        point(True, "setuptools and wheel build the wheels offline")
    except (subprocess.CalledProcessError, RuntimeError) as e:
        point(False, "setuptools and wheel build the wheels offline",
              getattr(e, "stderr", b"") or str(e))
        return plan()
    wheel_dir = os.path.dirname(tab)
    r = pyward(env, "packages", "install", "--set", "demo", "--no-index",
               "--find-links", wheel_dir, "tabulate", shp)
    setdir = os.path.join(work, "state", "packages", "demo")
    point(r.returncode == 0 and
          os.path.isfile(os.path.join(setdir, "tabulate.py")) and
          os.path.isfile(os.path.join(setdir, "shapes", "area.py")),
          "install: a requirement from --find-links and a wheel file",
          r.stdout + r.stderr)
    point(os.path.isfile(os.path.join(setdir, "__pycache__",
                                      "tabulate.cpython-311.pyc")),
          "install: the modules compiled for the runs to read",
          str(sorted(os.listdir(setdir))))
    r = pyward(env, "packages", "list")
    point(r.returncode == 0 and "tabulate 0.9.0: tabulate" in r.stdout and
          "shapes 1.4.2: shapes" in r.stdout,
          "list: distributions, versions, top-level modules",
          r.stdout + r.stderr)
    r = pyward(env, "packages", "list", "--set", "demo", "--json")
    try:
        sets = json.loads(r.stdout)
    except ValueError:
        sets = []
    point(len(sets) == 1 and sets[0]["name"] == "demo",
          "list --json", r.stdout + r.stderr)
    sdist = os.path.join(work, "x-1.0.tar.gz")
    open(sdist, "wb").close()
    r = pyward(env, "packages", "install", "--set", "demo", sdist)
    point(r.returncode == 2 and "--allow-sdist" in r.stderr,
          "install: an sdist refused without --allow-sdist", r.stderr)
    r = pyward(env, "serve", "--packages", "nosuch")
    point(r.returncode == 2 and "no package set 'nosuch'" in r.stderr,
          "serve --packages with no such set: refused at start", r.stderr)
    if os.geteuid() == 0:
        os.chmod(work, 0o700)
        r = pyward(env, "serve", "--packages", "demo")
        os.chmod(work, 0o755)
        point(r.returncode == 2 and "cannot read it" in r.stderr,
              "serve as root: a set runs could not read is refused",
              r.stderr)
    traversal_points(env, work)
    serve_points(env, log, wheel_dir)
    r = pyward(env, "packages", "remove", "--set", "demo", "tabulate")
    point(r.returncode == 0 and
          not os.path.exists(os.path.join(setdir, "tabulate.py")) and
          os.path.isfile(os.path.join(setdir, "shapes", "area.py")),
          "remove one distribution: its files go, the others stay",
          r.stdout + r.stderr)
    r = pyward(env, "packages", "list", "--set", "demo")
    point("tabulate" not in r.stdout and "shapes 1.4.2" in r.stdout,
          "list after remove", r.stdout)
    r = pyward(env, "packages", "remove", "--set", "demo")
    point(r.returncode == 0 and not os.path.exists(setdir),
          "remove the set", r.stdout + r.stderr)
    log.close()
    subprocess.run(["rm", "-rf", work], check=False)
    return plan()


if __name__ == "__main__":
    sys.exit(main())
