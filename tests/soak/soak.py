# SPDX-License-Identifier: Apache-2.0
# soak.py - drive many execute_code calls through one `pyward serve` and
# watch the server: its RSS (/proc/PID/status VmRSS), its open fds
# (/proc/PID/fd) and its child processes, at the start and every
# --every calls, then a verdict against the target: RSS growth under
# --rss-kb, fds and children back to their start values.
#
# The mix, in turn: normal programs, program errors, validation
# rejections, timeouts (--timeout, short) and output floods.
#
# usage: soak.py [--calls N] [--every K] [--timeout S] [--rss-kb KB] [--tap]
#   --tap: the verdict as TAP points (for make check), else plain lines.
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from serve_client import ServeClient, proc_table  # noqa: E402

MIX = [
    ("ok", {"code": "print(sum(i * i for i in range(1000)))"}),
    ("ok", {"code": "import json, math\n"
            "d = {'pi': math.pi, 'l': list(range(50))}\n"
            "json.dumps(d)"}),
    ("error", {"code": "def f(x):\n    return 1 / x\nf(0)"}),
    ("ok", {"code": "class A:\n    def __init__(self, n):\n"
            "        self.n = n\n"
            "words = [A(i).n for i in range(200)]\nlen(words)"}),
    ("timeout", {"code": "while True:\n    pass"}),
    ("ok", {"code": "name = input()\nprint('hello', name)",
            "stdin": "soak\n"}),
    ("rejected", {"code": "print(().__class__.__base__)"}),
    ("output_limit", {"code": "while True:\n    print('x' * 4096)"}),
    ("error", {"code": "import collections\n"
               "collections.Counter('abc')['d'] + None"}),
    ("memory_limit", {"code": "x = 'a' * 10 ** 10"}),
]


class Server(ServeClient):
    def __init__(self, pyward, profiles):
        super().__init__(pyward, profiles, subprocess.DEVNULL)

    def call(self, method, params, wait=60.0):
        """The answer, or None."""
        return super().call(method, params, wait)[1]

    def notify(self, method):
        self.send({"jsonrpc": "2.0", "method": method})


def rss_kb(pid):
    with open(f"/proc/{pid}/status", encoding="utf-8") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def children(pid):
    return sum(1 for ppid, state in proc_table().values()
               if ppid == pid and state not in ("Z", "X"))


def sample(pid):
    return (rss_kb(pid), len(os.listdir(f"/proc/{pid}/fd")), children(pid))


def settle(pid, start, wait=5.0):
    """The server's figures once its children are back (a run's child may
    still be on its way out when the answer arrives)."""
    deadline = time.monotonic() + wait
    while True:
        now = sample(pid)
        if (now[1] == start[1] and now[2] == start[2]) or \
                time.monotonic() > deadline:
            return now
        time.sleep(0.05)


def steady(pid, still=1.0, wait=60.0):
    """The server's figures once its fds and children have not changed for
    `still` seconds: a server warms its zygote and spares after answering
    (0.2 s here, longer sanitized), and the start values are the warm
    server's."""
    deadline = time.monotonic() + wait
    last, since = sample(pid), time.monotonic()
    while time.monotonic() - since < still and time.monotonic() < deadline:
        time.sleep(0.05)
        now = sample(pid)
        if now[1:] != last[1:]:
            since = time.monotonic()
        last = now
    return last


def line(calls, figs, start, t0, counts):
    rss, fds, kids = figs
    return (f"calls {calls:6d}  rss {rss:7d} kB ({rss - start[0]:+6d})  "
            f"fds {fds:3d}  children {kids:2d}  "
            f"{time.monotonic() - t0:7.1f} s  " +
            " ".join(f"{k}={v}" for k, v in sorted(counts.items())))


