# SPDX-License-Identifier: Apache-2.0
# bench-sessions.py - sessions against fresh runs through one `pyward
# serve` over JSON-RPC: the round trip of execute_code fresh and as the
# call of a live session (the same program, interleaved), create_session
# and close_session, fork_session next to create_session (a copy of a
# session holding state against a new empty one), and the memory of an
# idle session's process and of a copy (RSS, PSS and private memory from
# /proc/PID/smaps_rollup); the time from a call's time limit to its
# answer (a session's call interrupted, one killed after the grace
# period, a fresh run killed at its limit), and execute_code with and
# without its output streamed in progress notifications.
#
# usage: bench-sessions.py [--calls N]   (`make bench-sessions`)
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from serve_client import (ServeClient, descendants,  # noqa: E402
                          proc_table)

PYWARD = os.environ.get("PYWARD", "./pyward")
PROGRAM = "total = sum(i * i for i in range(1000))\nprint(total)"


class Server(ServeClient):
    def __init__(self, spares, profiles="basic,data_science"):
        super().__init__(PYWARD, profiles, sys.stderr,
                         env={"PYWARD_SPARES": str(spares)})
        self.call("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"}})

    def tool(self, name, may_fail=False, **args):
        t = time.perf_counter()
        _, msg = self.call("tools/call", {"name": name, "arguments": args})
        took = time.perf_counter() - t
        res = msg["result"]
        if res.get("isError") and not may_fail:
            sys.exit(f"{name}: {res['content'][0]['text']}")
        return took, res.get("structuredContent") or {}

    def children(self):
        return {p for p, (pp, _) in proc_table().items() if pp == self.p.pid}


def ms(v):
    return f"{1000 * v:.2f} ms"


def summary(name, xs):
    xs = sorted(xs)
    med = statistics.median(xs)
    p90 = xs[int(0.9 * (len(xs) - 1))]
    print(f"{name:<36} median {ms(med):>10}   p90 {ms(p90):>10}")
    return med


def memory(pid):
    """(RSS, PSS, private) kB of PID from smaps_rollup."""
    got = {}
    with open(f"/proc/{pid}/smaps_rollup", encoding="utf-8") as f:
        for line in f:
            k, _, rest = line.partition(":")
            if k in ("Rss", "Pss", "Private_Clean", "Private_Dirty"):
                got[k] = int(rest.split()[0])
    return (got["Rss"], got["Pss"],
            got["Private_Clean"] + got["Private_Dirty"])


