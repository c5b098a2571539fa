# SPDX-License-Identifier: Apache-2.0
# many_servers.py - several `pyward serve` on one host: every run of each
# one works.  The runs of every server share one uid, and the kernel
# counts the fds that uid has in flight over Unix sockets host-wide: each
# idle spare keeps its seccomp listener (and workspace fd) in flight until
# a run takes it, so the pools of a few servers together must not be
# enough to refuse the next spare its sends.  TAP on stdout.
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from serve_client import ServeClient, descendants  # noqa: E402

SERVERS = 8
ROUNDS = 3
PROFILES = ["basic", "filesystem"]


def steady(srvs, still=1.0, limit=60.0):
    """Wait until the servers' process trees stop changing (pools full)."""
    deadline = time.monotonic() + limit
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        now = [len(descendants(s.p.pid)) for s in srvs]
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= still:
            return now
        time.sleep(0.1)
    return last


def main():
    pyward = os.environ.get("PYWARD", "pyward")
    log = open(os.devnull, "w", encoding="utf-8")
    srvs = [ServeClient(pyward, ",".join(PROFILES), log)
            for _ in range(SERVERS)]
    n = 0
    failed = 0
    try:
        for s in srvs:
            s.call("initialize", {"protocolVersion": "2025-06-18",
                                  "capabilities": {},
                                  "clientInfo": {"name": "many",
                                                 "version": "1"}})
        kids = steady(srvs)
        n += 1
        print(f"ok {n} - {SERVERS} servers started, their pools filled "
              f"({sum(kids)} processes)")
        for rnd in range(ROUNDS):
            for i, s in enumerate(srvs):
                _, m = s.call("tools/call", {
                    "name": "execute_code",
                    "arguments": {"code": "print(6 * 7)",
                                  "profile": PROFILES}}, 60)
                res = ((m or {}).get("result") or {}).get(
                    "structuredContent") or {}
                n += 1
                if res.get("stdout") == "42\n":
                    print(f"ok {n} - round {rnd + 1}, server {i + 1}: "
                          "the run works")
                else:
                    failed += 1
                    print(f"not ok {n} - round {rnd + 1}, server {i + 1}: "
                          "the run works")
                    print(f"# {res.get('status')}: {res.get('error')}"[:300])
    finally:
        for s in srvs:
            s.p.stdin.close()
        for s in srvs:
            try:
                s.p.wait(timeout=30)
            except Exception:  # noqa: BLE001 - never leave one behind
                s.p.kill()
                s.p.wait()
    print(f"1..{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
