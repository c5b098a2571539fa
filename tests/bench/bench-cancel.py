# SPDX-License-Identifier: Apache-2.0
# bench-cancel.py - how soon a cancelled run stops using CPU.  One `pyward
# serve` over JSON-RPC runs `while True: pass`; once the run's process has
# used CPU, the client sends notifications/cancelled for it and this
# program samples the process's CPU time (/proc/PID/stat) until it is
# gone.  The figure is the time from the cancel to the run's last CPU
# tick, and to the process gone.  The baseline, measured in the same run
# on the same kind of process: the time from a SIGKILL this program sends
# itself to a busy run to that run's process gone (what the kernel takes
# to end a process spinning on a CPU, the floor for any cancel).
#
# usage: bench-cancel.py [--runs N]   (`make bench-cancel`)
import argparse
import os
import signal
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from serve_client import ServeClient, descendants  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
BUSY = "while True:\n    pass\n"
TARGET_MS = 100.0
TICK = os.sysconf("SC_CLK_TCK")


def cpu_ticks(pid):
    """utime + stime of PID in clock ticks, or None once it is gone (or
    a zombie)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            rest = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    if rest[0] in ("Z", "X"):
        return None
    return int(rest[11]) + int(rest[12])


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return None


class Server(ServeClient):
    def __init__(self):
        super().__init__(PYWARD, "basic", sys.stderr)
        self.call("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def start_busy(self):
        """Send a busy run; its request id and its process once that has
        used CPU."""
        before = descendants(self.p.pid)
        self.next_id += 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                   "params": {"name": "execute_code",
                              "arguments": {"code": BUSY, "timeout": 30}}})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            # The spare that took the run was there before, idle: the
            # busy one is the child whose CPU time grows.
            for pid in descendants(self.p.pid) | before:
                if comm(pid) != "pyward-run":
                    continue  # the zygote, forking the next spare
                t0 = cpu_ticks(pid)
                if t0 is None:
                    continue
                time.sleep(0.02)
                t1 = cpu_ticks(pid)
                if t1 is not None and t1 - t0 >= 1:
                    return rid, pid
            time.sleep(0.01)
        sys.exit("the busy run never used CPU")

    def drain(self, rid):
        """Read until the answer to RID (or to nothing: a cancelled
        request is not answered) and a ping's answer come."""
        _, msg = self.call("ping", {}, wait=30)
        if msg is None:
            sys.exit("the server did not answer a ping after the cancel")


def watch(pid, since):
    """(last CPU tick, gone) of PID in seconds after SINCE."""
    last = cpu_ticks(pid)
    last_t = since
    while True:
        now = cpu_ticks(pid)
        t = time.perf_counter()
        if now is None:
            return last_t - since, t - since
        if now != last:
            last, last_t = now, t
        if t - since > 10:
            sys.exit(f"run {pid} still alive 10 s after its cancel")
        time.sleep(0.001)


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    opts = ap.parse_args()
    srv = Server()
    cancel_cpu, cancel_gone, kill_gone = [], [], []
    try:
        for i in range(2 * opts.runs):
            rid, pid = srv.start_busy()
            t = time.perf_counter()
            if i % 2 == 0:
                srv.send({"jsonrpc": "2.0",
                          "method": "notifications/cancelled",
                          "params": {"requestId": rid,
                                     "reason": "bench"}})
                cpu, gone = watch(pid, t)
                cancel_cpu.append(cpu)
                cancel_gone.append(gone)
            else:
                os.kill(pid, signal.SIGKILL)
                _, gone = watch(pid, t)
                kill_gone.append(gone)
            srv.drain(rid)
    finally:
        srv.p.stdin.close()
        srv.p.wait(timeout=30)

    def row(name, xs):
        print(f"{name:<44} p50 {1000 * pct(xs, 0.5):8.2f} ms   "
              f"p99 {1000 * pct(xs, 0.99):8.2f} ms   "
              f"max {1000 * max(xs):8.2f} ms")

    print(f"{opts.runs} busy runs cancelled, {opts.runs} killed directly "
          f"(clock tick {1000 / TICK:.0f} ms; CPU is sampled by the tick)")
    row("cancel -> last CPU tick", cancel_cpu)
    row("cancel -> process gone", cancel_gone)
    row("baseline: SIGKILL -> process gone", kill_gone)
    base = statistics.median(kill_gone)
    print(f"cancel -> gone against the baseline: "
          f"x{statistics.median(cancel_gone) / base:.1f} (p50)")
    worst = 1000 * max(cancel_cpu)
    print(f"target: no CPU used 100 ms after the cancel; worst "
          f"{worst:.2f} ms: {'met' if worst <= TARGET_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
