# SPDX-License-Identifier: Apache-2.0
"""bench-events.py - what the security event log costs execute_code,
measured in one run: three `pyward serve` over stdio, the event log off,
to a file (with --log-code), and to a pipe nobody reads (its records
dropped once the pipe and the log's buffer are full: the writer must not
block), called in turn, round after round (the order rotating), so that
the host's load falls on all three alike.  Printed: each server's median
and 90th percentile latency of print('hi') back to back, the same for a
validator rejection (a refusal record each, past the rate limit a
summary), and the ratios to the server without events: of the
medians, and the median of each round's ratio (paired: a load that comes
and goes falls on both); then each server process's own CPU time per
call (its runs' not: what the loop spends, which other processes' load
does not change much), and its ratio.

usage: python3 bench-events.py PYWARD [ROUNDS]"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

OK = "print('hi')"
REJECTED = "__import__('os').system('id')"


class Serve:
    """`pyward serve` over stdio with ARGS, requests matched to ids."""

    def __init__(self, pyward, args, pass_fds=()):
        self.p = subprocess.Popen([pyward, "serve", *args],
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL,
                                  pass_fds=pass_fds)
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
            ev = self.waiting.pop(msg.get("id"), None)
            if ev is not None:
                ev[1] = msg
                ev[0].set()

    def call(self, method, params):
        with self.lock:
            self.n += 1
            rid = self.n
        ev = [threading.Event(), None]
        self.waiting[rid] = ev
        self.p.stdin.write((json.dumps({"jsonrpc": "2.0", "id": rid,
                                        "method": method,
                                        "params": params}) + "\n").encode())
        self.p.stdin.flush()
        ev[0].wait(60)
        return ev[1]

    def run(self, code):
        t0 = time.perf_counter()
        msg = self.call("tools/call", {"name": "execute_code",
                                       "arguments": {"code": code}})
        took = time.perf_counter() - t0
        st = msg["result"]["structuredContent"]["status"]
        return took, st

    def cpu(self):
        """The server process's own CPU seconds (its runs' not)."""
        with open("/proc/%d/stat" % self.p.pid) as f:
            rest = f.read().rpartition(")")[2].split()
        return (int(rest[11]) + int(rest[12])) / os.sysconf("SC_CLK_TCK")

    def close(self):
        self.p.stdin.close()
        self.p.wait(30)


def main():
    pyward = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    tmp = tempfile.mkdtemp(prefix="pyward-bench-events-")
    log = os.path.join(tmp, "events.jsonl")
    r, w = os.pipe()
    servers = {
        "off": Serve(pyward, ["--event-log", "off"]),
        "file": Serve(pyward, ["--event-log", log, "--log-code"]),
        "stuck pipe": Serve(pyward, ["--event-log", "fd:%d" % w],
                            pass_fds=(w,)),
    }
    os.close(w)
    names = list(servers)
    for s in servers.values():  # warm: spares in the pools
        for _ in range(20):
            s.run(OK)
    lat = {(n, k): [] for n in names for k in ("run", "rejected")}
    cpu0 = {n: servers[n].cpu() for n in names}
    for i in range(rounds):
        order = names[i % 3:] + names[:i % 3]
        for kind, code, want in (("run", OK, "ok"),
                                 ("rejected", REJECTED, "rejected")):
            for n in order:
                took, st = servers[n].run(code)
                if st != want:
                    sys.exit("%s: %s gave %s" % (n, code, st))
                lat[(n, kind)].append(took)
    cpu = {n: servers[n].cpu() - cpu0[n] for n in names}
    for s in servers.values():
        s.close()
    os.close(r)
    size = os.path.getsize(log)
    print("rounds: %d (each server: %d runs, %d rejections back to back)"
          % (rounds, rounds, rounds))
    print("%-11s %-9s %9s %9s %7s %7s" % ("events", "call", "p50 ms",
                                          "p90 ms", "ratio", "paired"))
    for kind in ("run", "rejected"):
        off = lat[("off", kind)]
        base = statistics.median(off)
        for n in names:
            v = sorted(lat[(n, kind)])
            p50 = statistics.median(v)
            p90 = v[int(len(v) * 0.9)]
            # The median of each round's ratio to the server without
            # events: a load that comes and goes falls on both.
            paired = statistics.median(
                a / b for a, b in zip(lat[(n, kind)], off))
            print("%-11s %-9s %9.3f %9.3f %7.3f %7.3f"
                  % (n, kind, p50 * 1e3, p90 * 1e3, p50 / base, paired))
    print("%-11s %22s %7s" % ("events", "server CPU per call ms",
                              "ratio"))
    for n in names:
        print("%-11s %22.3f %7.3f" % (n, cpu[n] / (2 * rounds) * 1e3,
                                      cpu[n] / cpu["off"]))
    print("event log written: %d bytes" % size)


if __name__ == "__main__":
    main()
