# SPDX-License-Identifier: Apache-2.0
"""bench-startup.py - how soon a new `pyward serve` answers, with the
basic profile and with data_science: the time from spawning it to the
answer of `initialize`, and to the result of a first execute_code sent
right after (it waits while the zygote imports the profiles' modules).
Next to them, measured in the same run: spawning python3 until it exits,
bare (`-I -S -c pass`) and importing what the profile preloads, the cost
a server that imports before it answers pays.  Each figure is the median
of ROUNDS rounds; the performance target for initialize is 100 ms
whatever the profiles.

usage: python3 bench-startup.py PYWARD [ROUNDS]"""

import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from serve_client import ServeClient  # noqa: E402

PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")
TARGET_MS = 100.0
PROFILES = [
    ("basic", "print('hi')", ["-S", "-c", "pass"]),
    ("basic,data_science",
     "import numpy as np\nprint(np.arange(4).sum())",
     ["-c", "import numpy, pandas, scipy, matplotlib.pyplot"]),
]


def one_start(pyward, profiles, code):
    """Seconds to initialize's answer and to the first run's result."""
    t0 = time.perf_counter()
    srv = ServeClient(pyward, profiles, subprocess.DEVNULL)
    _, init = srv.call("initialize", {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "0"}})
    t_init = time.perf_counter() - t0
    _, r = srv.call("tools/call", {"name": "execute_code",
                                   "arguments": {"code": code}}, wait=120)
    t_run = time.perf_counter() - t0
    srv.p.stdin.close()
    srv.p.wait()
    if init is None or r is None:
        sys.exit("pyward serve did not answer")
    status = r["result"]["structuredContent"]["status"]
    if status != "ok":
        sys.exit("the first run ended as %s: %s" % (status, r))
    return t_init, t_run


def spawn(args):
    t0 = time.perf_counter()
    subprocess.run([PYTHON, "-I", *args], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    pyward = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    print("bench-startup: median of %d rounds, %d CPUs" %
          (rounds, os.cpu_count()))
    for profiles, code, args in PROFILES:
        baseline = " ".join(args[:-1] + ["'%s'" % args[-1]])
        inits, runs, spawns = [], [], []
        for _ in range(rounds):
            t_init, t_run = one_start(pyward, profiles, code)
            inits.append(t_init * 1000)
            runs.append(t_run * 1000)
            spawns.append(spawn(args) * 1000)
        init, run, base = (statistics.median(x) for x in (inits, runs, spawns))
        print("  --profiles %s" % profiles)
        print("    initialize answered     %8.1f ms  target %.0f ms: %s"
              "  (x%.2f of python3 %s)" %
              (init, TARGET_MS, "met" if init <= TARGET_MS else "NOT met",
               init / base, baseline))
        print("    first run's result      %8.1f ms  (x%.2f of python3 %s)" %
              (run, run / base, baseline))
        print("    python3 -I %s  %.1f ms" % (baseline, base))


if __name__ == "__main__":
    main()
