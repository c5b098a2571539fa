# SPDX-License-Identifier: Apache-2.0
# serve_client.py - what the Python test drivers (red team, soak) share:
# a `pyward serve` talked to over JSON-RPC, and the process table they
# check for processes that outlive their run; and a `pyward serve --http`
# started and stopped for the drivers of its HTTP surface (tests/http/,
# tests/jobe/).

import http.client
import json
import os
import re
import select
import signal
import subprocess
import threading
import time


def wait_for(cond, timeout=30.0, every=0.05):
    """COND()'s first true value, looked for every EVERY seconds for
    TIMEOUT seconds; else its last value."""
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got or time.monotonic() > deadline:
            return got
        time.sleep(every)


def proc_table():
    """{pid: (ppid, state)} of every process we can see."""
    table = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat", encoding="utf-8",
                      errors="replace") as f:
                rest = f.read().rpartition(")")[2].split()
        except OSError:
            continue
        table[int(p)] = (int(rest[1]), rest[0])
    return table


def descendants(pid):
    """Every live process under PID (a session's copies are the server's
    grandchildren)."""
    table = proc_table()
    out, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for p, (pp, st) in table.items():
            if pp == parent and p not in out:
                out.add(p)
                todo.append(p)
    return {p for p in out if table[p][1] not in ("Z", "X")}


def all_read(port):
    """True if no byte to or from PORT (on this host) waits in a socket's
    queue (every request sent has been read by the server)."""
    busy = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table) as f:
            for line in f.readlines()[1:]:
                x = line.split()
                ports = (int(x[1].rsplit(":", 1)[1], 16),
                         int(x[2].rsplit(":", 1)[1], 16))
                if port in ports and x[3] == "01":
                    tx, rx = (int(v, 16) for v in x[4].split(":"))
                    busy += [(tx, rx)] if tx or rx else []
    return not busy


