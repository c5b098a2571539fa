# SPDX-License-Identifier: Apache-2.0
# crossrun.py - no run's memory ever holds another run's bytes.
#
# A victim run, through one `pyward serve`, puts random tokens in its
# code, its stdin, its stdout and a workspace file, then waits.  While it
# waits, and after it has ended, every other process of the server's tree
# (the zygote, the waiting spares, a concurrent run, a later run) is read
# whole, from /proc/PID/mem over every readable mapping, and must not hold
# any of the tokens.  The victim itself must hold them: that proves the
# scan finds what it looks for.  Only the server (which relays the data)
# is not scanned.  Reading another process's memory needs root
# (CAP_SYS_PTRACE); without it the test is skipped.  A run waits on a
# flag in its own memory (HOLD) that the test flips once it has read the
# tree (release), so no run lasts longer than the scans.
#
# usage: crossrun.py   (PYWARD names the binary; TAP on stdout)

import os
import secrets
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from serve_client import ServeClient, proc_table  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
CHUNK = 1 << 20
# Mappings larger than this are reservations, not data: a run's memory
# limit is far below it, and a sanitizer's shadow (terabytes, readable,
# almost all unbacked) would take hours to read.
RANGE_MAX = 1 << 30
# A run's last lines: it waits until the test writes b"done" over the
# b"hold" before NAME's value in G (the only place the two stand side by
# side), then ends.
HOLD = ("G = bytearray(b'hold')\nG += {name}.encode()\n"
        "while G[:4] == b'hold':\n    time.sleep(0.02)\n")

points = []


def point(ok, name, detail=""):
    points.append((ok, name, detail))


def descendants(root):
    table = proc_table()
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        kids = [c for c, (pp, st) in table.items() if pp == p and st != "Z"]
        out += kids
        todo += kids
    return out


def readable_ranges(pid):
    with open(f"/proc/{pid}/maps", encoding="utf-8") as f:
        for line in f:
            addr, perms = line.split()[:2]
            if perms[0] != "r":
                continue
            lo, hi = (int(x, 16) for x in addr.split("-"))
            if hi - lo <= RANGE_MAX:
                yield lo, hi


def holds(pid, tokens):
    """The tokens found anywhere in PID's readable memory; None if the
    process went away while it was read."""
    found = set()
    keep = max(len(t) for t in tokens)
    try:
        with open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
            for lo, hi in readable_ranges(pid):
                tail = b""
                pos = lo
                while pos < hi:
                    try:
                        mem.seek(pos)
                        data = mem.read(min(CHUNK, hi - pos))
                    except OSError:
                        break  # [vvar] and the like
                    if not data:
                        break
                    buf = tail + data
                    found.update(t for t in tokens if t in buf)
                    tail = buf[-keep:]
                    pos += len(data)
    except (FileNotFoundError, ProcessLookupError):
        return None
    return found


def release(pid, name_value, wait=25.0):
    """Let PID's run end: b"done" over each b"hold" + NAME_VALUE in its
    memory (see HOLD), once the run has come that far (until WAIT seconds
    have passed).  True if written; None if the process went away."""
    deadline = time.monotonic() + wait
    while True:
        done = flip(pid, b"hold" + name_value)
        if done is not False or time.monotonic() > deadline:
            return done
        time.sleep(0.05)


def flip(pid, flag):
    done = False
    try:
        with open(f"/proc/{pid}/mem", "r+b", buffering=0) as mem:
            for lo, hi in readable_ranges(pid):
                pos = lo
                while pos < hi:
                    try:
                        mem.seek(pos)
                        data = mem.read(min(CHUNK, hi - pos))
                    except OSError:
                        break  # [vvar] and the like
                    if not data:
                        break
                    at = data.find(flag)
                    while at >= 0:
                        mem.seek(pos + at)
                        mem.write(b"done")
                        done = True
                        at = data.find(flag, at + 1)
                    if pos + len(data) >= hi:
                        break
                    pos += max(len(data) - len(flag) + 1, 1)
    except (FileNotFoundError, ProcessLookupError):
        return None
    return done


def marker_holder(root, marker, wait=25.0):
    """The pid of the run whose memory holds MARKER (its code's literal),
    looked for until WAIT seconds have passed (a run may wait for its
    spare, longer in sanitized builds)."""
    deadline = time.monotonic() + wait
    while True:
        for pid in descendants(root):
            if holds(pid, [marker]):
                return pid
        if time.monotonic() > deadline:
            return None
        time.sleep(0.2)


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return "?"


class Calls:
    """Several execute_code calls in flight on one server: send now,
    collect the answers by id later."""

    def __init__(self, srv):
        self.srv = srv
        self.answers = {}
        self.next_id = 1000

    def send(self, args):
        self.next_id += 1
        self.srv.send({"jsonrpc": "2.0", "id": self.next_id,
                       "method": "tools/call",
                       "params": {"name": "execute_code",
                                  "arguments": args}})
        return self.next_id

    def wait(self, rid, timeout=60):
        import json
        deadline = time.monotonic() + timeout
        while rid not in self.answers:
            line = self.srv.readline(deadline)
            if line is None:
                return {}
            msg = json.loads(line)
            self.answers[msg.get("id")] = msg
        res = self.answers.pop(rid).get("result", {})
        return res.get("structuredContent", {})


