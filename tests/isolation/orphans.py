# SPDX-License-Identifier: Apache-2.0
# orphans.py - every process a `pyward serve` starts dies with it, whatever
# kills the server.
#
# For each case a `pyward serve` (stdio) of its own is SIGKILLed while a
# run is under way: a fresh run that burns CPU, a fresh run asleep in
# time.sleep, a session's call that burns CPU, an idle session between
# calls, and a copy of a session (fork_session) whose call burns CPU.
# Then none of the processes it started may be alive: the zygote, the
# spares, the run, the session, the copy, the copy's namespace init.
#
# Which processes are the server's.  Before the kill: every descendant of
# the server, by the parent pids of the host's /proc (a run is PID 1 of a
# PID namespace of its own, but the host's /proc shows it with its host
# pid and parent), each with its start time so that a pid used again
# later is not taken for it.  After the kill: this driver is a child
# subreaper (PR_SET_CHILD_SUBREAPER), so a process whose parent dies is
# handed to it rather than to the host's init; a process the server
# started is therefore either dead or still below this driver, and the
# driver's own descendants are scanned too (that finds one forked between
# the record and the kill).  In production the orphans would go to PID 1
# of the host; the subreaper changes only who reaps them: a dead orphan
# stays a zombie of this driver until it is reaped, so a zombie counts as
# dead, and the driver reaps as it polls.  Processes named pyward-* or of
# uid nobody that are not below the driver are another server's (several
# test suites may run at once on one host): they are listed, not judged.
#
# A process is allowed the time the kernel takes to deliver a SIGKILL and
# tear the process down: it is polled for, up to GRACE seconds; the cases
# this test exists for lived on for the run's whole budget (100 s asleep,
# an hour of CPU for a session).  Whatever is still alive at the end of a
# case is killed by pid, pass or fail, so the test leaves nothing behind.
#
# usage: orphans.py   (PYWARD names the binary; TAP on stdout)

import ctypes
import json
import os
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import tap  # noqa: E402
from serve_client import ServeClient, wait_for  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
PR_SET_CHILD_SUBREAPER = 36
NOBODY = 65534
GRACE = 2.0
BUSY = "x = 0\nwhile True:\n    x += 1\n"
SLEEP = "import time\ntime.sleep(100)\n"
# The syscall numbers (x86_64) a sleeping run waits in.
SLEEP_CALLS = {"35", "230"}




def stat(pid):
    """(ppid, state, start time, comm, cpu ticks) of PID, or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8",
                  errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    comm = text[text.index("(") + 1:text.rindex(")")]
    rest = text[text.rindex(")") + 2:].split()
    return (int(rest[1]), rest[0], int(rest[19]), comm,
            int(rest[11]) + int(rest[12]))


def uid_of(pid):
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as f:
            for line in f:
                if line.startswith("Uid:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def table():
    """{pid: stat(pid)} of every process in the host's /proc."""
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            st = stat(int(name))
            if st is not None:
                out[int(name)] = st
    return out


def below(root, procs=None):
    """{pid: (start time, comm, uid)} of every process under ROOT."""
    procs = procs if procs is not None else table()
    kids = {}
    for pid, st in procs.items():
        kids.setdefault(st[0], []).append(pid)
    out, todo = {}, [root]
    while todo:
        for pid in kids.get(todo.pop(), []):
            if pid not in out:
                st = procs[pid]
                out[pid] = (st[2], st[3], uid_of(pid))
                todo.append(pid)
    return out


def alive(pid, start):
    """PID is the process that started at START and has not ended."""
    st = stat(pid)
    return st is not None and st[2] == start and st[1] not in ("Z", "X")