def cpu_ticks(pid):
    """CPU ticks (utime + stime) of PID, or 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            rest = f.read().rpartition(")")[2].split()
        return int(rest[11]) + int(rest[12])
    except (OSError, IndexError, ValueError):
        return 0


def children_named(pid, name):
    """The live children of PID whose name (comm) is NAME."""
    out = []
    for p, (pp, st) in proc_table().items():
        if pp != pid or st in ("Z", "X"):
            continue
        try:
            with open(f"/proc/{p}/comm") as f:
                if f.read().strip() == name:
                    out.append(p)
        except OSError:
            pass
    return out


def busy_vproc(pid, during):
    """The validator process of server PID that works while DURING (a
    thread, started here) waits for its answer: the one whose CPU time
    grows first, looked for every 5 ms for 10 s at the most; None if
    none does.  Returns (that pid or None, every validator process)."""
    vprocs = children_named(pid, "pyward-vproc")
    before = {p: cpu_ticks(p) for p in vprocs}
    during.start()
    for _ in range(2000):
        for p in vprocs:
            if cpu_ticks(p) > before[p]:
                return p, vprocs
        time.sleep(0.005)
    return None, vprocs


class ServeClient:
    """One `pyward serve --profiles PROFILES [ARGS]` (ENV added to the
    environment), talked to over JSON-RPC on its stdin/stdout; its stderr
    goes to STDERR."""

    def __init__(self, pyward, profiles, stderr, args=(), env=None):
        self.p = subprocess.Popen(
            [pyward, "serve", "--profiles", profiles, *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
            env={**os.environ, **(env or {})})
        self.next_id = 0
        self.buf = b""

    def send(self, obj):
        self.p.stdin.write((json.dumps(obj) + "\n").encode())
        self.p.stdin.flush()

    def readline(self, deadline):
        """The next line from the server, or None at EOF or DEADLINE."""
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if not r:
                return None
            chunk = os.read(self.p.stdout.fileno(), 1 << 20)
            if not chunk:
                return None
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode("utf-8", "replace")

    def call(self, method, params, wait=30.0):
        """(raw line, message) of the answer, or (None, None); a line that
        is not JSON is (line, None)."""
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                   "params": params})
        deadline = time.monotonic() + wait
        while True:
            line = self.readline(deadline)
            if line is None:
                return None, None
            try:
                msg = json.loads(line)
            except ValueError:
                return line, None
            if msg.get("id") == self.next_id:
                return line, msg


class HttpServeClient:
    """The same over HTTP: one `pyward serve --profiles PROFILES --http
    127.0.0.1:0`, each message POSTed to /mcp; its stderr goes to STDERR
    (a file, where the port is read from)."""

    def __init__(self, pyward, profiles, stderr):
        self.p = subprocess.Popen(
            [pyward, "serve", "--profiles", profiles, "--http",
             "127.0.0.1:0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=stderr)
        self.next_id = 0
        self.port = self._port(stderr.name)

    def _port(self, path):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.p.poll() is None:
            with open(path, encoding="utf-8", errors="replace") as f:
                m = re.search(r"serving MCP on http://[^ ]+:(\d+)/mcp",
                              f.read())
            if m:
                return int(m.group(1))
            time.sleep(0.05)
        raise RuntimeError("pyward serve --http did not start")

    def post(self, obj, wait=30.0):
        """(status, body bytes) of one POST, or (None, b"")."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=wait)
        try:
            c.request("POST", "/mcp", body=json.dumps(obj), headers={
                "Content-Type": "application/json",
                "Accept": "application/json",
                "MCP-Protocol-Version": "2025-06-18"})
            r = c.getresponse()
            return r.status, r.read()
        except OSError:
            return None, b""
        finally:
            c.close()

    def send(self, obj):
        self.post(obj)

    def call(self, method, params, wait=30.0):
        """(raw body, message) of the answer, or (None, None)."""
        self.next_id += 1
        status, body = self.post({"jsonrpc": "2.0", "id": self.next_id,
                                  "method": method, "params": params}, wait)
        if status is None:
            return None, None
        text = body.decode("utf-8", "replace")
        try:
            return text, json.loads(text)
        except ValueError:
            return text, None

    def close(self):
        """Ask the server to stop (SIGTERM: it drains, then exits 0)."""
        self.p.send_signal(signal.SIGTERM)


class HttpServer:
    """One `pyward serve --http 127.0.0.1:0 ARGS` started by PYWARD (with
    PREEXEC_FN run in the child before it, ENV its environment if not
    None), for a driver's subclass to
    talk to.  A thread reads its stderr: the port from the line "serving
    MCP on http(s)://HOST:PORT/mcp", and each line keep() takes into .err
    (every one here).  The start waits READY_S seconds at the most for the
    port; stop() waits STOP_S for the server to end."""

    READY_S = 60
    STOP_S = 45

    def __init__(self, pyward, args, preexec_fn=None, env=None):
        self.proc = subprocess.Popen(
            [pyward, "serve", "--http", "127.0.0.1:0", *args], env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, preexec_fn=preexec_fn)
        self.err = []
        self.port = None
        ready = threading.Event()

        def reader():
            for raw in self.proc.stderr:
                line = raw.decode("utf-8", "replace")
                if self.keep(line):
                    self.err.append(line)
                m = re.search(r"serving MCP on https?://[^ ]+:(\d+)/mcp",
                              line)
                if m:
                    self.port = int(m.group(1))
                    ready.set()
            ready.set()

        self.reader = threading.Thread(target=reader, daemon=True)
        self.reader.start()
        ready.wait(self.READY_S)
        if self.port is None:
            raise RuntimeError("no port: " + "".join(self.err))

    def keep(self, line):
        return True

    def stop(self, sig=signal.SIGTERM, timeout=None):
        """Sends SIG unless the server has ended, and waits for it
        (TIMEOUT seconds, STOP_S by default): its exit status, or None
        when it had to be killed."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(self.STOP_S if timeout is None else timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None