def drive(srv, opts, start, t0):
    """Run the calls; returns (status counts, mismatches)."""
    counts, bad = {}, []
    for i in range(1, opts.calls + 1):
        want, args = MIX[(i - 1) % len(MIX)]
        # The short timeout for the calls that must time out; the others
        # get room for a loaded host (0.2 s timed one out under load).
        args = dict(args, timeout=opts.timeout if want == "timeout"
                    else max(opts.timeout, 10))
        reply = srv.call("tools/call", {"name": "execute_code",
                                        "arguments": args})
        res = ((reply or {}).get("result") or {}).get("structuredContent")
        got = res.get("status") if res else "no answer"
        counts[got] = counts.get(got, 0) + 1
        if got != want and len(bad) < 10:
            bad.append(f"call {i}: status {got}, expected {want}")
        if got == "no answer":
            break
        if i % opts.every == 0:
            print(line(i, settle(srv.p.pid, start), start, t0, counts),
                  flush=True)
    return counts, bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=10000)
    ap.add_argument("--every", type=int, default=1000)
    ap.add_argument("--timeout", type=float, default=0.2)
    ap.add_argument("--rss-kb", type=int, default=5 * 1024)
    ap.add_argument("--profiles", default="basic")
    ap.add_argument("--tap", action="store_true")
    opts = ap.parse_args()
    pyward = os.environ.get("PYWARD", "pyward")
    srv = Server(pyward, opts.profiles)
    srv.call("initialize", {"protocolVersion": "2025-06-18",
                            "capabilities": {},
                            "clientInfo": {"name": "soak", "version": "1"}})
    srv.notify("notifications/initialized")
    # Warm-up: each call of the mix once, so that the start values hold
    # what the first of each kind leaves for good (the output buffers at
    # their high-water mark, the interpreter's caches): growth past them
    # over the soak is what the bound is about.
    for want, args in MIX:
        warm = srv.call("tools/call", {
            "name": "execute_code",
            "arguments": dict(args, timeout=opts.timeout if want ==
                              "timeout" else max(opts.timeout, 10))})
        if warm is None:
            break
    if warm is None:
        print("not ok 1 - the server answers a warm-up call\n1..1")
        return 1
    t0 = time.monotonic()
    start = steady(srv.p.pid)
    prefix = "# " if opts.tap else ""
    sys.stdout.write(prefix)
    print(line(0, start, start, t0, {}), flush=True)
    if opts.tap:
        sys.stdout = Prefixed(sys.stdout, prefix)
    counts, bad = drive(srv, opts, start, t0)
    end = settle(srv.p.pid, start)
    sys.stdout = sys.__stdout__
    alive = srv.call("ping", {}, wait=10.0) is not None
    srv.p.stdin.close()
    code = srv.p.wait(timeout=30)
    return verdict(opts, start, end, counts, bad, alive, code)


class Prefixed:
    def __init__(self, out, prefix):
        self.out, self.prefix = out, prefix

    def write(self, s):
        self.out.write("".join(self.prefix + ln if ln.strip() else ln
                               for ln in s.splitlines(True)))

    def flush(self):
        self.out.flush()


# Built with ASan/UBSan (configure --enable-asan, --enable-ubsan or
# --enable-fuzz): make check says so.
SANITIZED = os.environ.get("PW_SANITIZED") == "1"


def verdict(opts, start, end, counts, bad, alive, code):
    calls = sum(counts.values())
    growth = end[0] - start[0]
    checks = [
        (f"{calls} execute_code calls answered with their expected status",
         calls == opts.calls and not bad, "; ".join(bad)),
        (f"RSS {start[0]} kB -> {end[0]} kB: growth {growth} kB "
         f"< {opts.rss_kb} kB", growth < opts.rss_kb or SANITIZED, ""),
        (f"open fds {start[1]} -> {end[1]}: back to the start value",
         end[1] == start[1], ""),
        (f"children {start[2]} -> {end[2]}: back to the start value",
         end[2] == start[2], ""),
        ("the server answers a ping and exits cleanly on EOF "
         f"(status {code})", alive and code == 0, ""),
    ]
    failed = 0
    for n, (name, ok, why) in enumerate(checks, 1):
        failed += not ok
        if opts.tap and SANITIZED and name.startswith("RSS"):
            # ASan keeps freed memory in quarantine: RSS says nothing of
            # leaks there, LeakSanitizer checks them at the server's exit.
            print(f"ok {n} - {name} # SKIP sanitized build")
        elif opts.tap:
            print(f"{'ok' if ok else 'not ok'} {n} - {name}")
            if why:
                print(f"# {why}")
        else:
            print(f"{'PASS' if ok else 'FAIL'}  {name}" +
                  (f"  ({why})" if why else ""))
    if opts.tap:
        print(f"1..{len(checks)}")
        return 0
    print("verdict:", "PASS" if not failed else "FAIL")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
