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

import json
import os
import statistics
import subprocess
import sys
import time

PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")
TARGET_MS = 100.0
PROFILES = [
    ("basic", "print('hi')", ["-S", "-c", "pass"]),
    ("basic,data_science",
     "import numpy as np\nprint(np.arange(4).sum())",
     ["-c", "import numpy, pandas, scipy, matplotlib.pyplot"]),
]


def call(p, msg):
    p.stdin.write(json.dumps(msg) + "\n")
    p.stdin.flush()
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("pyward serve ended early")
        reply = json.loads(line)
        if reply.get("id") == msg["id"]:
            return reply


def one_start(pyward, profiles, code):
    """Seconds to initialize's answer and to the first run's result."""
    t0 = time.perf_counter()
    p = subprocess.Popen([pyward, "serve", "--profiles", profiles],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    call(p, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "bench", "version": "0"}}})
    t_init = time.perf_counter() - t0
    r = call(p, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                 "params": {"name": "execute_code",
                            "arguments": {"code": code}}})
    t_run = time.perf_counter() - t0
    status = r["result"]["structuredContent"]["status"]
    p.stdin.close()
    p.wait()
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