def latency(calls):
    s = Server(2)
    for _ in range(20):  # warm-up
        s.tool("execute_code", code=PROGRAM)
    sid = s.tool("create_session")[1]["session_id"]
    fresh, inside, create, close = [], [], [], []
    for _ in range(calls):
        fresh.append(s.tool("execute_code", code=PROGRAM)[0])
        inside.append(s.tool("execute_code", code=PROGRAM,
                             session_id=sid)[0])
    s.tool("close_session", session_id=sid)
    for _ in range(max(20, calls // 5)):
        t, r = s.tool("create_session")
        create.append(t)
        close.append(s.tool("close_session", session_id=r["session_id"])[0])
        time.sleep(0.02)  # the pool refills between creations
    f = summary("execute_code, fresh run", fresh)
    i = summary("execute_code in a live session", inside)
    summary("create_session (ready to run)", create)
    summary("close_session", close)
    print(f"per call, fresh / session: {f / i:.1f}x")
    s.p.stdin.close()
    s.p.wait()


SPIN = "while True:\n    pass"
SWALLOW = ("import time\nwhile True:\n    try:\n        time.sleep(5)\n"
           "    except KeyboardInterrupt:\n        pass")
LIMIT = 0.3


def interrupts(n):
    """From a call's time limit to its answer: a session's call
    interrupted (the session kept), a session's call that ignores its
    KeyboardInterrupt (killed after the grace period), and the baseline,
    a fresh run killed at its limit."""
    s = Server(2)
    for _ in range(10):
        s.tool("execute_code", code=PROGRAM)
    fresh, kept, killed = [], [], []
    sid = s.tool("create_session")[1]["session_id"]
    for _ in range(n):
        fresh.append(s.tool("execute_code", True, code=SPIN,
                            timeout=LIMIT)[0] - LIMIT)
        t, r = s.tool("execute_code", True, code=SPIN, timeout=LIMIT,
                      session_id=sid)
        if r.get("timeout_interrupt") != "interrupted":
            sys.exit(f"not interrupted: {r}")
        kept.append(t - LIMIT)
    for _ in range(max(3, n // 10)):
        sid = s.tool("create_session")[1]["session_id"]
        t, r = s.tool("execute_code", True, code=SWALLOW, timeout=LIMIT,
                      session_id=sid)
        if r.get("timeout_interrupt") != "killed":
            sys.exit(f"not killed: {r}")
        killed.append(t - LIMIT)
    print(f"time limit ({LIMIT} s) to answer:")
    summary("  fresh run, killed (baseline)", fresh)
    summary("  session call, interrupted, kept", kept)
    summary("  session call, interrupt ignored", killed)
    s.p.stdin.close()
    s.p.wait()


PRINTS = ("import time\nfor i in range(6):\n    print('line', i, flush=True)"
          "\n    time.sleep(0.05)")


def streamed(s, code, token):
    """(round trip, notifications) of execute_code CODE, with progress
    TOKEN (None: none)."""
    s.next_id += 1
    params = {"name": "execute_code", "arguments": {"code": code}}
    if token is not None:
        params["_meta"] = {"progressToken": token}
    t = time.perf_counter()
    s.send({"jsonrpc": "2.0", "id": s.next_id, "method": "tools/call",
            "params": params})
    notes = 0
    deadline = time.monotonic() + 60
    while True:
        line = s.readline(deadline)
        if line is None:
            sys.exit("no answer")
        if f'"id":{s.next_id},' in line.replace(" ", ""):
            return time.perf_counter() - t, notes
        notes += 1


def streaming(calls):
    """execute_code with a progressToken (its output streamed in progress
    notifications) against the same call without (the baseline)."""
    s = Server(2)
    for _ in range(10):
        s.tool("execute_code", code=PROGRAM)
    for code, what in ((PROGRAM, "a short program"),
                       (PRINTS, "6 lines over 0.3 s")):
        plain, stream, notes = [], [], []
        for i in range(calls):
            plain.append(streamed(s, code, None)[0])
            t, k = streamed(s, code, f"b{i}")
            stream.append(t)
            notes.append(k)
        print(f"execute_code, {what}:")
        summary("  without progress (baseline)", plain)
        summary("  with streamed progress", stream)
        print(f"  notifications per call: median "
              f"{statistics.median(notes):.0f}")
    s.p.stdin.close()
    s.p.wait()


STATE = "data = [str(i) * 8 for i in range(200000)]\nlen(data)"


def fork_times(s, sid, n):
    """fork_session of SID, N times (each copy closed), and
    create_session of an empty basic session between them."""
    fork, create = [], []
    for _ in range(n):
        t, r = s.tool("fork_session", session_id=sid)
        fork.append(t)
        s.tool("close_session", session_id=r["session_id"])
        t, r = s.tool("create_session", profile="basic")
        create.append(t)
        s.tool("close_session", session_id=r["session_id"])
        time.sleep(0.02)  # the pool refills between creations
    return fork, create


def forks(calls, profiles):
    """fork_session in a server with PROFILES enabled (a copy is a clone
    of the session's process, whose size is the zygote's: the profiles'
    modules)."""
    print(f"server with {profiles}:")
    s = Server(2, profiles)
    time.sleep(1)  # the profiles' modules imported
    sid = s.tool("create_session", profile="basic")[1]["session_id"]
    s.tool("execute_code", session_id=sid, code="x = 1")
    n = max(20, calls // 5)
    fork, create = fork_times(s, sid, n)
    f = summary("  fork_session (a few names held)", fork)
    c = summary("  create_session (empty), same run", create)
    print(f"  fork_session / create_session: {f / c:.2f}x")
    s.tool("execute_code", session_id=sid, code=STATE)
    fork, create = fork_times(s, sid, n)
    f = summary("  fork_session (200k strings held)", fork)
    c = summary("  create_session (empty), same run", create)
    print(f"  fork_session / create_session: {f / c:.2f}x")
    before = descendants(s.p.pid)
    copy = s.tool("fork_session", session_id=sid)[1]["session_id"]
    s.tool("execute_code", session_id=copy, code="len(data)")
    time.sleep(0.2)
    new = sorted(descendants(s.p.pid) - before)
    for pid in new:
        rss, pss, own = memory(pid)
        print(f"  a copy of it, idle: RSS {rss} kB, PSS {pss} kB, private "
              f"{own} kB (pid {pid})")
    s.p.stdin.close()
    s.p.wait()


def idle_memory():
    s = Server(0)
    time.sleep(0.5)
    before = s.children()
    sid = s.tool("create_session")[1]["session_id"]
    pid = (s.children() - before).pop()
    s.tool("execute_code", code=PROGRAM, session_id=sid)
    time.sleep(0.2)
    rss, pss, own = memory(pid)
    print(f"idle session (basic): RSS {rss} kB, PSS {pss} kB, private "
          f"{own} kB")
    s.tool("execute_code", session_id=sid,
           code="import numpy as np\na = np.arange(10 ** 6)\nint(a.sum())")
    time.sleep(0.2)
    rss, pss, own = memory(pid)
    print(f"idle session holding a 1e6 numpy array: RSS {rss} kB, PSS "
          f"{pss} kB, private {own} kB")
    s.p.stdin.close()
    s.p.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=200)
    opts = ap.parse_args()
    latency(opts.calls)
    interrupts(max(5, opts.calls // 10))
    streaming(max(10, opts.calls // 4))
    forks(opts.calls, "basic")
    forks(opts.calls, "basic,data_science")
    idle_memory()


if __name__ == "__main__":
    main()