def scan_others(root, skip, tokens):
    """{pid: tokens found} over the server's tree but SKIP; and how many
    processes were read."""
    procs = [p for p in descendants(root) if p not in skip]
    leaks = {p: holds(p, tokens) for p in procs}
    return {p: sorted(x.decode()[:8] for x in f)
            for p, f in leaks.items() if f}, procs


def main():
    if os.geteuid() != 0:
        print("1..0 # SKIP reading other processes' memory needs root")
        return 0
    code_tok = "vc" + secrets.token_hex(16)
    stdin_tok = "vi" + secrets.token_hex(16)
    tokens = [code_tok.encode(), stdin_tok.encode(),
              stdin_tok[::-1].encode(),          # only in its stdout
              code_tok.upper().encode()]         # only in its file
    # The runs wait until released (HOLD), however long the scans of a
    # loaded host take: reading a process of a sanitized build whole takes
    # seconds there, and a run that ended before it was found would fail
    # its point.
    victim = (f"import pathlib, time\nA = {code_tok!r}\ns = input()\n"
              "r = s[::-1]\nprint(r, flush=True)\n"
              "pathlib.Path('secret.txt').write_text(A.upper())\n"
              + HOLD.format(name="A"))
    srv = ServeClient(PYWARD, "basic,filesystem", sys.stderr)
    srv.call("initialize", {"protocolVersion": "2025-06-18",
                            "capabilities": {},
                            "clientInfo": {"name": "crossrun",
                                           "version": "1"}})
    srv.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    root = srv.p.pid
    calls = Calls(srv)

    vid = calls.send({"code": victim, "stdin": stdin_tok, "timeout": 60,
                      "profile": ["basic", "filesystem"]})
    vpid = marker_holder(root, code_tok.encode())
    found = set()
    deadline = time.monotonic() + 25
    while vpid and found != set(tokens) and time.monotonic() < deadline:
        found = holds(vpid, tokens) or set()  # printed, file written?
        time.sleep(0.2)
    point(vpid is not None and found == set(tokens),
          "the scan finds every token in the victim run's own memory",
          f"pid {vpid}: {sorted(x.decode()[:8] for x in found or [])}")
    # It has printed and written its file, and waits.
    probe_tok = "pb" + secrets.token_hex(16)
    pid_ = calls.send({"code": f"import time\nB = {probe_tok!r}\n"
                               + HOLD.format(name="B"), "timeout": 60})
    ppid = marker_holder(root, probe_tok.encode())
    point(ppid is not None and ppid != vpid and not holds(ppid, tokens),
          "a concurrent run holds none of the victim's tokens",
          f"probe pid {ppid}: {holds(ppid, tokens) if ppid else None}")
    zyg = [p for p in descendants(root) if comm(p) == "pyward-zygote"]
    point(len(zyg) == 1, "the zygote process is there to be scanned",
          f"{[(p, comm(p)) for p in descendants(root)]}")
    leaks, procs = scan_others(root, {vpid}, tokens)
    point(not leaks, "while the victim runs: no token in the zygote, the "
          f"spares or the other run ({len(procs)} processes)", f"{leaks}")
    for p, value in ((vpid, code_tok), (ppid, probe_tok)):
        if p is not None:
            release(p, value.encode())

    res = calls.wait(vid)
    point(res.get("status") == "ok" and
          stdin_tok[::-1] in res.get("stdout", ""),
          "the victim run succeeded",
          f"{res.get('status')} {res.get('error')}")
    res = calls.wait(pid_)
    point(res.get("status") == "ok", "the concurrent run succeeded",
          f"{res.get('status')} {res.get('error')}")

    # Later runs through the same server: each waits while the whole tree
    # is read.
    for i in range(3):
        marker = f"lt{i}" + secrets.token_hex(16)
        rid = calls.send({"code": f"import time\nM = {marker!r}\n"
                                  + HOLD.format(name="M")})
        lpid = marker_holder(root, marker.encode())
        leaks, procs = scan_others(root, set(), tokens)
        point(lpid is not None and not leaks,
              f"later run {i + 1}: no token in it, the zygote or the spares "
              f"({len(procs)} processes)", f"run {lpid}, leaks {leaks}")
        if lpid is not None:
            release(lpid, marker.encode())
        calls.wait(rid)
    srv.p.stdin.close()
    srv.p.wait(timeout=30)

    print(f"1..{len(points)}")
    for n, (ok, name, detail) in enumerate(points, 1):
        print(f"{'ok' if ok else 'not ok'} {n} - {name}")
        if not ok:
            print(f"# {detail}")
    return 0 if all(ok for ok, _, _ in points) else 1


if __name__ == "__main__":
    sys.exit(main())