def reap():
    """Reap the zombies handed to this driver (it is a subreaper)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


class Server(ServeClient):
    def __init__(self, log, tmp):
        # One spare: a fresh run takes it, the zygote forks the next.
        super().__init__(PYWARD, "basic", log,
                         env={"TMPDIR": tmp, "PYWARD_SPARES": "1"})
        self.start = stat(self.p.pid)[2]
        self.call("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "orphans", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def tool(self, name, **args):
        _, msg = self.call("tools/call", {"name": name, "arguments": args},
                           60.0)
        if msg is None:
            return {"rpc_error": "no answer"}
        return msg.get("result") or {"rpc_error": msg.get("error")}

    def session(self, **args):
        r = self.tool("create_session", **args)
        return (r.get("structuredContent") or {}).get("session_id"), r

    def start_call(self, code, sid=None):
        """Send an execute_code call and do not wait for its answer."""
        args = {"code": code, "timeout": 120}
        if sid is not None:
            args["session_id"] = sid
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id,
                   "method": "tools/call",
                   "params": {"name": "execute_code", "arguments": args}})


def runs(srv):
    return {p: v for p, v in below(srv.p.pid).items()
            if v[1] == "pyward-run"}


def busy_run(srv, ticks=30):
    """The pid of a run of SRV that has burnt TICKS of CPU, or None."""
    def find():
        for pid in runs(srv):
            st = stat(pid)
            if st is not None and st[4] >= ticks:
                return pid
        return None
    return wait_for(find)


def sleeping_run(srv):
    """The pid of a run of SRV waiting in a sleep call, or None."""
    def find():
        for pid in runs(srv):
            try:
                with open(f"/proc/{pid}/syscall", encoding="utf-8") as f:
                    nr = f.read().split()[0]
            except (OSError, IndexError):
                continue
            if nr in SLEEP_CALLS:
                return pid
        return None
    return wait_for(find)


def fresh_busy(srv):
    srv.start_call(BUSY)
    return busy_run(srv), None


def fresh_sleeping(srv):
    srv.start_call(SLEEP)
    return sleeping_run(srv), None


def session_busy(srv):
    sid, r = srv.session()
    if sid is None:
        return None, f"create_session: {json.dumps(r)[:300]}"
    srv.start_call(BUSY, sid)
    return busy_run(srv), None


def session_idle(srv):
    sid, r = srv.session()
    if sid is None:
        return None, f"create_session: {json.dumps(r)[:300]}"
    r = srv.tool("execute_code", code="y = 1\n", session_id=sid)
    if (r.get("structuredContent") or {}).get("status") != "ok":
        return None, f"the session's call: {json.dumps(r)[:300]}"
    # Nothing is under way: any run of the server (the session's process
    # or a waiting spare) shows the record was taken.
    return next(iter(runs(srv)), None), None


def copy_busy(srv):
    sid, r = srv.session()
    if sid is None:
        return None, f"create_session: {json.dumps(r)[:300]}"
    srv.tool("execute_code", code="y = 1\n", session_id=sid)
    r = srv.tool("fork_session", session_id=sid)
    cid = (r.get("structuredContent") or {}).get("session_id")
    if cid is None:
        return None, f"SKIP fork_session: {json.dumps(r)[:300]}"
    srv.start_call(BUSY, cid)
    return busy_run(srv), None


CASES = [
    ("a fresh run burning CPU", fresh_busy),
    ("a fresh run asleep in time.sleep(100)", fresh_sleeping),
    ("a session's call burning CPU", session_busy),
    ("an idle session between calls", session_idle),
    ("a copy of a session (fork_session) whose call burns CPU", copy_busy),
]


def describe(procs):
    return ", ".join(f"{p} {v[1]} uid {v[2]}" for p, v in sorted(procs.items()))


def strangers(srv, ours):
    """Processes named pyward-* or of uid nobody, started after SRV, that
    are not below this driver: another server's."""
    out = {}
    for pid, st in table().items():
        if pid in ours or st[2] < srv.start:
            continue
        if st[3].startswith("pyward") or uid_of(pid) == NOBODY:
            out[pid] = (st[2], st[3], uid_of(pid))
    return out


def one_case(name, setup):
    tmp = tempfile.mkdtemp(prefix="pyward-orphans.")
    os.chmod(tmp, 0o755)
    log = open(os.path.join(tmp, "serve.log"), "wb")
    srv = Server(log, tmp)
    me = os.getpid()
    recorded = {}
    try:
        pid, why = setup(srv)
        recorded = below(srv.p.pid)
        if why is not None and why.startswith("SKIP "):
            tap.skip(f"{name}: every process dies with the server", why[5:])
            return
        if pid is None or pid not in recorded:
            tap.point(False, f"{name}: the run is under way before the kill",
                      why or f"no such run among {describe(recorded)}")
            return
        zygotes = [p for p, v in recorded.items() if v[1] == "pyward-zygote"]
        tap.point(bool(zygotes),
                  f"{name}: the run and the zygote are there before the kill",
                  describe(recorded))
        os.kill(srv.p.pid, signal.SIGKILL)
        srv.p.wait()

        def left():
            reap()
            out = {p: v for p, v in recorded.items() if alive(p, v[0])}
            out.update({p: v for p, v in below(me).items()
                        if alive(p, v[0])})
            return out
        deadline = time.monotonic() + GRACE
        still = left()
        while still and time.monotonic() < deadline:
            time.sleep(0.02)
            still = left()
        tap.point(not still, f"{name}: no process of the server alive after "
                  f"it was killed ({len(recorded)} recorded)",
                  f"alive: {describe(still)}")
        others = strangers(srv, set(recorded) | set(below(me)))
        if others:
            print(f"# not this server's: {describe(others)}")
    finally:
        cleanup(srv, recorded)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


def cleanup(srv, recorded):
    """Kill by pid whatever of this case is left, pass or fail."""
    if srv.p.poll() is None:
        srv.p.kill()
        srv.p.wait()
    for _ in range(50):
        left = {p: v for p, v in recorded.items() if alive(p, v[0])}
        left.update({p: v for p, v in below(os.getpid()).items()
                     if alive(p, v[0])})
        if not left:
            break
        for pid, v in left.items():
            if alive(pid, v[0]):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        time.sleep(0.02)
        reap()
    reap()


def main():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("Bail out! prctl(PR_SET_CHILD_SUBREAPER): "
              f"{os.strerror(ctypes.get_errno())}")
        return 1
    for name, setup in CASES:
        one_case(name, setup)
    return tap.plan()


if __name__ == "__main__":
    sys.exit(main())
