# SPDX-License-Identifier: Apache-2.0
"""bench-compare.py - the local rows of doc/PERFORMANCE.md's comparison
table, measured in one run: print('hi') as a client gets it from
`pyward serve` (execute_code over MCP stdio, back to back and 50 ms
apart, and runs per second with two requests in flight), from spawning
python3 -I -S, and from spawning python3 -I -S inside bubblewrap with
every namespace unshared (if bwrap is installed); and, with PYODIDE_DIR
naming a folder whose node_modules holds pyodide, Pyodide in node: a
fresh interpreter loaded per run, and print('hi') in one warm
interpreter (no isolation between runs).  Each figure is a
median; ratios are the spawned figure over pyward's, printed next to
the performance targets (10x back to back, p50 <= 1 ms 50 ms apart,
1,000 runs/s at concurrency 2).  Last, the floor of any design that
forks a process per run from a warm interpreter: a python3 that imported
what pyward's guard imports forks an empty child and reaps it, one at a
time and in two such processes at once.

usage: python3 bench-compare.py PYWARD [RUNS]"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")
CODE = "print('hi')"
GAP = 0.05


def bwrap_argv():
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return None
    return [bwrap, "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib",
            "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink",
            "usr/bin", "/bin", "--proc", "/proc", "--dev", "/dev",
            "--tmpfs", "/tmp", "--unshare-all", "--die-with-parent",
            "--new-session"]


class Serve:
    """`pyward serve` over stdio with requests matched to their ids."""

    def __init__(self, pyward):
        self.p = subprocess.Popen([pyward, "serve"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.lock = threading.Lock()
        self.waiting = {}
        self.n = 0
        threading.Thread(target=self.reader, daemon=True).start()
        self.call("initialize", {"protocolVersion": "2025-06-18",
                                 "capabilities": {},
                                 "clientInfo": {"name": "bench",
                                                "version": "0"}})

    def reader(self):
        for line in self.p.stdout:
            msg = json.loads(line)
            with self.lock:
                slot = self.waiting.pop(msg.get("id"), None)
            if slot is not None:
                slot.append(msg)
                slot[0].set()

    def call(self, method, params):
        done = threading.Event()
        slot = [done]
        with self.lock:
            self.n += 1
            rid = self.n
            self.waiting[rid] = slot
            self.p.stdin.write((json.dumps({"jsonrpc": "2.0", "id": rid,
                                            "method": method,
                                            "params": params}) +
                                "\n").encode())
            self.p.stdin.flush()
        done.wait()
        return slot[1]

    def run(self):
        r = self.call("tools/call", {"name": "execute_code",
                                     "arguments": {"code": CODE}})
        if r["result"]["structuredContent"]["stdout"] != "hi\n":
            sys.exit("execute_code did not print hi: %s" % r)

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def timed(fn, runs, gap):
    out = []
    for _ in range(runs):
        if gap:
            time.sleep(gap)
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return statistics.median(out)


def rate(fn, runs, conc):
    left = [runs]
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if left[0] == 0:
                    return
                left[0] -= 1
            fn()
    t0 = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(conc)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return runs / (time.perf_counter() - t0)


def spawner(prefix):
    argv = prefix + [PYTHON, "-I", "-S", "-c", CODE]

    def spawn():
        out = subprocess.run(argv, capture_output=True).stdout
        if out != b"hi\n":
            sys.exit("%s printed %r" % (argv[0], out))
    return spawn


# A warm interpreter's bare fork and exit: what a fresh process per run
# costs before any isolation layer, program or protocol.
FLOOR = """
import os, sys, time
for m in ("ast", "json", "traceback", "dataclasses", "inspect", "socket",
          "warnings", "re"):
    __import__(m)
n = int(sys.argv[1])
kb = [int(l.split()[1]) for l in open("/proc/self/status")
      if l.startswith("RssAnon")][0]
