# SPDX-License-Identifier: Apache-2.0
# bench-packages.py - what a module of a package set costs a run, next to
# Debian's.  A wheel "benchpkg" (one module of about 400 lines, built
# here by setuptools) is installed into a package set of a private state
# directory; one `pyward serve --packages bench` runs, over JSON-RPC, a
# program importing it (through its PEP 723 dependency) and one importing
# a Debian module of the basic profile (fractions, which the zygote has
# preloaded), alternately; a second server does the same with
# `--packages-preload benchpkg`, and a third, data_science's numpy
# (Debian's python3-numpy, preloaded) for scale.  Each figure is the
# run's own time (execution_time: from the program's start to its end,
# the import included) and the client's round trip: the first run after
# the server is warm, and the median of the warm runs after it.  The
# ratios set/Debian are the result: they are measured in the same run,
# on the same machine, one server at a time.
#
# usage: bench-packages.py [--runs N]   (`make bench-packages`)
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "packages"))
from serve_client import ServeClient  # noqa: E402
import wheels  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
PYTHON = os.environ.get("PYTHON3", "/usr/bin/python3")

SET_PROGRAM = ("# /// script\n# dependencies = [\"benchpkg\"]\n# ///\n"
               "import benchpkg\nprint(benchpkg.f0(3))\n")
DEBIAN_PROGRAM = "import fractions\nprint(fractions.Fraction(3, 1))\n"
NUMPY_PROGRAM = "import numpy\nprint(int(numpy.int64(3)))\n"


def benchpkg_source():
    """About 400 lines: 100 small functions and a class."""
    out = ['"""A module for the benchmark."""', ""]
    for i in range(100):
        out += [f"def f{i}(x):", f"    y = x * {i} + 1",
                f"    return y if y > {i} else -y", ""]
    return "\n".join(out) + "\n"


def call(c, code, profile):
    t0 = time.monotonic()
    _, msg = c.call("tools/call", {"name": "execute_code", "arguments": {
        "code": code, "profile": profile}}, wait=120)
    rt = time.monotonic() - t0
    res = (msg or {}).get("result", {}).get("structuredContent", {})
    if res.get("status") != "ok":
        sys.exit(f"bench-packages: a run failed: {json.dumps(msg)[:500]}")
    return res["execution_time"] * 1e3, rt * 1e3


def measure(env, args, programs, runs):
    """{label: (first, warm median)} of (run ms, round trip ms)."""
    c = ServeClient(PYWARD, "basic,data_science", subprocess.DEVNULL,
                    args=args, env=env)
    c.call("initialize", {"protocolVersion": "2025-06-18",
                          "capabilities": {},
                          "clientInfo": {"name": "bench", "version": "1"}})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # the zygote's imports done
        _, m = c.call("tools/call", {"name": "get_sandbox_info",
                                     "arguments": {}})
        if "importing the profiles' modules" not in json.dumps(m):
            break
        time.sleep(0.2)
    # Each zygote's first spare forked and used, by programs that do
    # not touch the set: the first run measured is the first import of
    # a module, not the first run of a zygote.
    call(c, DEBIAN_PROGRAM, ["basic"])
    call(c, NUMPY_PROGRAM, ["data_science"])
    call(c, "print(1)\n", ["basic", "bench"])
    samples = {label: [] for label, _, _ in programs}
    for _ in range(runs + 1):
        for label, code, profile in programs:
            samples[label].append(call(c, code, profile))
    c.p.stdin.close()
    c.p.wait(timeout=30)
    out = {}
    for label, s in samples.items():
        warm = s[1:]
        out[label] = (s[0], (statistics.median(x[0] for x in warm),
                             statistics.median(x[1] for x in warm)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    opts = ap.parse_args()
    work = tempfile.mkdtemp(prefix="pyward-bench-packages.")
    os.chmod(work, 0o755)
    env = wheels.pip_env({"PYWARD_STATE_DIR": os.path.join(work, "state")})
    whl = wheels.build(PYTHON, work, "benchpkg", "1.0",
                       {"benchpkg.py": benchpkg_source()})
    subprocess.run([PYWARD, "packages", "install", "--set", "bench",
                    "--no-deps", whl], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pair = [("set module (lazy)", SET_PROGRAM, ["basic"]),
            ("Debian module (fractions)", DEBIAN_PROGRAM, ["basic"]),
            ("Debian numpy", NUMPY_PROGRAM, ["data_science"])]
    lazy = measure(env, ["--packages", "bench"], pair, opts.runs)
    pre = measure(env, ["--packages", "bench", "--packages-preload",
                        "benchpkg"],
                  [("set module (preloaded)", SET_PROGRAM, ["basic"]),
                   ("Debian module (fractions)", DEBIAN_PROGRAM, ["basic"])],
                  opts.runs)
    subprocess.run(["rm", "-rf", work], check=False)
    print(f"{'':28} {'first run':>20} {'warm (median of %d)' % opts.runs:>22}")
    print(f"{'':28} {'run ms':>9} {'trip ms':>10} {'run ms':>10} "
          f"{'trip ms':>11}")
    for table in (lazy, pre):
        for label, (first, warm) in table.items():
            print(f"{label:28} {first[0]:9.2f} {first[1]:10.2f} "
                  f"{warm[0]:10.2f} {warm[1]:11.2f}")
    for name, table, key in (("lazy", lazy, "set module (lazy)"),
                             ("preloaded", pre, "set module (preloaded)")):
        s, d = table[key], table["Debian module (fractions)"]
        print(f"ratio set ({name}) / Debian: first run "
              f"{s[0][0] / d[0][0]:.2f} (run), {s[0][1] / d[0][1]:.2f} "
              f"(trip); warm {s[1][0] / d[1][0]:.2f} (run), "
              f"{s[1][1] / d[1][1]:.2f} (trip)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