t0 = time.perf_counter()
for _ in range(n):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
print(kb, (time.perf_counter() - t0) / n * 1000)
"""


def floor(runs):
    """(anonymous kB, ms a fork and exit one at a time, forks/s with two
    forkers at once)."""
    def start():
        return subprocess.Popen([PYTHON, "-I", "-S", "-c", FLOOR,
                                 str(runs * 4)], stdout=subprocess.PIPE,
                                text=True)
    p = start()
    kb, one = p.communicate()[0].split()
    pair = [start(), start()]
    per = [float(q.communicate()[0].split()[1]) for q in pair]
    return int(kb), float(one), sum(1000 / ms for ms in per)


def pyodide_rows(runs):
    """Pyodide's figures (ms) as printed by bench-pyodide.mjs, or None."""
    folder = os.environ.get("PYODIDE_DIR")
    node = shutil.which("node")
    if not folder or node is None:
        return None
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "bench-pyodide.mjs")
    p = subprocess.run([node, script, folder, str(runs)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print("  (Pyodide not measured: %s)" % p.stderr.strip()[-200:])
        return None
    got = json.loads(p.stdout)
    return statistics.median(got["load_ms"]), got["run_ms"]


def verdict(ok):
    return "met" if ok else "NOT met"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    srv = Serve(sys.argv[1])
    timed(srv.run, 20, 0)
    rows = [("pyward execute_code (MCP stdio)", srv.run)]
    rows.append(("python3 -I -S, spawned", spawner([])))
    bw = bwrap_argv()
    if bw is not None:
        rows.append(("bubblewrap + python3 -I -S", spawner(bw)))
    print("bench-compare: print('hi'), %d runs a figure, medians, %d CPUs"
          % (runs, os.cpu_count()))
    print("  %-34s %12s %12s %12s" % ("", "back to back", "50 ms apart",
                                     "runs/s (2)"))
    got = {}
    for name, fn in rows:
        b2b = timed(fn, runs, 0)
        apart = timed(fn, max(runs // 4, 10), GAP)
        rps = rate(fn, runs, 2)
        got[name] = (b2b, apart, rps)
        print("  %-34s %9.2f ms %9.2f ms %12.0f" % (name, b2b, apart, rps))
    if bw is None:
        print("  (bubblewrap not installed: apt-get install bubblewrap)")
    pyo = pyodide_rows(runs)
    if pyo is not None:
        print("  %-34s %9.2f ms  (a fresh interpreter per run, node)" %
              ("Pyodide: load", pyo[0]))
        print("  %-34s %9.3f ms  (one warm interpreter: no isolation)" %
              ("Pyodide: runPython", pyo[1]))
    srv.close()
    pw = got[rows[0][0]]
    for name, _ in rows[1:]:
        b2b, apart, rps = got[name]
        print("  pyward against %s: x%.1f back to back, x%.1f 50 ms apart,"
              " x%.1f runs/s" % (name, b2b / pw[0], apart / pw[1],
                                 pw[2] / rps))
    spawn = got[rows[1][0]]
    print("  targets: back to back >= 10x spawning python3: x%.1f, %s;"
          " 50 ms apart p50 <= 1 ms: %.2f ms, %s; 1000 runs/s at"
          " concurrency 2: %.0f, %s" %
          (spawn[0] / pw[0], verdict(spawn[0] / pw[0] >= 10), pw[1],
           verdict(pw[1] <= 1.0), pw[2], verdict(pw[2] >= 1000)))
    kb, one, pair = floor(runs)
    print("  floor: a python3 of %.1f MB (the guard's imports) forks and"
          " reaps an empty child: %.3f ms one at a time, %.0f/s two at a"
          " time; the 10x target is %.3f ms back to back (x%.2f that fork)"
          % (kb / 1024, one, pair, spawn[0] / 10, spawn[0] / 10 / one))


if __name__ == "__main__":
    main()
